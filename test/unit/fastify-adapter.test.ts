import type { AddressInfo } from 'node:net';
import { conventions, type Logger } from 'api-conventions';
import { frameworkErrors, toFastifyPlugin } from 'api-conventions/fastify';
import Fastify, { type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rawRequest } from '../conformance/_raw.ts';

const logged = vi.fn<Logger['error']>();
const api = conventions({
  logger: { error: logged },
  routes: {
    '/v1/notes': {
      GET: () => ({ notes: [{ text: 'ünïcode' }], hasNext: false }),
      POST: { handler: (ctx) => ({ received: ctx.body }), config: { bodyLimit: 64 } },
    },
    '/v1/notes/:id': { GET: (ctx) => ({ id: ctx.param('id') }) },
    '/v1/pings': { GET: () => ({ via: 'get' }), HEAD: () => ({ via: 'head, longer body' }) },
    '/v1/forms': { POST: { handler: (ctx) => ({ got: ctx.body }), config: { accepts: ['form'] } } },
    '/v1/files/*path': { GET: (ctx) => ({ path: ctx.param('path') }) },
  },
});

const bookSchema = {
  body: {
    type: 'object',
    required: ['title', 'year', 'authorId'],
    properties: {
      title: { type: 'string', minLength: 3 },
      year: { type: 'integer' },
      authorId: { type: 'string' },
    },
  },
};

/** Fastify with the plugin and native routes of its own, case-insensitive and listing every schema problem. */
async function buildApp(): Promise<FastifyInstance> {
  const app = Fastify({
    frameworkErrors,
    forceCloseConnections: true,
    bodyLimit: 32,
    routerOptions: { caseSensitive: false },
    ajv: { customOptions: { allErrors: true } },
  });
  await app.register(toFastifyPlugin(api));
  app.get('/v1/health', async () => ({ ok: true }));
  app.post('/v1/books', { schema: bookSchema }, async (request, reply) =>
    reply.code(201).send(request.body),
  );
  app.get('/v1/crash', async () => {
    throw new Error('database password is hunter2');
  });
  app.get('/v1/conflict', async () => {
    throw Object.assign(new Error('That name is taken.'), { statusCode: 409 });
  });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('x-app-hook', 'ran');
  });
  app.addHook('onRequest', async (request, reply) => {
    if (request.url === '/v1/forms?show-config' || request.url === '/v1/health?show-config') {
      reply.send({ accepts: request.routeOptions.config.conventions?.accepts });
    }
  });
  return app;
}

let app: FastifyInstance;
let base: string;
let port: number;

beforeAll(async () => {
  app = await buildApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});

afterAll(() => app.close());

const call = (path: string, init?: RequestInit) =>
  fetch(base + path, { redirect: 'manual', ...init });
const json = { 'content-type': 'application/json' };

describe('toFastifyPlugin', () => {
  it('serves the route table as Fastify routes, with the body as the core serialized it', async () => {
    const res = await call('/v1/notes');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.json()).toEqual({ notes: [{ text: 'ünïcode' }], hasNext: false });
  });

  it.each(['/v1/notes', '/v1/nothing', '/V1/Notes', '/v1/crash'])(
    'runs the app’s own hooks, added after the plugin, on %s',
    async (path) => {
      const res = await call(path);
      expect(res.headers.get('x-app-hook')).toBe('ran');
    },
  );

  it('answers HEAD like GET, without a body and with GET’s Content-Length (RFC 9110 §9.3.2)', async () => {
    const get = await call('/v1/notes');
    const length = String(Buffer.byteLength(await get.text()));
    const head = await rawRequest(
      port,
      'HEAD /v1/notes HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(length);
    expect(head.body).toBe('');
  });

  it('decodes path parameters and names a wildcard after the pattern', async () => {
    expect(await (await call('/v1/notes/caf%C3%A9')).json()).toEqual({ id: 'café' });
    expect(await (await call('/v1/files/a/b.txt')).json()).toEqual({ path: 'a/b.txt' });
  });

  it('answers a wrong method on a native route with 405 and Allow (RFC 9110 §15.5.6)', async () => {
    const res = await call('/v1/health', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect((await res.json()).errors[0].code).toBe(40500);
  });

  it('answers a wrong method on a route of the table with 405 and Allow (RFC 9110 §15.5.6)', async () => {
    const res = await call('/v1/notes', { method: 'PUT', headers: json, body: '{}' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('answers OPTIONS with 204 and Allow on native paths too (RFC 9110 §9.3.7)', async () => {
    const res = await call('/v1/books', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('POST, OPTIONS');
  });

  it.each([
    ['/v1/nothing', 404],
    ['/v1/health', 405],
  ])('routes %s before reading its body: %i, never a body error', async (path, status) => {
    const res = await call(path, { method: 'POST', headers: json, body: '{"title":' });
    expect(res.status).toBe(status);
  });

  it('answers an unknown path with the spec’s 404 body naming it (spec 7.1.3)', async () => {
    const res = await call('/v1/nothing');
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      errors: [{ message: 'Nothing found at /v1/nothing.', code: 40401 }],
    });
  });

  it('answers an empty path parameter with 404, as the route table would (spec 4.1.9)', async () => {
    const res = await call('/v1/notes/');
    expect(res.status).toBe(404);
    expect((await res.json()).errors[0].code).toBe(40401);
  });

  it.each(['/V1/Notes', '/V1/HEALTH'])(
    'answers %s with 404 and no Location, though Fastify matches case-insensitively (spec 4.1.3)',
    async (path) => {
      const res = await call(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('location')).toBeNull();
      expect((await res.json()).errors[0].code).toBe(40402);
    },
  );

  it('lists every invalid field of a JSON schema, each named (spec 7.1.5)', async () => {
    const res = await call('/v1/books', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ title: 'ab', year: 'nineteen' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      errors: [
        { message: 'The field "authorId" is required.', code: 40003 },
        { message: 'The field "title" must NOT have fewer than 3 characters.', code: 40002 },
        { message: 'The field "year" must be integer.', code: 40002 },
      ],
    });
  });

  it('answers Fastify’s JSON parse error with 400 code 40001 (spec 7.1.4)', async () => {
    const res = await call('/v1/books', { method: 'POST', headers: json, body: '{"title":' });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect((await res.json()).errors).toEqual([
      { message: 'The request body is not valid JSON.', code: 40001 },
    ]);
  });

  it('answers Fastify’s empty JSON body error with 400 code 40007', async () => {
    const res = await call('/v1/books', { method: 'POST', headers: json, body: '' });
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].code).toBe(40007);
  });

  it('answers a native body over Fastify’s bodyLimit with 413', async () => {
    const res = await call('/v1/books', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ title: 'x'.repeat(100), year: 1, authorId: 'a' }),
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      errors: [{ message: 'The request body is larger than the limit of 32 bytes.', code: 41300 }],
    });
  });

  it('applies the route table’s per-route body limit through Fastify', async () => {
    const fits = await call('/v1/notes', { method: 'POST', headers: json, body: '{"a":"ok"}' });
    expect(await fits.json()).toEqual({ received: { a: 'ok' } });
    const res = await call('/v1/notes', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ a: 'x'.repeat(100) }),
    });
    expect(res.status).toBe(413);
    expect((await res.json()).errors[0].message).toMatch(/limit of 64 bytes/);
  });

  it('answers an unsupported media type on a native route with 415 (spec 4.6)', async () => {
    const res = await call('/v1/books', {
      method: 'POST',
      headers: { 'content-type': 'application/xml' },
      body: '<book/>',
    });
    expect(res.status).toBe(415);
    expect((await res.json()).errors[0]).toEqual({
      message: 'Content-Type "application/xml" is not supported here.',
      code: 41500,
    });
  });

  it('passes config.conventions to the core: a form-only route reads forms and refuses JSON (spec 4.6)', async () => {
    const form = await call('/v1/forms', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'title=Dune&year=1965',
    });
    expect(await form.json()).toEqual({ got: { title: 'Dune', year: '1965' } });
    const res = await call('/v1/forms', { method: 'POST', headers: json, body: '{}' });
    expect(res.status).toBe(415);
  });

  it('exposes each table route’s settings as routeOptions.config.conventions', async () => {
    const res = await call('/v1/forms?show-config', { method: 'POST' });
    expect(await res.json()).toEqual({ accepts: ['form'] });
  });

  it('leaves routeOptions.config.conventions unset on a native route', async () => {
    expect(await (await call('/v1/health?show-config')).json()).toEqual({});
  });

  it('turns an error thrown in a native handler into a 500 without internals, and logs it (spec 7.2)', async () => {
    logged.mockClear();
    const res = await call('/v1/crash');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(text).not.toMatch(/hunter2|stack|at /);
    expect(JSON.parse(text).errors[0].code).toBe(50000);
    expect(logged).toHaveBeenCalledOnce();
    expect((logged.mock.calls[0]![0].err as Error).message).toBe('database password is hunter2');
  });

  it('keeps the status and message of a 4xx error a native handler throws', async () => {
    const res = await call('/v1/conflict');
    expect(res.status).toBe(409);
    expect(await res.json()).toEqual({ errors: [{ message: 'That name is taken.', code: 40900 }] });
  });

  it('answers malformed percent-encoding with 400 code 40006 through frameworkErrors (spec 7.1.4)', async () => {
    const res = await rawRequest(
      port,
      'GET /v1/notes/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.body).errors[0].code).toBe(40006);
  });
});

describe('toFastifyPlugin settings', () => {
  it('reports an unknown setting with the closest known one, at creation', () => {
    expect(() => toFastifyPlugin(api, { route: false } as never)).toThrow(
      /unknown option `route`. Did you mean `routes`\?/,
    );
  });

  it('needs the conventions to serve, at creation', () => {
    expect(() => toFastifyPlugin(undefined as never)).toThrow(/needs `api`/);
  });

  it('refuses a pattern Fastify cannot route as the core would', async () => {
    const optional = { routes: { '/v1/books{/:id}': { GET: () => ({}) } } };
    await expect(Fastify().register(toFastifyPlugin(optional)).ready()).rejects.toThrow(
      /no optional groups/,
    );
  });

  it('leaves routing to native routes alone when routes is false', async () => {
    const bare = Fastify();
    await bare.register(toFastifyPlugin(api, { routes: false }));
    const res = await bare.inject('/v1/notes');
    expect(res.statusCode).toBe(404);
    await bare.close();
  });
});

describe('route lint on Fastify’s own routes (spec 4.1)', () => {
  it('warns once the app is ready about a native route that breaks a path rule', async () => {
    const warnings: string[] = [];
    const app = Fastify();
    await app.register(
      toFastifyPlugin({
        logger: { error() {}, warn: (message: string) => warnings.push(message) },
      }),
    );
    app.get('/v1/book/:id', async () => ({ ok: true }));
    app.get('/v1/authors/:id', async () => ({ ok: true }));
    await app.ready();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toContain('warning 4.1.4 plural-collection /v1/book/:id');
    expect(warnings[0]).toContain('Fix: declare it as /v1/books/:id');
    expect(warnings[0]).not.toContain('/v1/authors');
    await app.close();
  });

  // Without Fastify's route listing (its text is not an interface), a route the plugin's onRoute
  // hook did not see is found at its first request: checked, linted and named then.
  it.each([
    [
      'declared before the plugin was registered',
      async (app: FastifyInstance, plugin: FastifyPluginAsync) => {
        app.get('/v1/book/:id', async () => ({ ok: true }));
        await app.register(plugin);
      },
    ],
    [
      'declared after a register() that was not awaited',
      async (app: FastifyInstance, plugin: FastifyPluginAsync) => {
        // Not awaited: Fastify loads the plugin at ready(), after this route was added.
        app.register(plugin);
        app.get('/v1/book/:id', async () => ({ ok: true }));
      },
    ],
  ])('finds a native route %s at its first request: lints it and names it', async (_, build) => {
    const warnings: string[] = [];
    const app = Fastify();
    await build(
      app,
      toFastifyPlugin({
        logger: { error() {}, warn: (message: string) => warnings.push(message) },
      }),
    );
    await app.ready();
    expect(warnings).toEqual([]);
    expect((await app.inject('/v1/book/1')).statusCode).toBe(200);
    await app.inject('/v1/book/2');
    const lint = warnings.filter((w) => w.startsWith('route lint'));
    expect(lint).toHaveLength(1);
    expect(lint[0]).toContain('warning 4.1.4 plural-collection /v1/book/:id');
    expect(lint[0]).toContain('Fix: declare it as /v1/books/:id');
    expect(warnings.filter((w) => !w.startsWith('route lint'))).toEqual([
      expect.stringContaining('GET /v1/book/:id was declared before toFastifyPlugin(api)'),
    ]);
    await app.close();
  });
});

describe('route lint of nested native routes (spec 4.1)', () => {
  // Regression: Fastify's listing shows a route under a shorter one by its tail (`/v1/book`
  // then `└── /:id`), and the tail was read as the whole path.
  it('lints /v1/book/:id by its full path, not as /:id, when /v1/book is a route too', async () => {
    const warnings: string[] = [];
    const app = Fastify();
    await app.register(
      toFastifyPlugin({
        logger: { error() {}, warn: (message: string) => warnings.push(message) },
      }),
    );
    app.get('/v1/book', async () => ({ ok: true }));
    app.get('/v1/book/:id', async () => ({ ok: true }));
    await app.ready();
    await app.close();
    expect(warnings.join('\n')).toContain('plural-collection /v1/book/:id');
    expect(warnings.join('\n')).not.toMatch(/ \/:id\b/);
  });
});

describe('registering toFastifyPlugin twice on one app', () => {
  const quiet = { logger: { error() {}, warn() {} } };

  it('is a TypeError naming api-conventions and saying to register it once, not Fastify’s “Not found handler already set”', async () => {
    const app = Fastify();
    await app.register(toFastifyPlugin(quiet));
    const second = app.register(toFastifyPlugin(quiet));
    await expect(second).rejects.toThrow(TypeError);
    await expect(app.ready()).rejects.toThrow(
      /^api-conventions is registered twice on this Fastify app: register toFastifyPlugin\(api\) once/,
    );
    await app.close();
  });

  it('is a TypeError at ready() when neither register() was awaited', async () => {
    const app = Fastify();
    app.register(toFastifyPlugin(quiet));
    app.register(toFastifyPlugin(quiet));
    const error = await app.ready().then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TypeError);
    expect((error as Error).message).toMatch(
      /api-conventions.*register toFastifyPlugin\(api\) once/,
    );
    await app.close();
  });
});

describe('config.conventions on Fastify’s own routes (routeOptions.config)', () => {
  let app: FastifyInstance;
  let base: string;
  const seen: unknown[] = [];

  beforeAll(async () => {
    app = Fastify();
    await app.register(
      toFastifyPlugin({
        logger: { error() {}, warn() {} },
        plugins: [
          {
            name: 'mark',
            preParsing: (ctx) => {
              ctx.responseHeaders.set('x-checked', '1');
            },
          },
        ],
      }),
    );
    app.post(
      '/v1/notes',
      { config: { conventions: { body: { text: { type: 'string', required: true, max: 10 } } } } },
      async (request, reply) => {
        seen.push(request.body);
        return reply.code(201).send({ ok: true });
      },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });

  afterAll(() => app.close());

  it('checks the body before the native handler, every problem at once (spec 7.1.5)', async () => {
    const res = await fetch(`${base}/v1/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'far too long a note', colour: 'red' }),
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      errors: [
        { message: 'The field "text" must be at most 10 characters.', code: 40002 },
        { message: 'The field "colour" is not known.', code: 40004 },
      ],
    });
    expect(seen).toEqual([]);
  });

  it('lets a valid body through to the native handler with the checks’ headers', async () => {
    const res = await fetch(`${base}/v1/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'hello' }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-checked')).toBe('1');
    expect(seen).toEqual([{ text: 'hello' }]);
  });
});
