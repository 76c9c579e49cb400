/** Serves the bookshelf with Fastify 5 and the fastify plugin. */
import type { AddressInfo } from 'node:net';
import type { Conventions } from 'api-conventions';
import { identityOf, serverOptions, toFastifyPlugin } from 'api-conventions/fastify';
import Fastify from 'fastify';
import { appRouteAnswer, appRoutes, servesAppRoutes } from '../app-routes.ts';
import { type Host, settingsOf } from './host.ts';

/** Starts a Fastify server for `api`; resolves once it listens. */
export const serve: Host = async (api: Conventions, where) => {
  const { requestTimeout, keepAliveTimeout, ...http } = settingsOf(where);
  // serverOptions: Fastify's and Node's own errors in the spec's body, one routing of every
  // target, long path parameters; forceCloseConnections: close() also ends open keep-alive
  // connections. Fastify sets requestTimeout and keepAliveTimeout itself (its requestTimeout is
  // 0, never, by default: a stalled body would stay open), the rest goes to node:http.
  const app = Fastify({
    ...serverOptions,
    forceCloseConnections: true,
    requestTimeout,
    keepAliveTimeout,
    http,
  });
  await app.register(toFastifyPlugin(api));
  // The app's own routes: authenticated and limited like the table's, unless they opt out.
  if (servesAppRoutes(api)) {
    for (const { path, settings } of appRoutes) {
      app.get(path, { config: { conventions: settings } }, async (request) =>
        appRouteAnswer(identityOf(request)),
      );
    }
  }
  await app.listen({ port: where.port, host: where.host });
  return {
    port: (app.server.address() as AddressInfo).port,
    close: () => app.close(),
  };
};
