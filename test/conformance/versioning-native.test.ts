import type { Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { conventions, type Deprecation, versioning } from 'api-conventions';
import { toExpressMiddleware } from 'api-conventions/express';
import { serverOptions, toFastifyPlugin } from 'api-conventions/fastify';
import {
  toFetchErrorHandler,
  toFetchGuard,
  toFetchHandler,
  toFetchMiddleware,
} from 'api-conventions/fetch';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listen, type Running } from '../../examples/bookshelf/hosts/host.ts';

// The app's own routes, guarded, get the table's deprecation behaviour (spec 9.8).
const later: Deprecation = {
  announced: '2026-01-15',
  sunset: '2099-01-31',
  successor: '/v2/natives/:id',
};
const retired: Deprecation = { announced: '2025-01-15', sunset: '2025-07-31', successor: null };
const build = () =>
  conventions({ routes: {}, plugins: [versioning()], logger: { error() {}, warn() {} } });

async function serveExpress(): Promise<Running> {
  const app = express();
  app.set('strict routing', true);
  const c = toExpressMiddleware(build());
  app.use(c.before);
  c.mount(app);
  app.get('/v1/natives/:id', c.guard({ deprecation: later }), (req, res) => {
    res.json({ id: req.params.id });
  });
  app.get('/v1/old-natives', c.guard({ deprecation: retired }), (_req, res) => {
    res.json({ never: true });
  });
  app.use(c.after);
  return listen(createServer(app), 0, '127.0.0.1');
}

async function serveFastify(): Promise<Running> {
  const app = Fastify({ ...serverOptions, forceCloseConnections: true });
  await app.register(toFastifyPlugin(build()));
  app.get<{ Params: { id: string } }>(
    '/v1/natives/:id',
    { config: { conventions: { deprecation: later } } },
    async (req) => ({ id: req.params.id }),
  );
  app.get('/v1/old-natives', { config: { conventions: { deprecation: retired } } }, async () => ({
    never: true,
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
}

async function serveHono(): Promise<Running> {
  const api = build();
  const app = new Hono();
  app.use('*', toFetchMiddleware(api, { routes: () => app.routes }));
  app.onError(toFetchErrorHandler(api));
  app.get('/v1/natives/:id', toFetchGuard(api, { deprecation: later }), (c) =>
    c.json({ id: c.req.param('id') }),
  );
  app.get('/v1/old-natives', toFetchGuard(api, { deprecation: retired }), (c) =>
    c.json({ never: true }),
  );
  const handle = toFetchHandler(api);
  app.all('*', (c) => handle(c.req.raw));
  return listen(createAdaptorServer({ fetch: app.fetch }) as Server, 0, '127.0.0.1');
}

for (const [name, serve] of [
  ['express', serveExpress],
  ['fastify', serveFastify],
  ['hono', serveHono],
] as const) {
  describe(`deprecation on guarded native routes [${name}]`, () => {
    let running: Running;
    beforeAll(async () => {
      running = await serve();
    });
    afterAll(() => running?.close());
    const get = (path: string) => fetch(`http://127.0.0.1:${running.port}${path}`);

    it('sends Deprecation, Sunset and the successor Link filled with its parameters (RFC 9745, RFC 8594)', async () => {
      const res = await get('/v1/natives/n1');
      expect(res.status).toBe(200);
      expect(res.headers.get('deprecation')).toBe(`@${Date.parse('2026-01-15') / 1000}`);
      expect(res.headers.get('sunset')).toBe('Sat, 31 Jan 2099 00:00:00 GMT');
      expect(res.headers.get('link')).toBe('</v2/natives/n1>; rel="successor-version"');
      expect(await res.json()).toEqual({ id: 'n1' });
    });

    it('answers 410 with the error body after the sunset, before the handler (spec 9.8)', async () => {
      const res = await get('/v1/old-natives');
      expect(res.status).toBe(410);
      expect((await res.json()).errors[0].code).toBe(41001);
    });
  });
}
