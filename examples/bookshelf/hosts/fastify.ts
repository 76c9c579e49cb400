/** Serves the bookshelf with Fastify 5 and the fastify plugin. */
import type { AddressInfo } from 'node:net';
import type { Conventions } from 'api-conventions';
import { fastifyConventions, frameworkErrors } from 'api-conventions/fastify';
import Fastify from 'fastify';
import type { Host } from './host.ts';

/** Starts a Fastify server for `api`; resolves once it listens. */
export const serve: Host = async (api: Conventions, { port, host }) => {
  // frameworkErrors: malformed URLs get the spec's error body too; forceCloseConnections: close()
  // also ends open keep-alive connections.
  const app = Fastify({ frameworkErrors, forceCloseConnections: true });
  await app.register(fastifyConventions, { api });
  await app.listen({ port, host });
  return {
    port: (app.server.address() as AddressInfo).port,
    close: () => app.close(),
  };
};
