/** Serves the bookshelf with NestJS on @nestjs/platform-fastify (the Nest host file has both). */
export { serveFastify as serve } from './nest.ts';
