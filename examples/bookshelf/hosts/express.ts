/** Serves the bookshelf with Express 5 and the Express adapter: the table on Express's own router. */
import { createServer } from 'node:http';
import type { Conventions } from 'api-conventions';
import { identityOf, toExpressMiddleware } from 'api-conventions/express';
import { attachServerHandlers } from 'api-conventions/node';
import express, { type Application } from 'express';
import { appRouteAnswer, appRoutes, servesAppRoutes } from '../app-routes.ts';
import { type Host, listen, settingsOf } from './host.ts';

/** A host on the Express app `makeApp` builds (Express 5, or Express 4 in express4.ts). */
export function serveWith(makeApp: () => Application): Host {
  return (api: Conventions, where) => {
    const app = makeApp();
    // Before the first route: Express builds its router with these settings on first use.
    app.disable('x-powered-by');
    app.set('case sensitive routing', true);
    app.set('strict routing', true);

    const conventions = toExpressMiddleware(api);
    app.use(conventions.before);
    conventions.mount(app);
    // The app's own routes: authenticated and limited like the table's, unless they opt out.
    if (servesAppRoutes(api)) {
      for (const { path, settings } of appRoutes) {
        app.get(path, conventions.guard(settings), (req, res) => {
          res.json(appRouteAnswer(identityOf(req)));
        });
      }
    }
    app.use(conventions.after);

    // node:http answers what Express never sees (parser errors, timeouts, Expect, CONNECT).
    const server = attachServerHandlers(createServer(settingsOf(where), app), api, app);
    return listen(server, where.port, where.host);
  };
}

/** Starts an Express 5 app for `api` on a node:http server; resolves once it listens. */
export const serve: Host = serveWith(() => express());
