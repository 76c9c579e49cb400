/**
 * The service of the telemetry suite and its hosts: the same routes on node:http,
 * Express 5 and 4, Fastify, Hono and Koa, each on a real server on port 0. A table route with ETags
 * (`/v1/books/:id`), one that needs a key (`/v1/private`), one with a tight rate limit
 * (`/v1/limited`), one that fails (`/v1/failures`), and the app's own `DELETE /v1/things/:id` (204)
 * on the hosts with a router (in the table on node:http, where the library routes).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { getConnInfo } from '@hono/node-server/conninfo';
import Router from '@koa/router';
import type { Conventions } from 'api-conventions';
import { toExpressMiddleware } from 'api-conventions/express';
import { serverOptions, toFastifyPlugin } from 'api-conventions/fastify';
import { toFetchErrorHandler, toFetchHandler, toFetchMiddleware } from 'api-conventions/fetch';
import { toKoaMiddleware } from 'api-conventions/koa';
import { toNodeHandler } from 'api-conventions/node';
import express, { type Application } from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import Koa from 'koa';
import { type AdapterName, listen, type Running } from '../../examples/bookshelf/hosts/host.ts';
import {
  type NestRoute,
  serveNestExpress,
  serveNestFastify,
} from '../../examples/bookshelf/hosts/nest.ts';

export { telemetryApi } from './_telemetry-service.ts';

const where = { port: 0, host: '127.0.0.1' };

function serveNode(api: Conventions): Promise<Running> {
  return listen(createServer(toNodeHandler(api)), where.port, where.host);
}

function serveExpress(api: Conventions, create: () => Application): Promise<Running> {
  const app = create();
  app.disable('x-powered-by');
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  const c = toExpressMiddleware(api);
  app.use(c.before);
  c.mount(app);
  app.delete('/v1/things/:id', (_req, res) => {
    res.status(204).end();
  });
  app.use(c.after);
  return listen(createServer(app), where.port, where.host);
}

async function serveFastify(api: Conventions): Promise<Running> {
  const app = Fastify({ ...serverOptions, forceCloseConnections: true });
  await app.register(toFastifyPlugin(api));
  app.delete('/v1/things/:id', async (_request, reply) => reply.code(204).send());
  await app.listen(where);
  return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
}

function serveHono(api: Conventions): Promise<Running> {
  const app = new Hono();
  const remoteAddress = (_request: Request, c: unknown) =>
    getConnInfo(c as Parameters<typeof getConnInfo>[0]).remote.address;
  app.use('*', toFetchMiddleware(api, { routes: () => app.routes, remoteAddress }));
  app.onError(toFetchErrorHandler(api));
  app.delete('/v1/things/:id', (c) => c.body(null, 204));
  app.notFound(toFetchHandler(api, { remoteAddress }));
  const server = createAdaptorServer({ fetch: app.fetch, hostname: where.host }) as Server;
  return listen(server, where.port, where.host);
}

function serveKoa(api: Conventions): Promise<Running> {
  const app = new Koa();
  app.use(toKoaMiddleware(api).middleware);
  const router = new Router({ strict: true, sensitive: true });
  router.delete('/v1/things/:id', (ctx) => {
    ctx.status = 204;
  });
  app.use(router.routes());
  return listen(createServer(app.callback()), where.port, where.host);
}

/** The app's own `DELETE /v1/things/:id` on Nest. */
const nestThings: NestRoute[] = [
  { method: 'DELETE', path: '/v1/things/:id', status: 204, answer: () => undefined },
];

/** Starts `api` on `adapter`; resolves once it listens. */
export async function serveTelemetry(adapter: AdapterName, api: Conventions): Promise<Running> {
  switch (adapter) {
    case 'node':
      return serveNode(api);
    case 'express':
      return serveExpress(api, express);
    case 'express4': {
      const { default: express4 } = await import('express4');
      return serveExpress(api, () => express4() as unknown as Application);
    }
    case 'fastify':
      return serveFastify(api);
    case 'fetch':
      return serveHono(api);
    case 'koa':
      return serveKoa(api);
    case 'nest':
      return serveNestExpress(api, where, nestThings);
    case 'nest-fastify':
      return serveNestFastify(api, where, nestThings);
  }
}
