/** Serves the bookshelf with Koa 3 and @koa/router through the Koa adapter. */
import { createServer } from 'node:http';
import Router from '@koa/router';
import type { Conventions } from 'api-conventions';
import { identityOf, toKoaMiddleware } from 'api-conventions/koa';
import { attachServerHandlers } from 'api-conventions/node';
import Koa from 'koa';
import { appRouteAnswer, appRoutes, servesAppRoutes } from '../app-routes.ts';
import { type Host, listen, settingsOf } from './host.ts';

/** Starts a Koa app for `api` on a node:http server; resolves once it listens. */
export const serve: Host = (api: Conventions, where) => {
  const app = new Koa();
  const c = toKoaMiddleware(api);
  app.use(c.middleware);
  const router = new Router({ strict: true, sensitive: true });
  // The app's own routes: authenticated and limited like the table's, unless they opt out.
  if (servesAppRoutes(api)) {
    for (const { path, settings } of appRoutes) {
      router.get(path, c.guard(settings), (ctx) => {
        ctx.body = appRouteAnswer(identityOf(ctx));
      });
    }
  }
  app.use(router.routes());
  // node:http answers what Koa never sees (parser errors, timeouts, Expect, CONNECT).
  const listener = app.callback();
  const server = attachServerHandlers(createServer(settingsOf(where), listener), api, listener);
  return listen(server, where.port, where.host);
};
