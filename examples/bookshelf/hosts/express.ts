/** Serves the bookshelf with Express 5 and the Express adapter: the table on Express's own router. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Conventions } from 'api-conventions';
import { createExpressMiddleware } from 'api-conventions/express';
import express from 'express';
import type { Host } from './host.ts';

/** Starts an Express app for `api` on a node:http server; resolves once it listens. */
export const serve: Host = (api: Conventions, { port, host }) =>
  new Promise((resolve, reject) => {
    const app = express();
    // Before the first route: Express builds its router with these settings on first use.
    app.disable('x-powered-by');
    app.set('case sensitive routing', true);
    app.set('strict routing', true);

    const conventions = createExpressMiddleware(api);
    app.use(conventions.before);
    conventions.mount(app);
    app.use(conventions.after);

    const server = createServer(app);
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve({
        port: bound,
        close: () => new Promise<void>((done) => server.close(() => done()).closeAllConnections()),
      });
    });
  });
