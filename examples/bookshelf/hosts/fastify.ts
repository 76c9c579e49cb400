/** Serves the bookshelf with Fastify 5 and the fastify plugin. */
import type { AddressInfo } from 'node:net';
import type { Conventions } from 'api-conventions';
import { fastifyConventions, serverOptions } from 'api-conventions/fastify';
import Fastify from 'fastify';
import type { Host } from './host.ts';

/** Starts a Fastify server for `api`; resolves once it listens. */
export const serve: Host = async (api: Conventions, { port, host }) => {
  // serverOptions: Fastify's own errors in the spec's body, one routing of every target, long
  // path parameters; forceCloseConnections: close() also ends open keep-alive connections.
  const app = Fastify({ ...serverOptions, forceCloseConnections: true });
  await app.register(fastifyConventions, { api });
  await app.listen({ port, host });
  return {
    port: (app.server.address() as AddressInfo).port,
    close: () => app.close(),
  };
};
