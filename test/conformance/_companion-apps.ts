/** The apps of the companion tests: a service whose warnings are kept, started on port 0. */
import type { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { conventions, type Plugin, type RouteTable } from 'api-conventions';
import { toFetchErrorHandler, toFetchHandler, toFetchMiddleware } from 'api-conventions/fetch';
import type { FastifyInstance } from 'fastify';
import { Hono } from 'hono';
import { expect } from 'vitest';
import { listen } from '../../examples/bookshelf/hosts/host.ts';

const where = { port: 0, host: '127.0.0.1' };

/** A service with `plugins` (no identity plugin: the companion authenticates) and its warnings. */
export function service(plugins: Plugin[] = [], routes: RouteTable = {}) {
  const warnings: string[] = [];
  const api = conventions({
    logger: { error() {}, warn: (message) => warnings.push(message) },
    plugins,
    routes,
  });
  return { api, warnings };
}

const running: { close(): Promise<void> }[] = [];

/** Closes every server started since the last call (each test's `afterEach`). */
export async function closeRunning(): Promise<void> {
  const all = running.splice(0);
  await Promise.all(all.map((served) => served.close()));
}

/** Starts a Fastify app; its base URL. */
export async function startFastify(app: FastifyInstance): Promise<string> {
  await app.listen(where);
  running.push(app);
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** Starts a node:http server (an Express app's, a Hono app's); its base URL. */
export async function start(server: ReturnType<typeof createServer>): Promise<string> {
  const served = await listen(server, where.port, where.host);
  running.push(served);
  return `http://127.0.0.1:${served.port}`;
}

/** Starts a Hono app with the middleware, the error handler and the not-found handler. */
export function startHono(
  api: ReturnType<typeof service>['api'],
  routes: (app: Hono) => void,
  ahead: (app: Hono) => void = () => {},
) {
  const app = new Hono();
  ahead(app);
  app.use('*', toFetchMiddleware(api, { routes: () => app.routes }));
  app.onError(toFetchErrorHandler(api));
  routes(app);
  app.notFound(toFetchHandler(api));
  const server = createAdaptorServer({ fetch: app.fetch, hostname: where.host });
  return start(server as ReturnType<typeof createServer>);
}

/** The error body's entries, checked to be the spec's shape (spec 7.1.5). */
export async function errorsOf(res: Response): Promise<{ message: string; code: number }[]> {
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  const { errors } = await res.json();
  expect(errors).toEqual([{ message: expect.any(String), code: expect.any(Number) }]);
  return errors;
}
