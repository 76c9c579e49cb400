/**
 * Existing apps adopt without collisions: the packages an app already has —
 * @fastify/cors, @fastify/swagger and @fastify/swagger-ui, @hono/zod-validator, helmet, cors and
 * an error handler of its own — either work beside the library, or the library says at start-up
 * (or at the app's first request, where the host tells nothing sooner) what to change. Real
 * packages on real servers.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import fastifyCors from '@fastify/cors';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { createAdaptorServer } from '@hono/node-server';
import { zValidator } from '@hono/zod-validator';
import {
  type Conventions,
  type ConventionsOptions,
  conventions,
  cors,
  ErrorCode,
  type Plugin,
  rateLimit,
  securityHeaders,
} from 'api-conventions';
import { toExpressMiddleware } from 'api-conventions/express';
import { serverOptions, toFastifyPlugin } from 'api-conventions/fastify';
import {
  toFetchErrorHandler,
  toFetchGuard,
  toFetchHandler,
  toFetchMiddleware,
  validationHook,
} from 'api-conventions/fetch';
import corsPackage from 'cors';
import express, { type ErrorRequestHandler } from 'express';
import Fastify, { type FastifyInstance } from 'fastify';
import helmet from 'helmet';
import { Hono } from 'hono';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listen, type Running } from '../../examples/bookshelf/hosts/host.ts';
import { authorization, testBearer } from './_fail-closed-apps.ts';

const where = { port: 0, host: '127.0.0.1' };
const origin = 'https://app.example.com';

/** A service with bearer() (and `extra` plugins) whose warnings are kept. */
async function service(extra: Plugin[] = [], options: ConventionsOptions = {}) {
  const warnings: string[] = [];
  const api = conventions({
    logger: { error() {}, warn: (message) => warnings.push(message) },
    plugins: [...extra, await testBearer()],
    routes: {},
    ...options,
  });
  return { api, warnings };
}

let running: { close(): Promise<void> } | undefined;
afterEach(async () => {
  await running?.close();
  running = undefined;
});

/** Starts a Fastify app built by `build` with the plugin registered; its base URL. */
async function startFastify(app: FastifyInstance): Promise<string> {
  await app.listen(where);
  running = app;
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** Starts a node:http server and keeps it to close; its base URL. */
async function start(server: ReturnType<typeof createServer>): Promise<string> {
  const served: Running = await listen(server, where.port, where.host);
  running = served;
  return `http://127.0.0.1:${served.port}`;
}

const preflight = {
  method: 'OPTIONS',
  headers: { origin, 'access-control-request-method': 'GET' },
};

describe('Fastify with @fastify/cors', () => {
  it.each([
    ['before', true],
    ['after', false],
  ])(
    'starts with @fastify/cors registered %s the plugin: preflights are its, routes still need a token',
    async (_, corsFirst) => {
      const { api } = await service();
      const app = Fastify({ ...serverOptions });
      if (corsFirst) await app.register(fastifyCors, { origin });
      await app.register(toFastifyPlugin(api));
      if (!corsFirst) await app.register(fastifyCors, { origin });
      app.get('/v1/orders', async () => ({ orders: [], hasNext: false }));
      const base = await startFastify(app);
      const answer = await fetch(`${base}/v1/orders`, preflight);
      expect(answer.status).toBe(204);
      expect(answer.headers.get('access-control-allow-origin')).toBe(origin);
      const anonymous = await fetch(`${base}/v1/orders`, { headers: { origin } });
      expect(anonymous.status).toBe(401); // RFC 6750 §3
      // Registered first, its hook adds its headers before the conventions answer: a browser can
      // read the refusal. Registered after, the refusal is sent before its hook runs.
      expect(anonymous.headers.get('access-control-allow-origin')).toBe(corsFirst ? origin : null);
      const signedIn = await fetch(`${base}/v1/orders`, {
        headers: { origin, authorization: await authorization() },
      });
      expect(signedIn.status).toBe(200);
    },
  );

  it('refuses @fastify/cors beside the conventions’ cors() at start-up, naming both', async () => {
    const { api } = await service([cors({ origins: [origin] })]);
    const app = Fastify({ ...serverOptions });
    await app.register(toFastifyPlugin(api));
    await app.register(fastifyCors, { origin });
    await expect(app.ready()).rejects.toThrow(/@fastify\/cors and the conventions' cors\(\)/);
    await app.close();
  });
});

describe('Fastify with @fastify/cors, @fastify/swagger and @fastify/swagger-ui', () => {
  /**
   * The app: @fastify/cors, the plugin, the swagger plugins, an optional onRoute hook before the
   * UI — the four together, as an app that has them all adopts the library.
   */
  async function swaggerApp(publicDocs: boolean) {
    const made = await service();
    const app = Fastify({ ...serverOptions });
    await app.register(fastifyCors, { origin });
    await app.register(toFastifyPlugin(made.api));
    await app.register(fastifySwagger, { openapi: { info: { title: 'orders', version: '1' } } });
    if (publicDocs) {
      // The documented way to mark another plugin's routes public: an onRoute hook declared
      // before that plugin sets their config.conventions.
      app.addHook('onRoute', (route) => {
        if (route.url === '/docs' || route.url.startsWith('/docs/')) {
          route.config = { ...route.config, conventions: { auth: false } };
        }
      });
    }
    await app.register(fastifySwaggerUi, { routePrefix: '/docs' });
    app.get('/v1/orders', async () => ({ orders: [], hasNext: false }));
    return { ...made, base: await startFastify(app) };
  }

  it('starts, linting the UI’s /docs/ only as a warning; its pages and the app’s routes need a token', async () => {
    const { base, warnings } = await swaggerApp(false);
    expect(warnings.join('\n')).toMatch(/route lint \(the app's own routes\)/);
    expect((await fetch(`${base}/docs/json`)).status).toBe(401);
    expect((await fetch(`${base}/v1/orders`)).status).toBe(401);
    expect((await fetch(`${base}/v1/orders`, preflight)).status).toBe(204);
    const docs = await fetch(`${base}/docs/json`, {
      headers: { authorization: await authorization() },
    });
    expect(docs.status).toBe(200);
    expect((await docs.json()).openapi).toMatch(/^3\./);
  });

  it('serves the UI to anyone once an onRoute hook marks its routes auth: false', async () => {
    const { base } = await swaggerApp(true);
    expect((await fetch(`${base}/docs/json`)).status).toBe(200);
    expect((await fetch(`${base}/docs/static/index.html`)).status).toBe(200);
    expect((await fetch(`${base}/v1/orders`)).status).toBe(401);
  });
});

describe('Hono with @hono/zod-validator', () => {
  const note = z.object({ text: z.string().min(1) });

  /** `POST /v1/notes` with the guard and the validator, in either order. */
  async function honoApp(guardFirst: boolean) {
    const { api } = await service();
    const app = new Hono();
    app.use('*', toFetchMiddleware(api, { routes: () => app.routes }));
    app.onError(toFetchErrorHandler(api));
    const guard = toFetchGuard(api, { scopes: ['orders:write'] });
    const validator = zValidator('json', note, validationHook);
    const [first, second] = guardFirst ? [guard, validator] : [validator, guard];
    app.post('/v1/notes', first, second, (c) => c.json(c.req.valid('json' as never), 201));
    app.notFound(toFetchHandler(api));
    const server = createAdaptorServer({ fetch: app.fetch, hostname: where.host });
    return start(server as ReturnType<typeof createServer>);
  }

  it.each([
    ['the guard first', true],
    ['the validator first', false],
  ])(
    'accepts a valid body and answers an invalid one with the spec’s error body (%s)',
    async (_, guardFirst) => {
      const base = await honoApp(guardFirst);
      const post = async (body: string, token = true) =>
        fetch(`${base}/v1/notes`, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(token ? { authorization: await authorization() } : {}),
          },
          body,
        });
      const good = await post('{"text":"hi"}');
      expect(good.status).toBe(201);
      expect(await good.json()).toEqual({ text: 'hi' });
      const bad = await post('{"text":""}');
      expect(bad.status).toBe(400);
      const { errors } = await bad.json();
      expect(errors).toEqual([
        { message: expect.stringContaining('"text"'), code: ErrorCode.InvalidBody },
      ]);
      expect((await post('{"text":"hi"}', false)).status).toBe(401);
    },
  );
});

describe('Express with helmet, cors and an error handler of its own', () => {
  /** An Express app with `ahead` before c.before and `behind` after the routes. */
  async function expressApp(
    api: Conventions,
    ahead: express.RequestHandler[],
    behind: ErrorRequestHandler[] = [],
  ) {
    const app = express();
    app.set('strict routing', true);
    for (const handler of ahead) app.use(handler);
    const c = toExpressMiddleware(api);
    app.use(c.before);
    app.post('/v1/orders', c.guard({ accepts: ['json'] }), (req, res) => {
      res.status(201).json(req.body);
    });
    for (const handler of behind) app.use(handler);
    app.use(c.after);
    return start(createServer(app));
  }

  it('sends the conventions’ security headers over helmet’s, and names each it replaced', async () => {
    const { api, warnings } = await service([securityHeaders()]);
    const base = await expressApp(api, [helmet()]);
    const res = await fetch(`${base}/v1/orders`, { method: 'POST' });
    expect(res.status).toBe(401);
    expect(res.headers.get('x-xss-protection')).toBe('1; mode=block'); // spec 4.8
    expect(warnings.join('\n')).toMatch(/x-xss-protection was "0" before the conventions/);
  });

  it('names the cors package ahead of c.before, which answers preflights itself', async () => {
    const { api, warnings } = await service();
    const base = await expressApp(api, [corsPackage({ origin })]);
    expect((await fetch(`${base}/v1/orders`, preflight)).status).toBe(204);
    expect(warnings).toEqual([]); // the preflight never reached the conventions
    expect((await fetch(`${base}/v1/orders`, { method: 'POST' })).status).toBe(401);
    expect(warnings.join('\n')).toMatch(/The cors package runs before c\.before/);
  });

  it('names an error handler of the app that runs before c.after, and what to do', async () => {
    const { api, warnings } = await service();
    const own: ErrorRequestHandler = function ownErrors(_error, _req, res, _next) {
      res.status(500).send('oops');
    };
    const base = await expressApp(api, [], [own]);
    await fetch(`${base}/v1/nothing`);
    expect(warnings.join('\n')).toMatch(
      /An error handler of the app \(ownErrors\) runs before c\.after/,
    );
  });
});

describe('Hono without a client address', () => {
  it('warns at start-up that a rate limit cannot tell anonymous callers apart', async () => {
    const { api, warnings } = await service([rateLimit({ policies: [{ limit: 10, window: 60 }] })]);
    toFetchMiddleware(api);
    expect(warnings).toEqual([expect.stringContaining('has no remoteAddress option')]);
    const { api: quiet, warnings: none } = await service([
      rateLimit({ policies: [{ limit: 10, window: 60 }] }),
    ]);
    toFetchMiddleware(quiet, { remoteAddress: () => '192.0.2.1' });
    expect(none).toEqual([]);
  });
});
