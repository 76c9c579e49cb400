/**
 * `api-conventions/fastify`: serves the conventions as a Fastify 5 plugin.
 *
 * @module api-conventions/fastify
 */

import type { IncomingMessage } from 'node:http';
import type { Conventions, ConventionsOptions, Identity, RouteConfig } from 'api-conventions';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import {
  type ApiResponse,
  appHeaders,
  assertKnownKeys,
  bindHost,
  catchAllPath,
  heldContext,
  settle,
  toConventions,
} from '#core';
import {
  ownNotFound,
  type RouteConfigBag,
  tableRoute,
  watchAppRoutes,
} from './_fastify-app-routes.ts';
import {
  type FastifyHost,
  type Next,
  served,
  toInput,
  writeError,
  writeReply,
} from './_fastify-server.ts';
import { readBodyFrom } from './_node-io.ts';
import { takeServer } from './_node-server.ts';

export {
  clientErrorHandler,
  frameworkErrors,
  rewriteUrl,
  serverOptions,
} from './_fastify-server.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The api-conventions settings of a route (`body`, `accepts`, `bodyLimit`, and what plugins
     * add). On the app's own routes they are applied before the handler, as on the table's.
     */
    // Both fastify.d.mts and fastify.d.cts declare this property, and TypeScript requires every
    // declaration of it to have the same type (TS2717). Naming the ESM and the CJS RouteConfig in
    // both makes it one type, which also sees a RouteConfig extension made from either side.
    conventions?: Readonly<
      import('api-conventions', { with: { 'resolution-mode': 'import' }}).RouteConfig &
        import('api-conventions', { with: { 'resolution-mode': 'require' }}).RouteConfig
    >;
  }
}

/** Options of {@link toFastifyPlugin}. */
export interface FastifyConventionsOptions {
  /** Whether the route table of `api` is registered as Fastify routes. @default true */
  routes?: boolean;
}

function registerRoutes(fastify: FastifyInstance, host: FastifyHost): void {
  // The table lists GET's route under HEAD too, unless it declares a HEAD of its own: the core
  // answers HEAD like GET with GET's length (RFC 9110 §9.3.2), where Fastify's own HEAD route
  // would answer Content-Length: 0.
  for (const route of host.api.routes) {
    // The onRequest hook opened the context and ran this route's checks.
    const handler = (request: FastifyRequest, reply: FastifyReply) => {
      readBodyFrom(request.body as IncomingMessage | undefined, host.inputOf(request));
      return writeReply(
        reply,
        host.serve(request, route, request.params as Record<string, string>),
      );
    };
    fastify.route({
      method: route.method,
      url: catchAllPath(route.pattern, 'Fastify'),
      exposeHeadRoute: false,
      bodyLimit: route.config.bodyLimit ?? host.bodyLimit,
      config: { conventions: route.config, [tableRoute]: route } as { conventions: RouteConfig },
      handler,
    });
  }
}

function plugin(fastify: FastifyInstance, api: Conventions, settings: FastifyConventionsOptions) {
  if (served.has(fastify)) {
    throw new TypeError(
      'api-conventions is registered twice on this Fastify app: register toFastifyPlugin(api) once, before your routes.',
    );
  }
  const host: FastifyHost = bindHost(api, { input: toInput, match: (request) => match(request) });
  const match = watchAppRoutes(fastify, host);
  const { server } = fastify;
  // Requests Node would answer by itself go through Fastify's own request listener instead.
  takeServer(server, api, (req, res) => server.emit('request', req, res));
  // With `return503OnClosing: false` (serverOptions), a request that arrives while the app closes
  // reaches the hooks, and gets the core's 503 with the error body instead of Fastify's own.
  fastify.addHook('preClose', (done) => {
    host.close();
    done();
  });
  // A request no route serves, bound for the plugin's own not-found handler.
  const unrouted = (config: RouteConfigBag | undefined) =>
    config?.url === undefined && config?.[ownNotFound] === true;
  const enter = (request: FastifyRequest, reply: FastifyReply, next: Next, ahead = false) => {
    const config = request.routeOptions.config as RouteConfigBag | undefined;
    // Fastify marks the response of a request it routes while closing with Connection: close
    // before any hook, which tells it before the preClose hook has run.
    if (reply.raw.getHeader('connection') === 'close') host.close();
    const go = (response: ApiResponse | undefined) => {
      if (response !== undefined) return writeReply(reply, response);
      // No route: the router's answer now, before any hook of the app could answer instead.
      if (!ahead && unrouted(config)) return writeReply(reply, host.serve(request));
      // A table route's response carries the conventions' headers from the core; any other
      // answer (the app's own routes, Fastify's own) gets them here.
      if (config?.[tableRoute] === undefined) reply.headers(appHeaders(host, request, true));
      next();
    };
    settle(host.enter(request), go, next);
  };
  // For a host that enters requests ahead of its own hooks (Nest, ahead of its middleware), where
  // a request no route serves goes on to the app's code, checked where it is entered.
  served.set(fastify, { host, enter: (request, reply, next) => enter(request, reply, next, true) });
  fastify.addHook('onRequest', (request, reply, next) => {
    if (host.held(request) === undefined) return enter(request, reply, next);
    // Entered ahead: a request no route serves gets the router's answer before the later hooks.
    const config = request.routeOptions.config as RouteConfigBag | undefined;
    if (unrouted(config)) return writeReply(reply, host.serve(request));
    next();
  });
  fastify.setErrorHandler((error, request, reply) => writeError(host, error, request, reply));
  // The final status of every response, the app's own routes' included.
  if (host.observes) {
    fastify.addHook('onResponse', (request, reply, done) => {
      host.sent(request, reply.statusCode);
      done();
    });
  }
  return fastify.register(async (raw) => {
    // In this context bodies stay raw bytes: the core parses them for the route table (its media
    // types, charsets, messages), and an unmatched request gets its 404 or 405 before any body
    // error, as the core's own routing does.
    raw.removeAllContentTypeParsers();
    // The body stream itself, unread: the core reads it with the route's limit and timeout.
    raw.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    // 404, 405 with Allow and OPTIONS from the route view: the table's and the app's routes.
    raw.setNotFoundHandler({ config: { [ownNotFound]: true } } as object, (request, reply) =>
      writeReply(reply, host.serve(request)),
    );
    if (settings.routes ?? true) registerRoutes(raw, host);
  });
}

const meta = { fastify: '5.x', name: 'api-conventions' } as const;

/**
 * The conventions as a Fastify 5 plugin: registers the route table as Fastify routes, answers
 * unmatched paths with 404, 405 + `Allow` or OPTIONS 204, screens upper-case paths, and turns
 * every error, Fastify's own included, into the spec's error body. Not encapsulated: it applies
 * to the whole app, the app's own routes too. A wrong `api` or setting is a `TypeError` here, at
 * creation.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { conventions } from 'api-conventions';
 * import { serverOptions, toFastifyPlugin } from 'api-conventions/fastify';
 *
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * const app = Fastify({ ...serverOptions });
 * await app.register(toFastifyPlugin(api));
 * await app.listen({ port: 3000 });
 * ```
 *
 * @see [Adopting in an existing app](../../docs/existing-apps.md) for a Fastify app with routes of
 *   its own, and [Adapters](../../docs/adapters.md).
 */
export function toFastifyPlugin(
  api: Conventions | ConventionsOptions,
  settings: FastifyConventionsOptions = {},
): FastifyPluginAsync {
  const conventions = toConventions(api, 'toFastifyPlugin');
  assertKnownKeys('toFastifyPlugin settings', settings, ['routes']);
  return fp(async (fastify) => plugin(fastify, conventions, settings), meta);
}

/**
 * The verified caller of a request (`ctx.identity`: subject, client, scopes), for the app's own
 * handlers; `undefined` when no identity plugin verified one (an `auth: false` route, say).
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { bearer, conventions, createTokenKeys } from 'api-conventions';
 * import { identityOf, serverOptions, toFastifyPlugin } from 'api-conventions/fastify';
 *
 * const keys = await createTokenKeys();
 * const issuer = 'https://api.example.com';
 * const api = conventions({ plugins: [bearer({ keys, issuer, audience: issuer })] });
 * const app = Fastify({ ...serverOptions });
 * await app.register(toFastifyPlugin(api));
 * app.get('/v1/me', { config: { conventions: { scopes: ['profile'] } } }, async (request) => ({
 *   subject: identityOf(request)?.subject,
 * }));
 * ```
 */
export function identityOf(request: FastifyRequest): Identity | undefined {
  return heldContext(request)?.identity;
}
