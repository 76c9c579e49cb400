/** Serves the bookshelf through Hono on @hono/node-server with the fetch adapter. */
import { createServer } from 'node:http';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Conventions } from 'api-conventions';
import {
  type FetchHostOptions,
  identityOf,
  toClientErrorHandler,
  toFetchErrorHandler,
  toFetchGuard,
  toFetchHandler,
  toFetchMiddleware,
} from 'api-conventions/fetch';
import { attachServerHandlers, decodeNodeBody, sendContinue } from 'api-conventions/node';
import { type Context, Hono } from 'hono';
import { appRouteAnswer, appRoutes, servesAppRoutes } from '../app-routes.ts';
import { type Host, listen, settingsOf } from './host.ts';

/** Starts a Hono app for `api` on Node; resolves once it listens. */
export const serve: Host = (api: Conventions, where) => {
  const host: FetchHostOptions<Context<{ Bindings: HttpBindings }>> = {
    remoteAddress: (_request, c) => getConnInfo(c).remote.address,
    readingBody: (_request, c) => sendContinue(c.env.incoming),
    // node:zlib on Node: br as well as gzip and deflate.
    decodeBody: decodeNodeBody,
  };
  const app = new Hono<{ Bindings: HttpBindings }>();
  // First: every request is matched against the table and Hono's routes, checked, and a table
  // route answered; Hono's own routes then run with the caller known.
  app.use('*', toFetchMiddleware(api, { ...host, routes: () => app.routes }));
  app.onError(toFetchErrorHandler(api));
  // The app's own routes: authenticated and limited like the table's, unless they opt out.
  if (servesAppRoutes(api)) {
    for (const { path, settings } of appRoutes) {
      app.get(path, toFetchGuard(api, settings), (c) => c.json(appRouteAnswer(identityOf(c))));
    }
  }
  // Last: 404, 405 with Allow and OPTIONS for what no route served. Passed as it is, so that the
  // middleware knows Hono's not-found answer for the library's own.
  app.notFound(toFetchHandler(api, host));
  // The server's own 400s (a backslash in the path, a `*` target, a bad Host) get the error
  // body and count against the client's rate limit (wrap tells the handler who the client is);
  // node:http's own answers (parser errors, timeouts, Expect, CONNECT) are the core's.
  // No default hostname: a request without Host is refused, not given one.
  const errorHandler = toClientErrorHandler(api);
  const listener = errorHandler.wrap(getRequestListener(app.fetch, { errorHandler }));
  const server = attachServerHandlers(createServer(settingsOf(where), listener), api, listener);
  return listen(server, where.port, where.host);
};
