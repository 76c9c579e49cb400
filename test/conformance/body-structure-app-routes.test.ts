/**
 * Caps before work on the app's own routes, through each host's guard:
 * Express (a body `express.json()` already parsed), Fastify (its own parser) and Hono (the core
 * reads it). A body past its structure's bounds is 413 before the route's schema sees it; a
 * value too deep to write is a logged 500 with the generic message, and the server goes on.
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

/** Every body the schema was asked to validate. */
const validated: unknown[] = [];
const tags = z.object({ tags: z.array(z.string()) });
const settings = {
  body: {
    '~standard': {
      ...tags['~standard'],
      validate: (value: unknown) => {
        validated.push(value);
        return tags['~standard'].validate(value);
      },
    },
  },
};
const faults: unknown[] = [];
const build = () =>
  conventions({
    lint: 'off',
    logger: { error: (obj: { err?: unknown }) => faults.push(obj.err), warn() {} },
    routes: {},
  });

/** `[[…[]…]]`, `levels` arrays deep, as text (JSON.stringify would overflow the test's stack). */
const deepText = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** `[[…[]…]]`, `levels` arrays deep, built without recursion. */
function deepValue(levels: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

const hosts: Record<string, () => Promise<Running>> = {
  express: () => {
    const app = express();
    const c = toExpressMiddleware(build());
    app.use(c.before);
    app.use(express.json({ limit: '2mb' }));
    app.post('/v1/tags', c.guard(settings), (req, res) => {
      res.status(201).json({ tags: req.body.tags.length });
    });
    app.get('/v1/deep-values', c.guard({}), (_req, res) => {
      res.json({ deep: deepValue(5000) });
    });
    app.get('/v1/pings', c.guard({}), (_req, res) => {
      res.json({ pong: true });
    });
    app.use(c.after);
    return listen(createServer(app), 0, '127.0.0.1');
  },
  fastify: async () => {
    const app = Fastify({ ...serverOptions, forceCloseConnections: true, bodyLimit: 2 ** 21 });
    await app.register(toFastifyPlugin(build()));
    app.post('/v1/tags', { config: { conventions: settings } }, async (request, reply) => {
      reply.code(201);
      return { tags: (request.body as { tags: unknown[] }).tags.length };
    });
    app.get('/v1/deep-values', { config: { conventions: {} } }, async () => ({
      deep: deepValue(5000),
    }));
    app.get('/v1/pings', { config: { conventions: {} } }, async () => ({ pong: true }));
    await app.listen({ port: 0, host: '127.0.0.1' });
    return { port: (app.server.address() as AddressInfo).port, close: () => app.close() };
  },
  hono: () => {
    const api = build();
    const app = new Hono();
    app.use('*', toFetchMiddleware(api, { routes: () => app.routes }));
    app.onError(toFetchErrorHandler(api));
    app.post('/v1/tags', toFetchGuard(api, settings), (c) =>
      c.json({ tags: (bodyOf(c) as { tags: unknown[] }).tags.length }, 201),
    );
    app.get('/v1/deep-values', toFetchGuard(api, {}), (c) => c.json({ deep: deepValue(5000) }));
    app.get('/v1/pings', toFetchGuard(api, {}), (c) => c.json({ pong: true }));
    const handle = toFetchHandler(api);
    app.all('*', (c) => handle(c.req.raw));
    return listen(createAdaptorServer({ fetch: app.fetch }) as Server, 0, '127.0.0.1');
  },
};

const millionTags = `{"tags":[${new Array(520_000).fill('0').join(',')}]}`;

for (const [name, serve] of Object.entries(hosts)) {
  describe(`caps before work on the app's own route [${name}]`, () => {
    let running: Running;
    beforeAll(async () => {
      running = await serve();
    });
    afterAll(() => running?.close());
    const at = (path: string) => `http://127.0.0.1:${running.port}${path}`;
    const post = (body: string) =>
      fetch(at('/v1/tags'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });

    it('answers a 1 MiB body of 520,000 items with 413 (41303) before the schema sees it', async () => {
      const before = validated.length;
      const [big, small] = await Promise.all([post(millionTags), post('{"tags":["a"]}')]);
      expect(big.status).toBe(413);
      expect((await big.json()).errors[0].code).toBe(ErrorCode.ArrayTooLong);
      expect(small.status).toBe(201);
      expect(validated.slice(before)).toEqual([{ tags: ['a'] }]);
    });

    it('answers a 5,000-level body with 413 (41302) before the schema sees it', async () => {
      const before = validated.length;
      const res = await post(`{"tags":${deepText(5000)}}`);
      expect(res.status).toBe(413);
      expect((await res.json()).errors[0].code).toBe(ErrorCode.BodyTooDeep);
      expect(validated.length).toBe(before);
    });

    it('answers a handler that returns a 5,000-level value with a logged 500 and the generic message, and goes on serving', async () => {
      const before = faults.length;
      const res = await fetch(at('/v1/deep-values'));
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({
        errors: [{ message: 'Something went wrong on our side; it has been logged.', code: 50000 }],
      });
      expect(faults.length).toBe(before + 1);
      expect(await (await fetch(at('/v1/pings'))).json()).toEqual({ pong: true });
    });
  });
}
