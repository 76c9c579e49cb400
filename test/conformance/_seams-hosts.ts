/**
 * The hosts of the plugin-seams suite (every adapter host.ts lists), each on a real server on
 * port 0, built as the bookshelf's hosts are, plus native routes beside the route table:
 * `/v1/native-things` goes through the adapter's guard (Express `c.guard`, Fastify
 * `config.conventions`), `/v1/native-plain` does not, `/v1/native-failures` throws, and
 * `/v1/teapots` is one the plugin's pre-routing hook answers first.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
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
import { afterAll } from 'vitest';
import { type AdapterName, listen, type Running } from '../../examples/bookshelf/hosts/host.ts';
import {
  type NestRoute,
  serveNestExpress,
  serveNestFastify,
} from '../../examples/bookshelf/hosts/nest.ts';
import { describeMatrix, hosts } from './_matrix.ts';
import { createSeamsApi, type SeamsApi } from './_seams-plugin.ts';

const where = { port: 0, host: '127.0.0.1' };

/** What every native route answers: the same value on every host, so answers compare. */
const thing = (host: AdapterName) => ({ thing: 'native', host });

/** node:http has no router of its own: the table is all there is. */
function serveNode(api: Conventions): Promise<Running> {
  return listen(createServer(toNodeHandler(api)), where.port, where.host);
}

/**
 * Express 5 (or 4, from `create`): `before`, the table, native routes (one guarded), `after`;
 * strict routing.
 */
function serveExpress(
  api: Conventions,
  name: AdapterName,
  create: () => Application = express,
): Promise<Running> {
  const app = create();
  app.disable('x-powered-by');
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  const c = toExpressMiddleware(api);
  app.use(c.before);
  c.mount(app);
  app.get('/v1/native-things', c.guard({}), (_req, res) => {
    res.json(thing(name));
  });
  app.get('/v1/native-plain', (_req, res) => {
    res.json(thing(name));
  });
  app.get('/v1/teapots', (_req, res) => {
    res.json(thing(name));
  });
  app.get('/v1/native-failures', () => {
    throw new Error('a native route failed on purpose');
  });
  app.use(c.after);
  return listen(createServer(app), where.port, where.host);
}

/** Fastify 5: the plugin, then native routes (one with `config.conventions`). */
async function serveFastify(api: Conventions): Promise<Running> {
  const app = Fastify({ ...serverOptions, forceCloseConnections: true });
  await app.register(toFastifyPlugin(api));
  app.get('/v1/native-things', { config: { conventions: {} } }, async () => thing('fastify'));
  app.get('/v1/native-plain', async () => thing('fastify'));
  app.get('/v1/teapots', async () => thing('fastify'));
  app.get('/v1/native-failures', async () => {
    throw new Error('a native route failed on purpose');
  });
  await app.listen(where);
  return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
}

/**
 * Hono on @hono/node-server: the conventions' middleware first, then native routes, then
 * everything else to the fetch handler; the middleware hands Hono's routes to the route view.
 */
function serveFetch(api: Conventions): Promise<Running> {
  const app = new Hono();
  app.use('*', toFetchMiddleware(api, { routes: () => app.routes }));
  app.onError(toFetchErrorHandler(api));
  app.get('/v1/native-things', (c) => c.json(thing('fetch')));
  app.get('/v1/native-plain', (c) => c.json(thing('fetch')));
  app.get('/v1/teapots', (c) => c.json(thing('fetch')));
  app.get('/v1/native-failures', () => {
    throw new Error('a native route failed on purpose');
  });
  const handle = toFetchHandler(api);
  app.all('*', (c) => handle(c.req.raw));
  const server = createAdaptorServer({ fetch: app.fetch, hostname: where.host }) as Server;
  return listen(server, where.port, where.host);
}

/** Koa 3: the conventions' middleware first, then a router with native routes (one guarded). */
function serveKoa(api: Conventions): Promise<Running> {
  const app = new Koa();
  const c = toKoaMiddleware(api);
  app.use(c.middleware);
  const router = new Router({ strict: true, sensitive: true });
  router.get('/v1/native-things', c.guard({}), (ctx) => {
    ctx.body = thing('koa');
  });
  router.get('/v1/native-plain', (ctx) => {
    ctx.body = thing('koa');
  });
  router.get('/v1/teapots', (ctx) => {
    ctx.body = thing('koa');
  });
  router.get('/v1/native-failures', () => {
    throw new Error('a native route failed on purpose');
  });
  app.use(router.routes());
  return listen(createServer(app.callback()), where.port, where.host);
}

/** The native routes above on Nest (one with settings). */
const nestSeams = (adapter: AdapterName): NestRoute[] => [
  { method: 'GET', path: '/v1/native-things', settings: {}, answer: () => thing(adapter) },
  { method: 'GET', path: '/v1/native-plain', answer: () => thing(adapter) },
  { method: 'GET', path: '/v1/teapots', answer: () => thing(adapter) },
  {
    method: 'GET',
    path: '/v1/native-failures',
    answer: () => {
      throw new Error('a native route failed on purpose');
    },
  },
];

/** Starts `api` on `adapter` with the native routes above; resolves once it listens. */
export function serveSeams(adapter: AdapterName, api: Conventions): Promise<Running> {
  switch (adapter) {
    case 'node':
      return serveNode(api);
    case 'express':
      return serveExpress(api, adapter);
    case 'express4':
      // Loaded only when host.ts lists Express 4; its app takes Express 5's types (see express4.ts).
      return import('express4').then(({ default: express4 }) =>
        serveExpress(api, adapter, () => express4() as unknown as Application),
      );
    case 'fastify':
      return serveFastify(api);
    case 'fetch':
      return serveFetch(api);
    case 'koa':
      return serveKoa(api);
    case 'nest':
      return serveNestExpress(api, where, nestSeams(adapter));
    case 'nest-fastify':
      return serveNestFastify(api, where, nestSeams(adapter));
  }
}

/** A seams server under test: its adapter, its API's store and faults, and `fetch` against it. */
export interface SeamsServed {
  /** The adapter's name. */
  readonly adapter: AdapterName;
  /** The API it serves, with the plugin's store and the logged faults. */
  readonly seams: SeamsApi;
  /** `fetch` against the running server, with a path; redirects are not followed. */
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/**
 * Declares `suite` once per adapter of `only` (every host by default), each against a fresh
 * seams API on its own server: `describeMatrix` with the seams API and its native routes.
 */
export function describeSeams(
  title: string,
  suite: (served: SeamsServed) => void,
  only: readonly AdapterName[] = hosts,
): void {
  const made = new Map<AdapterName, SeamsApi>();
  const build = (adapter: AdapterName) => {
    const seams = createSeamsApi();
    made.set(adapter, seams);
    return seams.api;
  };
  describeMatrix(
    title,
    build,
    ({ adapter, fetch }) => {
      afterAll(() => made.get(adapter)?.store.close());
      suite({
        adapter,
        get seams() {
          const seams = made.get(adapter);
          if (!seams) throw new Error('server not started');
          return seams;
        },
        fetch,
      });
    },
    { only, serve: serveSeams, plain: true },
  );
}
