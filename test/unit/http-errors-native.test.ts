/** Errors of other libraries thrown from Express's and Fastify's own routes: the core's one rule. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { conventions } from 'api-conventions';
import { toExpressMiddleware } from 'api-conventions/express';
import { serverOptions, toFastifyPlugin } from 'api-conventions/fastify';
import express from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import createError from 'http-errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const generic = 'Something went wrong on our side; it has been logged.';
const faults: unknown[] = [];
const api = conventions({ logger: { error: (record) => faults.push(record.err), warn() {} } });

function buildExpress() {
  const app = express();
  app.set('strict routing', true);
  const c = toExpressMiddleware(api);
  app.use(c.before);
  c.mount(app);
  app.get('/v1/limited-things', () => {
    throw createError(429, 'Slow down.', { headers: { 'Retry-After': 9 } });
  });
  app.get('/v1/down-things', async () => {
    throw createError(503, 'db at 10.0.0.3 refused', { headers: { 'Retry-After': '60' } });
  });
  app.get('/v1/teapots', (_req, _res, next) => {
    next(createError(418, 'No coffee here.'));
  });
  app.use(c.after);
  return app;
}

async function buildFastify(): Promise<FastifyInstance> {
  const app = Fastify({ ...serverOptions, forceCloseConnections: true });
  await app.register(toFastifyPlugin(api));
  app.get('/v1/limited-things', async () => {
    throw createError(429, 'Slow down.', { headers: { 'Retry-After': 9 } });
  });
  app.get('/v1/down-things', async () => {
    throw createError(503, 'db at 10.0.0.3 refused', { headers: { 'Retry-After': '60' } });
  });
  app.get('/v1/teapots', async () => {
    throw Object.assign(new Error('No coffee here.'), { statusCode: 418 });
  });
  app.get('/v1/books/:id', (request, reply) => {
    reply.code(404).send(new Error(`No book with id "${(request.params as { id: string }).id}".`));
  });
  app.get('/v1/gone-books', (_request, reply) => {
    reply.code(410).send(createError(500, 'internal detail'));
  });
  return app;
}

let server: Server;
let fastify: FastifyInstance;
const bases: Record<'express' | 'fastify', string> = { express: '', fastify: '' };

beforeAll(async () => {
  server = createServer(buildExpress());
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  bases.express = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  fastify = await buildFastify();
  await fastify.listen({ port: 0, host: '127.0.0.1' });
  bases.fastify = `http://127.0.0.1:${(fastify.server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()).closeAllConnections());
  await fastify.close();
});

describe.each(['express', 'fastify'] as const)(
  'errors of other libraries on %s’s own routes',
  (host) => {
    const call = (path: string) => fetch(bases[host] + path);

    it('keep a 429 with its Retry-After and message (spec 8.2)', async () => {
      const res = await call('/v1/limited-things');
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('9');
      expect(await res.json()).toEqual({ errors: [{ message: 'Slow down.', code: 42900 }] });
    });

    it('keep a 5xx status and headers, hide the message and log the fault', async () => {
      const before = faults.length;
      const res = await call('/v1/down-things');
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('60');
      expect(await res.json()).toEqual({ errors: [{ message: generic, code: 50300 }] });
      expect(faults.slice(before).map((e) => (e as Error).message)).toEqual([
        'db at 10.0.0.3 refused',
      ]);
    });

    it('keep a status the catalogue does not list, with code status × 100 (spec 7.1.5)', async () => {
      const res = await call('/v1/teapots');
      expect(res.status).toBe(418);
      expect(await res.json()).toEqual({ errors: [{ message: 'No coffee here.', code: 41800 }] });
    });
  },
);

describe('Fastify’s reply.code(status).send(error)', () => {
  const call = (path: string) => fetch(bases.fastify + path);

  it('keeps the reply’s 404 for a plain Error, as Fastify does', async () => {
    const res = await call('/v1/books/dune');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      errors: [{ message: 'No book with id "dune".', code: 40400 }],
    });
  });

  it('keeps the reply’s status over the error’s own, as Fastify does, and the hidden message stays hidden', async () => {
    const res = await call('/v1/gone-books');
    expect(res.status).toBe(410);
    const body = await res.json();
    expect(body.errors[0].code).toBe(41000);
    expect(JSON.stringify(body)).not.toContain('internal detail');
  });
});
