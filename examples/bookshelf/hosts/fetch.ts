/** Serves the bookshelf through Hono on @hono/node-server with the fetch adapter. */
import type { Server } from 'node:http';
import { createAdaptorServer } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Conventions } from 'api-conventions';
import { toFetchHandler } from 'api-conventions/fetch';
import { type Context, Hono } from 'hono';
import { type Host, listen } from './host.ts';

/** Starts a Hono app for `api` on Node; resolves once it listens. */
export const serve: Host = (api: Conventions, { port, host }) => {
  const handle = toFetchHandler<Context>(api, {
    remoteAddress: (_request, c) => getConnInfo(c).remote.address,
  });
  const app = new Hono();
  app.all('*', (c) => handle(c.req.raw, c));
  // `serve()` would do, but it cannot report a port already in use.
  const server = createAdaptorServer({ fetch: app.fetch, hostname: host }) as Server;
  return listen(server, port, host);
};
