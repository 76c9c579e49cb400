/**
 * Standard Schema settings on the app's own routes, through each host's guard: Express
 * (`c.guard`), Fastify (`config.conventions`) and Hono (`toFetchGuard`). A body that does not
 * fit is the spec's 400, one entry per issue naming its path; one that fits reaches the handler
 * as the schema's output (spec 7).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listen, type Running } from '../../examples/bookshelf/hosts/host.ts';
import { toExpressMiddleware } from '../../src/adapters/express.ts';
import { serverOptions, toFastifyPlugin } from '../../src/adapters/fastify.ts';
import {
  bodyOf,
  toFetchErrorHandler,
  toFetchGuard,
  toFetchHandler,
  toFetchMiddleware,
} from '../../src/adapters/fetch.ts';
import { conventions, ErrorCode } from '../../src/index.ts';

const order = z.object({
  item: z.string().min(3),
  quantity: z.number().int().positive().default(1),
  tags: z.array(z.object({ name: z.string().min(1) })).default([]),
});
const settings = { body: order };
const build = () => conventions({ lint: 'off', logger: { error() {}, warn() {} }, routes: {} });

const hosts: Record<string, () => Promise<Running>> = {
  express: () => {
    const app = express();
    const c = toExpressMiddleware(build());
    app.use(c.before);
    app.post('/v1/orders', c.guard(settings), (req, res) => {
      res.status(201).json(req.body);
    });
    app.use(c.after);
    return listen(createServer(app), 0, '127.0.0.1');
  },
  fastify: async () => {
    const app = Fastify({ ...serverOptions, forceCloseConnections: true });
    await app.register(toFastifyPlugin(build()));
    app.post('/v1/orders', { config: { conventions: settings } }, async (request, reply) => {
      reply.code(201);
      return request.body;
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
  },
  hono: () => {
    const api = build();
    const app = new Hono();
    app.use('*', toFetchMiddleware(api, { routes: () => app.routes }));
    app.onError(toFetchErrorHandler(api));
    app.post('/v1/orders', toFetchGuard(api, settings), (c) => c.json(bodyOf(c) as object, 201));
    const handle = toFetchHandler(api);
    app.all('*', (c) => handle(c.req.raw));
    return listen(createAdaptorServer({ fetch: app.fetch }) as Server, 0, '127.0.0.1');
  },
};

for (const [name, serve] of Object.entries(hosts)) {
  describe(`Standard Schema on the app's own route [${name}]`, () => {
    let running: Running;
    beforeAll(async () => {
      running = await serve();
    });
    afterAll(() => running?.close());
    const post = (body: unknown) =>
      fetch(`http://127.0.0.1:${running.port}/v1/orders`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });

    it('answers a body that does not fit with 400, one entry per issue naming its path', async () => {
      const res = await post({ item: 'x', tags: [{ name: '' }] });
      expect(res.status).toBe(400);
      const { errors } = (await res.json()) as { errors: { message: string; code: number }[] };
      expect(errors.map((e) => e.code)).toEqual([ErrorCode.InvalidBody, ErrorCode.InvalidBody]);
      expect(errors.map((e) => e.message.split(':')[0])).toEqual([
        'The field "item"',
        'The field "tags[0].name"',
      ]);
    });

    it("hands the handler the schema's output", async () => {
      const res = await post({ item: 'tea' });
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({ item: 'tea', quantity: 1, tags: [] });
    });
  });
}
