import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { conventions, type Logger } from 'api-conventions';
import { toExpressMiddleware } from 'api-conventions/express';
import express, { type RequestHandler } from 'express';
import express4 from 'express4';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { expressProbe } from '../../src/adapters/_express-checkpoints.ts';
import { appRouter, isStrict } from '../../src/adapters/_express-routes.ts';
import { listRoutes } from '../../src/core/host/stack-probe.ts';
import { rawRequest } from '../conformance/_raw.ts';

const logged = vi.fn<Logger['error']>();
const api = conventions({
  logger: { error: logged },
  routes: {
    '/v1/notes': {
      GET: () => ({ notes: [], hasNext: false }),
      POST: { handler: (ctx) => ({ received: ctx.body }), config: { bodyLimit: 64 } },
    },
    '/v1/pings': { GET: () => ({ via: 'get' }), HEAD: () => ({ via: 'head, longer body' }) },
    '/v1/files/*path': { GET: (ctx) => ({ path: ctx.param('path') }) },
  },
});

/** An Express app, case-insensitive as by default, with native routes of its own. */
function buildApp() {
  const app = express();
  app.set('strict routing', true);
  const c = toExpressMiddleware(api);
  app.use(c.before);
  app.use('/v1/raw', express.text({ type: 'application/json' }));
  app.use(express.json({ limit: 32 }));
  c.mount(app);
  app.get('/v1/books', (_req, res) => {
    res.json({ books: [], hasNext: false });
  });
  app.post('/v1/books', (req, res) => {
    res.status(201).json(req.body);
  });
  app.get('/v1/books/:id', (req, res) => {
    res.json({ id: req.params.id });
  });
  app.get('/v1/crash', () => {
    throw new Error('database password is hunter2');
  });
  app.get('/v1/async-crash', async () => {
    throw new Error('async secret');
  });
  app.options('/v1/books/:id', (_req, res) => {
    res.status(204).set('allow', 'GET, OPTIONS').set('x-own-options', 'yes').end();
  });
  const authors = express.Router();
  authors.get('/', (_req, res) => {
    res.json({ authors: [], hasNext: false });
  });
  authors.put('/:id', (req, res) => {
    res.json({ id: req.params.id });
  });
  app.use('/v1/authors', authors);
  app.use(c.after);
  return app;
}

let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer(buildApp());
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise<void>((done) => server.close(() => done()).closeAllConnections());
});

const call = (path: string, init?: RequestInit) =>
  fetch(base + path, { redirect: 'manual', ...init });
const json = { 'content-type': 'application/json' };

describe('toExpressMiddleware', () => {
  it('answers a wrong method on a native app.get route with 405 and Allow (RFC 9110 §15.5.6)', async () => {
    const res = await call('/v1/books/emma', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    expect(await res.json()).toEqual({
      errors: [
        {
          message: 'DELETE is not allowed on /v1/books/emma; allowed: GET, HEAD, OPTIONS.',
          code: 40500,
        },
      ],
    });
  });

  it('gathers Allow from every native route of the path (RFC 9110 §15.5.6)', async () => {
    const res = await call('/v1/books', { method: 'PATCH' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('answers a wrong method in a nested Router mounted at a prefix with 405 and Allow (RFC 9110 §15.5.6)', async () => {
    const item = await call('/v1/authors/tolstoy', { method: 'GET' });
    expect(item.status).toBe(405);
    expect(item.headers.get('allow')).toBe('PUT, OPTIONS');
    const list = await call('/v1/authors', { method: 'POST' });
    expect(list.status).toBe(405);
    expect(list.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
  });

  it('answers OPTIONS with 204 and Allow (RFC 9110 §9.3.7)', async () => {
    const res = await call('/v1/authors/tolstoy', { method: 'OPTIONS' });
    expect(res.status).toBe(204);
    expect(res.headers.get('allow')).toBe('PUT, OPTIONS');
    expect(await res.text()).toBe('');
  });

  it('leaves OPTIONS to a route that declares it', async () => {
    const res = await call('/v1/books/emma', { method: 'OPTIONS' });
    expect(res.headers.get('x-own-options')).toBe('yes');
  });

  it('answers a trailing slash on a mounted table route with 404 and no redirect (spec 4.1.9)', async () => {
    const res = await call('/v1/notes/');
    expect(res.status).toBe(404);
    expect(res.headers.get('location')).toBeNull();
    expect(await res.json()).toEqual({
      errors: [{ message: 'Nothing found at /v1/notes/.', code: 40401 }],
    });
  });

  it('refuses to mount the table on a router that is not strict', () => {
    const c = toExpressMiddleware(api);
    expect(() => c.mount(express())).toThrow(/strict routing/);
    expect(() => c.mount(express.Router())).toThrow(TypeError);
    expect(() => c.mount(express.Router({ strict: true }))).not.toThrow();
  });

  it('answers a wrong method on a mounted table route with 405 and Allow (RFC 9110 §15.5.6)', async () => {
    const res = await call('/v1/notes', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
  });

  it.each(['/V1/Books', '/v1/BOOKS/emma', '/v1/Notes'])(
    'answers %s with 404 and no Location, though Express routes case-insensitively (spec 4.1.3)',
    async (path) => {
      const res = await call(path);
      expect(res.status).toBe(404);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.json()).toEqual({
        errors: [
          { message: `Nothing found at ${path}: paths are entirely lower-case.`, code: 40402 },
        ],
      });
    },
  );

  it('answers an unknown path with 404 naming it (spec 7.1.3)', async () => {
    const res = await call('/v1/magazines?page=2');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(await res.json()).toEqual({
      errors: [{ message: 'Nothing found at /v1/magazines.', code: 40401 }],
    });
  });

  it('answers malformed JSON that express.json() rejects with 400 and code 40001 (spec 7.1.4)', async () => {
    const res = await call('/v1/books', { method: 'POST', headers: json, body: '{"title":' });
    expect(res.status).toBe(400);
    const { errors } = await res.json();
    expect(errors).toHaveLength(1);
    expect(errors[0].code).toBe(40001);
    expect(errors[0].message).toMatch(/^The request body is not valid JSON: /);
  });

  it('answers a body over the express.json() limit with 413 (RFC 9110 §15.5.14)', async () => {
    const body = JSON.stringify({ title: 'x'.repeat(100) });
    const res = await call('/v1/books', { method: 'POST', headers: json, body });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      errors: [{ message: 'The request body is larger than the limit of 32 bytes.', code: 41300 }],
    });
  });

  it('answers a charset express.json() cannot read with 415 (spec 4.6)', async () => {
    const res = await call('/v1/books', {
      method: 'POST',
      headers: { 'content-type': 'application/json; charset=klingon' },
      body: '{}',
    });
    expect(res.status).toBe(415);
    expect((await res.json()).errors[0].code).toBe(41500);
  });

  it('answers an error thrown by a native handler with 500 and no internals, and logs it (spec 7.1.5)', async () => {
    logged.mockClear();
    const res = await call('/v1/crash');
    expect(res.status).toBe(500);
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      errors: [{ message: 'Something went wrong on our side; it has been logged.', code: 50000 }],
    });
    expect(text).not.toMatch(/hunter2|at .*\.ts/);
    expect(logged).toHaveBeenCalledOnce();
    expect((logged.mock.calls[0]![0].err as Error).message).toBe('database password is hunter2');
  });

  it('answers a rejected async native handler with 500 (spec 7.1.5)', async () => {
    const res = await call('/v1/async-crash');
    expect(res.status).toBe(500);
    expect(await res.text()).not.toContain('async secret');
  });

  it('answers a native parameter with malformed percent-encoding with 400 and code 40006', async () => {
    const res = await call('/v1/books/%e0%a4');
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].code).toBe(40006);
  });

  it('uses the body express.json() already parsed on a table route', async () => {
    const res = await call('/v1/notes', { method: 'POST', headers: json, body: '{"a":1}' });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: { a: 1 } });
  });

  it('reads the stream itself when no body parser took the body, with the route limit', async () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const res = await call('/v1/notes', { method: 'POST', headers: form, body: 'a=1' });
    expect(res.status).toBe(415);
    const big = await call('/v1/notes', { method: 'POST', headers: form, body: 'a='.repeat(50) });
    expect(big.status).toBe(413);
  });

  it('answers HEAD on a table route without a body and with the length of GET (RFC 9110 §9.3.2)', async () => {
    const get = await (await call('/v1/notes')).text();
    const head = await rawRequest(
      Number(new URL(base).port),
      'HEAD /v1/notes HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(Buffer.byteLength(get)));
    expect(head.body).toBe('');
  });

  it('sends no X-Powered-By header', async () => {
    for (const path of ['/v1/books', '/v1/notes', '/v1/nothing']) {
      expect((await call(path)).headers.get('x-powered-by')).toBeNull();
    }
  });
});

/** A layer as Express 4 has it: `match` returns a boolean and leaves the matched part in `path`. */
function express4Layer(regexp: RegExp, extra: object) {
  return {
    path: undefined as string | undefined,
    match(path: string) {
      const found = regexp.exec(path);
      if (found) this.path = found[0];
      return found !== null;
    },
    ...extra,
  };
}

describe('reading an Express 4-shaped app', () => {
  const authors = {
    stack: [express4Layer(/^\/([^/]+)\/?$/, { route: { methods: { put: true } } })],
  };
  const app = {
    _router: undefined as { strict: boolean; stack: unknown[] } | undefined,
    lazyrouter() {
      this._router ??= {
        strict: true,
        stack: [
          express4Layer(/^\/?(?=\/|$)/, { handle: function query() {} }),
          express4Layer(/^\/v1\/books\/?$/, { route: { methods: { get: true, _all: true } } }),
          express4Layer(/^\/v1\/authors\/?(?=\/|$)/, { handle: authors }),
        ],
      };
    },
    get router(): never {
      throw new Error("'app.router' is deprecated!");
    },
  };

  it('reads the routing stack of Express 4 through _router, never app.router', () => {
    expect(appRouter(app)?.stack).toHaveLength(3);
  });

  it('reads strict routing from _router', () => {
    expect(isStrict(app)).toBe(true);
  });
});

/** The app's routes as the route view gets them; what it cannot hold is pushed to `skipped`. */
const appRoutesOf = (app: unknown, skipped: string[]) =>
  listRoutes(expressProbe, appRouter(app)?.stack ?? [], (what) => skipped.push(what));

describe('the app’s routes handed to the route view', () => {
  const express4Router = (express4 as unknown as { Router: () => express.Router }).Router;
  it.each([
    ['Express 5', express as unknown as () => express.Express, express.Router],
    ['Express 4', express4 as unknown as () => express.Express, express4Router],
  ])(
    'reads %s routes, nested Routers on literal paths and guards’ settings included',
    (_, make, router) => {
      const app = make();
      const c = toExpressMiddleware(conventions({ lint: 'off' }));
      const admin = router();
      admin.get('/', (_req, res) => res.json({}));
      admin.put('/users/:id', c.guard({ bodyLimit: 10 }), (_req, res) => res.json({}));
      app.get('/v1/health', (_req, res) => res.json({}));
      app.use('/v1/admin', admin);
      const skipped: string[] = [];
      const routes = appRoutesOf(app, skipped);
      expect(routes).toEqual([
        { method: 'GET', pattern: '/v1/health', config: undefined },
        { method: 'GET', pattern: '/v1/admin', config: undefined },
        { method: 'PUT', pattern: '/v1/admin/users/:id', config: { bodyLimit: 10 } },
      ]);
      expect(skipped).toEqual([]);
    },
  );

  it('names a Router Express 4 mounted on a pattern, whose routes the view cannot hold', () => {
    const app = (express4 as unknown as () => express.Express)();
    const tenant = express4Router();
    tenant.get('/books', (_req, res) => res.json({}));
    app.use('/v1/:tenant', tenant);
    const skipped: string[] = [];
    expect(appRoutesOf(app, skipped)).toEqual([]);
    expect(skipped).toEqual([expect.stringContaining('a Router mounted on')]);
  });
});

describe('guard(): route settings on Express’s own routes', () => {
  let server: Server;
  let base: string;
  const seen: unknown[] = [];

  beforeAll(async () => {
    const c = toExpressMiddleware({
      logger: { error() {}, warn() {} },
      plugins: [
        {
          name: 'mark',
          preParsing: (ctx) => {
            ctx.responseHeaders.set('x-checked', '1');
          },
        },
      ],
    });
    const app = express();
    app.set('strict routing', true);
    app.use(c.before);
    const note = { text: { type: 'string' as const, required: true, max: 10 } };
    // One route with Express's body parser ahead of the guard, one reading the stream itself.
    app.post('/v1/notes', express.json(), c.guard({ body: note }), (req, res) => {
      seen.push(req.body);
      res.status(201).json({ ok: true });
    });
    app.put('/v1/notes/:id', c.guard({ body: note, bodyLimit: 32 }), (req, res) => {
      seen.push(req.body);
      res.json({ id: req.params.id, ...req.body });
    });
    app.use(c.after);
    server = createServer(app);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const post = (path: string, method: string, body: unknown) =>
    fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  it('answers an invalid body with 400 listing every problem before the handler (spec 7.1.5)', async () => {
    const res = await post('/v1/notes', 'POST', { text: 'far too long a note', colour: 'red' });
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      errors: [
        { message: 'The field "text" must be at most 10 characters.', code: 40002 },
        { message: 'The field "colour" is not known.', code: 40004 },
      ],
    });
    expect(seen).toEqual([]);
  });

  it('hands the checked body to the handler, with the checks’ headers', async () => {
    const res = await post('/v1/notes', 'POST', { text: 'hello' });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-checked')).toBe('1');
    expect(seen.at(-1)).toEqual({ text: 'hello' });
  });

  it('reads the body itself where no body parser ran, with the route’s limit (413)', async () => {
    const ok = await post('/v1/notes/a', 'PUT', { text: 'hi' });
    expect(ok.status).toBe(200);
    expect(await ok.json()).toEqual({ id: 'a', text: 'hi' });
    const big = await post('/v1/notes/a', 'PUT', { text: 'x'.repeat(64) });
    expect(big.status).toBe(413);
    expect((await big.json()).errors[0].code).toBe(41300);
  });
});

/** Serves an Express app on port 0; resolves with its base URL and a close. */
async function serveApp(app: express.Express) {
  const running = createServer(app);
  await new Promise<void>((resolve) => running.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(running.address() as AddressInfo).port}`,
    close: () => new Promise<void>((done) => running.close(() => done()).closeAllConnections()),
  };
}

describe('the strict-routing warning of before', () => {
  const warnings: string[] = [];
  const strictWarnings = () => warnings.filter((message) => message.includes('strict routing'));
  const quiet = { logger: { error() {}, warn: (message: string) => warnings.push(message) } };

  /** An app with `before`, one native route and `after`; strict routing on or off. */
  function appWith(strict: boolean) {
    const app = express();
    if (strict) app.set('strict routing', true);
    const c = toExpressMiddleware(quiet);
    app.use(c.before);
    app.get('/v1/health', (_req, res) => {
      res.json({ ok: true });
    });
    app.use(c.after);
    return app;
  }

  it('warns through the logger once, on the first request, for an app without strict routing (once silent), not once per request', async () => {
    warnings.length = 0;
    const { base, close } = await serveApp(appWith(false));
    try {
      expect(strictWarnings()).toEqual([]);
      for (const path of ['/v1/health', '/v1/health/', '/v1/nothing']) await fetch(base + path);
      expect(strictWarnings()).toHaveLength(1);
      expect(strictWarnings()[0]).toContain("app.set('strict routing', true)");
    } finally {
      await close();
    }
  });

  it('says nothing for an app with strict routing', async () => {
    warnings.length = 0;
    const { base, close } = await serveApp(appWith(true));
    try {
      for (const path of ['/v1/health', '/v1/health/']) await fetch(base + path);
      expect(strictWarnings()).toEqual([]);
    } finally {
      await close();
    }
  });
});

describe('request bodies up to the 1 MiB default on the table’s routes', () => {
  const mib = 1_048_576;
  const api = conventions({
    logger: { error() {}, warn() {} },
    routes: {
      '/v1/notes': {
        POST: (ctx) => ({ length: (ctx.body as { text: string }).text.length }),
      },
    },
  });
  /** A JSON body of exactly `bytes` bytes: `{"text":"xx…"}`. */
  const bodyOf = (bytes: number) => `{"text":"${'x'.repeat(bytes - 11)}"}`;
  const post = (base: string, bytes: number) =>
    fetch(`${base}/v1/notes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: bodyOf(bytes),
    });

  /** The app as the README and the adapters guide set it up, with `parser` before mount(). */
  function documentedApp(parser?: RequestHandler) {
    const app = express();
    app.set('strict routing', true);
    const c = toExpressMiddleware(api);
    app.use(c.before);
    if (parser) app.use(parser);
    c.mount(app);
    app.use(c.after);
    return app;
  }

  it('accepts a 1,000,000-byte JSON body with the documented set-up (no express.json()), once a 413 at express.json()’s 100 KB', async () => {
    expect(bodyOf(1_000_000)).toHaveLength(1_000_000);
    const { base, close } = await serveApp(documentedApp());
    try {
      const res = await post(base, 1_000_000);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ length: 1_000_000 - 11 });
    } finally {
      await close();
    }
  });

  it('answers a body over 1 MiB with 413 naming the limit with the documented set-up (RFC 9110 §15.5.14)', async () => {
    const { base, close } = await serveApp(documentedApp());
    try {
      const res = await post(base, mib + 1);
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({
        errors: [
          { message: `The request body is larger than the limit of ${mib} bytes.`, code: 41300 },
        ],
      });
      expect((await post(base, mib)).status).toBe(200);
    } finally {
      await close();
    }
  });

  it('accepts the same 1,000,000-byte body with express.json({ limit: "1mb" }) before mount(), and answers 413 above 1 MiB', async () => {
    const { base, close } = await serveApp(documentedApp(express.json({ limit: '1mb' })));
    try {
      const res = await post(base, 1_000_000);
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ length: 1_000_000 - 11 });
      const over = await post(base, mib + 1);
      expect(over.status).toBe(413);
      expect((await over.json()).errors[0].code).toBe(41300);
    } finally {
      await close();
    }
  });
});
