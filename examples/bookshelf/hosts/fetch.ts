/** Serves the bookshelf through Hono on @hono/node-server with the fetch adapter. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Conventions } from 'api-conventions';
import { toFetchHandler } from 'api-conventions/fetch';
import { type Context, Hono } from 'hono';
import type { Host } from './host.ts';

/** Starts a Hono app for `api` on Node; resolves once it listens. */
export const serve: Host = (api: Conventions, { port, host }) =>
  new Promise((resolve, reject) => {
    const handle = toFetchHandler<Context>(api, {
      remoteAddress: (_request, c) => getConnInfo(c).remote.address,
    });
    const app = new Hono();
    app.all('*', (c) => handle(c.req.raw, c));
    // `serve()` would do, but it cannot report a port already in use.
    const server = createAdaptorServer({ fetch: app.fetch, hostname: host }) as Server;
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve({
        port: bound,
        close: () => new Promise<void>((done) => server.close(() => done()).closeAllConnections()),
      });
    });
  });
