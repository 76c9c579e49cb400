/** Serves the bookshelf with Express 4 (the `express4` alias of express@4) and the Express adapter. */
import { createServer } from 'node:http';
import type { Conventions } from 'api-conventions';
import { createExpressMiddleware } from 'api-conventions/express';
import type { Application } from 'express';
import express4 from 'express4';
import { type Host, listen } from './host.ts';

/** Starts an Express 4 app for `api` on a node:http server; resolves once it listens. */
export const serve: Host = (api: Conventions, { port, host }) => {
  // The adapter's declarations name the types of 'express', here @types/express 5; in an Express 4
  // project they are that project's @types/express 4 and the app needs no cast.
  const app = express4() as unknown as Application;
  // Before the first route: Express builds its router with these settings on first use.
  app.disable('x-powered-by');
  app.set('case sensitive routing', true);
  app.set('strict routing', true);

  const conventions = createExpressMiddleware(api);
  app.use(conventions.before);
  conventions.mount(app);
  app.use(conventions.after);

  return listen(createServer(app), port, host);
};
