/**
 * The tests' own Fastify app documented with @fastify/swagger: route schemas, its
 * document generated from them, error schemas written `allOf: [Error, …]` the way Fastify users
 * share them, and Fastify's own errors (`{statusCode, error, message}`) where the spec wants its
 * error body. Its violations are listed in five-apis.test.ts.
 */
import swagger from '@fastify/swagger';
import Fastify from 'fastify';
import type { Started } from './_listen.ts';

/** Starts the app on port 0. */
export async function startFastifySwaggerLike(): Promise<Started> {
  // `example` documents a value, as @fastify/swagger users write it.
  const app = Fastify({ logger: false, ajv: { customOptions: { keywords: ['example'] } } });
  await app.register(swagger, {
    openapi: {
      openapi: '3.0.3',
      info: { title: 'Catalogue', version: '1.0.0' },
      servers: [{ url: '/' }],
    },
  });
  app.addSchema({
    $id: 'Product',
    type: 'object',
    required: ['id', 'name', 'createdAt'],
    properties: {
      id: { type: 'integer', example: 1 },
      name: { type: 'string' },
      createdAt: { type: 'string', format: 'date-time' },
    },
  });
  app.addSchema({
    $id: 'Error',
    type: 'object',
    required: ['statusCode', 'error', 'message'],
    properties: {
      statusCode: { type: 'integer' },
      error: { type: 'string' },
      message: { type: 'string' },
    },
  });
  // Fastify's own error shape, shared as `allOf: [Error]` the way its users write it.
  const notFound = { description: 'not found', allOf: [{ $ref: 'Error#' }] };
  const products = [{ id: 1, name: 'Lamp', createdAt: '2026-01-01T00:00:00.000Z' }];
  app.get(
    '/v1/products',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: { limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 } },
        },
        response: {
          200: {
            type: 'object',
            required: ['products', 'hasNext'],
            properties: {
              products: { type: 'array', items: { $ref: 'Product#' } },
              hasNext: { type: 'boolean' },
            },
          },
          400: notFound,
        },
      },
    },
    async (request, reply) => {
      const { limit } = request.query as { limit: number };
      reply.header('cache-control', 'private, no-cache');
      return { products: products.slice(0, limit), hasNext: false };
    },
  );
  app.get(
    '/v1/products/:id',
    {
      schema: {
        params: {
          type: 'object',
          required: ['id'],
          properties: { id: { type: 'integer', example: 1 } },
        },
        response: { 200: { $ref: 'Product#' }, 404: notFound },
      },
    },
    async (request, reply) => {
      const { id } = request.params as { id: number };
      const product = products.find((p) => p.id === id);
      reply.header('cache-control', 'private, no-cache');
      if (!product)
        return reply
          .code(404)
          .send({ statusCode: 404, error: 'Not Found', message: `No product ${id}` });
      return product;
    },
  );
  app.get('/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as { port: number };
  return { base: `http://127.0.0.1:${port}`, close: () => app.close() };
}
