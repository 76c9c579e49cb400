/**
 * The apps of the fail-closed matrix: Express 5 and 4, Fastify 5, Hono 4 on @hono/node-server
 * and Koa 3 with @koa/router, each set up exactly as docs/existing-apps.md shows, with `bearer()` installed
 * and no route public unless it says `auth: false`. Every app has the same two routes
 * (`GET /v1/orders`, protected; `GET /v1/status`, public), then the routes and host constructs a
 * case adds. Each handler records that it ran, so a test can tell which handler a request reached.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import Router from '@koa/router';
import {
  bearer,
  type Conventions,
  conventions,
  createTokenKeys,
  type RouteConfig,
  type TokenKeys,
} from 'api-conventions';
import { type ExpressConventions, toExpressMiddleware } from 'api-conventions/express';
import { serverOptions, toFastifyPlugin } from 'api-conventions/fastify';
import {
  toFetchErrorHandler,
  toFetchGuard,
  toFetchHandler,
  toFetchMiddleware,
} from 'api-conventions/fetch';
import { type KoaConventions, toKoaMiddleware } from 'api-conventions/koa';
import { issueAccessToken } from 'api-conventions/oauth';
import express, { type Application, type RequestHandler } from 'express';
import express4 from 'express4';
import Fastify, {
  type FastifyInstance,
  type FastifyServerOptions,
  type RouteHandlerMethod,
} from 'fastify';
import { type Context, Hono } from 'hono';
import Koa, { type Middleware } from 'koa';
import { listen } from '../../examples/bookshelf/hosts/host.ts';

const issuer = 'https://api.example.com';
const audience = issuer;
const where = { port: 0, host: '127.0.0.1' };

/** A route of the app's own, declared the same way on every host. */
export interface AppRoute {
  /** The method, upper-case; `ALL` is the host's `all()`. */
  readonly method: string;
  /** The pattern in the host's own syntax (`/v1/opt{/:x}` on Express 5, `/v1/opt/:x?` elsewhere). */
  readonly path: string;
  /** What the handler records when it runs. */
  readonly name: string;
  /** Declared with `auth: false` (Express `c.guard`, Fastify `config.conventions`, `toFetchGuard`). */
  readonly public?: boolean;
  /** Scopes the route requires (the test token has `orders:read orders:write`). */
  readonly scopes?: readonly string[];
}

/** A running app of the matrix and what its handlers recorded. */
export interface Served {
  /** The port it listens on. */
  readonly port: number;
  /** The protected handlers that ran, in order. */
  readonly ran: string[];
  /** The public (`auth: false`) handlers that ran, in order. */
  readonly ranPublic: string[];
  /** What the library logged as warnings, to explain a failure. */
  readonly warnings: string[];
  /** Stops the server. */
  close(): Promise<void>;
}

/** Builds and starts an app; a start-up refusal is the promise's rejection. */
export type Build = () => Promise<Served>;

/** What every host's set-up hands to a case's own additions. */
export interface Recording<Handler> {
  /** The API the app serves. */
  readonly api: Conventions;
  /** A handler that records `name` as a protected handler and answers 200. */
  answer(name: string): Handler;
  /** A handler that records `name` as a public handler and answers 200. */
  answerPublic(name: string): Handler;
}

/** What a case declares on any host: its routes, and methods Fastify must be told of. */
export interface AppSpec {
  /** Routes after the two every app has, in declaration order. */
  readonly routes?: readonly AppRoute[];
  /** Methods outside Fastify's default list, added with `addHttpMethod` (others ignore it). */
  readonly methods?: readonly string[];
}

let keys: Promise<TokenKeys> | undefined;
const tokenKeys = () => {
  keys ??= createTokenKeys({ logger: { error() {}, warn() {} } });
  return keys;
};

/** A valid bearer token (`subject`, `orders:read orders:write`) for every app of the matrix. */
export async function authorization(subject = 'alice'): Promise<string> {
  const { token } = await issueAccessToken(await tokenKeys(), {
    issuer,
    audience,
    subject,
    clientId: 'fail-closed',
    scope: 'orders:read orders:write',
    ttlSeconds: 600,
  });
  return `Bearer ${token}`;
}

/** The bearer plugin every app of the matrix has: the test tokens' keys, issuer and audience. */
export async function testBearer() {
  return bearer({ keys: await tokenKeys(), issuer, audience });
}

export const baseRoutes: readonly AppRoute[] = [
  { method: 'GET', path: '/v1/orders', name: 'orders' },
  { method: 'GET', path: '/v1/status', name: 'status', public: true },
];

/** The settings a route's guard declares, or none for a route with the defaults. */
export function settingsOf(route: AppRoute): RouteConfig | undefined {
  if (route.public) return { auth: false };
  if (route.scopes) return { scopes: [...route.scopes] };
  return undefined;
}

/** A fresh API with bearer() and an empty table, its warnings kept, and the record of an app. */
export async function record<Handler>(toHandler: (push: () => void, name: string) => Handler) {
  const warnings: string[] = [];
  const api = conventions({
    logger: { error() {}, warn: (message) => warnings.push(message) },
    plugins: [await testBearer()],
    routes: {},
  });
  const ran: string[] = [];
  const ranPublic: string[] = [];
  const recording: Recording<Handler> = {
    api,
    answer: (name) => toHandler(() => ran.push(name), name),
    answerPublic: (name) => toHandler(() => ranPublic.push(name), name),
  };
  const served = (port: number, close: () => Promise<void>): Served => ({
    port,
    ran,
    ranPublic,
    warnings,
    close,
  });
  return { api, recording, served };
}

export const handlerOf = <Handler>(recording: Recording<Handler>, route: AppRoute) =>
  route.public ? recording.answerPublic(route.name) : recording.answer(route.name);

/** What an Express case may add beside its routes. */
export interface ExpressSetup extends Recording<RequestHandler> {
  readonly app: Application;
  readonly c: ExpressConventions;
  /** `express.Router()` of the app's own Express version (not strict, its default). */
  router(): ReturnType<typeof express.Router>;
}

/** An Express app (5, or 4 through the `express4` alias) as docs/existing-apps.md sets it up. */
export interface ExpressSpec extends AppSpec {
  readonly version: 'express' | 'express4';
  /** `app.set('strict routing', true)`, as the docs ask. @default true */
  readonly strict?: boolean;
  readonly add?: (setup: ExpressSetup) => void;
}

type ExpressModule = typeof express;

/** `express()`, strict routing, `c.before`, the routes, the case's additions, `c.after`. */
export function expressApp(spec: ExpressSpec): Build {
  return async () => {
    // Express 4 takes Express 5's types here, as in examples/bookshelf/hosts/express4.ts.
    const host = (spec.version === 'express' ? express : express4) as unknown as ExpressModule;
    const { recording, served } = await record<RequestHandler>((push, name) => (_req, res) => {
      push();
      res.json({ ran: name });
    });
    const app = host();
    if (spec.strict ?? true) app.set('strict routing', true);
    const c = toExpressMiddleware(recording.api);
    app.use(c.before);
    const verbs = app as unknown as Record<string, (path: string, ...h: RequestHandler[]) => void>;
    for (const route of [...baseRoutes, ...(spec.routes ?? [])]) {
      const settings = settingsOf(route);
      const guards = settings ? [c.guard(settings)] : [];
      verbs[route.method.toLowerCase()]!(route.path, ...guards, handlerOf(recording, route));
    }
    spec.add?.({ ...recording, app, c, router: () => host.Router() });
    app.use(c.after);
    const running = await listen(createServer(app), where.port, where.host);
    return served(running.port, running.close);
  };
}

/** What a Fastify case may add beside its routes. */
export interface FastifySetup extends Recording<RouteHandlerMethod> {
  readonly app: FastifyInstance;
}

/** A Fastify 5 app as docs/existing-apps.md sets it up, with router options of the case's own. */
export interface FastifySpec extends AppSpec {
  readonly routerOptions?: FastifyServerOptions['routerOptions'];
  readonly add?: (setup: FastifySetup) => void;
}

/** `Fastify({ ...serverOptions })`, `toFastifyPlugin(api)` registered first, then the routes. */
export function fastifyApp(spec: FastifySpec = {}): Build {
  return async () => {
    const { recording, served } = await record<RouteHandlerMethod>((push, name) => async () => {
      push();
      return { ran: name };
    });
    const app: FastifyInstance = Fastify({
      ...serverOptions,
      forceCloseConnections: true,
      ...(spec.routerOptions ? { routerOptions: spec.routerOptions } : {}),
    });
    try {
      for (const method of spec.methods ?? []) app.addHttpMethod(method);
      await app.register(toFastifyPlugin(recording.api));
      for (const route of [...baseRoutes, ...(spec.routes ?? [])]) {
        const settings = settingsOf(route);
        app.route({
          method: route.method === 'ALL' ? app.supportedMethods : route.method,
          url: route.path,
          ...(settings ? { config: { conventions: settings } } : {}),
          handler: handlerOf(recording, route),
        });
      }
      spec.add?.({ ...recording, app });
      await app.listen(where);
    } catch (error) {
      await app.close();
      throw error;
    }
    return served((app.server.address() as AddressInfo).port, () => app.close());
  };
}

type HonoHandler = (c: Context) => Response;

/** What a Hono case may add beside its routes. */
export interface HonoSetup extends Recording<HonoHandler> {
  readonly app: Hono;
}

/** A Hono app on @hono/node-server as docs/existing-apps.md sets it up. */
export interface HonoSpec extends AppSpec {
  /** `new Hono({ strict })`. @default Hono's default (strict) */
  readonly strict?: false;
  readonly add?: (setup: HonoSetup) => void;
}

/** The middleware, the error handler, the routes, the case's additions, the not-found handler. */
export function honoApp(spec: HonoSpec = {}): Build {
  return async () => {
    const { api, recording, served } = await record<HonoHandler>((push, name) => (c) => {
      push();
      return c.json({ ran: name });
    });
    const app = spec.strict === false ? new Hono({ strict: false }) : new Hono();
    app.use('*', toFetchMiddleware<Context>(api, { routes: () => app.routes }));
    app.onError(toFetchErrorHandler(api));
    for (const route of [...baseRoutes, ...(spec.routes ?? [])]) {
      const settings = settingsOf(route);
      const handler = handlerOf(recording, route);
      // app.on('ALL', …) is what app.all(…) does (hono-base.js).
      if (settings) app.on(route.method, route.path, toFetchGuard(api, settings), handler);
      else app.on(route.method, route.path, handler);
    }
    spec.add?.({ ...recording, app });
    // What no route served: the library's own handler, passed as it is so the middleware knows it.
    app.notFound(toFetchHandler<Context>(api));
    const server = createAdaptorServer({ fetch: app.fetch, hostname: where.host }) as Server;
    const running = await listen(server, where.port, where.host);
    return served(running.port, running.close);
  };
}

type KoaHandler = Middleware;

/** What a Koa case may add beside its routes: the app and its router, before `app.use(router)`. */
export interface KoaSetup extends Recording<KoaHandler> {
  readonly app: Koa;
  readonly router: Router;
  readonly c: KoaConventions;
}

/** A Koa 3 app with @koa/router as docs/koa.md sets it up. */
export interface KoaSpec extends AppSpec {
  /** `new Router({ strict, sensitive: true })`. @default true */
  readonly strict?: boolean;
  readonly add?: (setup: KoaSetup) => void;
}

/** `app.use(c.middleware)`, the routes on a router (a guard where they have settings), the case's additions. */
export function koaApp(spec: KoaSpec = {}): Build {
  return async () => {
    const { recording, served } = await record<KoaHandler>((push, name) => (ctx) => {
      push();
      ctx.body = { ran: name };
    });
    const app = new Koa();
    const c = toKoaMiddleware(recording.api);
    app.use(c.middleware);
    const router = new Router({ strict: spec.strict ?? true, sensitive: true });
    const verbs = router as unknown as Record<string, (path: string, ...h: Middleware[]) => void>;
    for (const route of [...baseRoutes, ...(spec.routes ?? [])]) {
      const settings = settingsOf(route);
      const guards = settings ? [c.guard(settings)] : [];
      verbs[route.method.toLowerCase()]!(route.path, ...guards, handlerOf(recording, route));
    }
    spec.add?.({ ...recording, app, router, c });
    app.use(router.routes());
    const running = await listen(createServer(app.callback()), where.port, where.host);
    return served(running.port, running.close);
  };
}

/** An answer read off the wire. */
export interface Answer {
  readonly status: number;
  readonly challenge: string | undefined;
  readonly body: string;
}

/**
 * Sends `target` ("METHOD /path") over node:http exactly as written (`//v1//orders` and unusual
 * methods included, which `fetch` would normalise or refuse), with `authorization` if given and
 * the `extra` headers (`Host` among them).
 */
export function send(
  port: number,
  target: string,
  authorization?: string,
  extra: Readonly<Record<string, string>> = {},
): Promise<Answer> {
  const [method, path] = target.split(' ') as [string, string];
  return new Promise((resolve, reject) => {
    const headers = authorization ? { ...extra, authorization } : { ...extra };
    const req = request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          challenge: res.headers['www-authenticate'],
          body: Buffer.concat(chunks).toString('utf8'),
        }),
      );
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}
