import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { conventions } from 'api-conventions';
import { toExpressMiddleware } from 'api-conventions/express';
import { serverOptions, toFastifyPlugin } from 'api-conventions/fastify';
import express from 'express';
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';

const quiet = () => {
  const faults: unknown[] = [];
  const api = conventions({ logger: { error: (record) => faults.push(record.err), warn() {} } });
  return { api, faults };
};

describe("the app's own routes and spec 2.7", () => {
  it('answers a bare array from Express res.json with the logged 500 a table route gives (spec 2.7)', async () => {
    const { api, faults } = quiet();
    const app = express();
    app.set('strict routing', true);
    const c = toExpressMiddleware(api);
    app.use(c.before);
    app.get('/v1/lists', (_req, res) => {
      res.json([1, 2]);
    });
    app.use(c.after);
    const server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const res = await fetch(`http://127.0.0.1:${port}/v1/lists`);
      expect(res.status).toBe(500);
      expect((await res.json()).errors[0].code).toBe(50001);
      expect(faults).toHaveLength(1);
    } finally {
      server.close();
    }
  });

  it('answers a bare array returned by a Fastify route with the logged 500 (spec 2.7)', async () => {
    const { api, faults } = quiet();
    const app = Fastify({ ...serverOptions });
    await app.register(toFastifyPlugin(api));
    app.get('/v1/lists', async () => [1, 2]);
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${base}/v1/lists`);
    expect(res.status).toBe(500);
    expect((await res.json()).errors[0].code).toBe(50001);
    expect(faults).toHaveLength(1);
    await app.close();
  });
});

describe("Fastify's response schemas", () => {
  it('keep filtering the fields of a route that declares one', async () => {
    const { api } = quiet();
    const app = Fastify({ ...serverOptions });
    await app.register(toFastifyPlugin(api));
    app.get(
      '/v1/things',
      {
        schema: {
          response: { 200: { type: 'object', properties: { name: { type: 'string' } } } },
        },
      },
      async () => ({ name: 'thing', secret: 'hunter2' }),
    );
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${base}/v1/things`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'thing' });
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    await app.close();
  });
});
