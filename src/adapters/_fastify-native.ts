/** The app's own Fastify routes: lint, `config.conventions` before handlers, values through the response phases. */
import type { Conventions, Guarded, HeaderInit, LintRoute, RouteSettings } from 'api-conventions';
import type { FastifyInstance, preSerializationHookHandler, RouteOptions } from 'fastify';
import { contextOf, send } from './_fastify-io.ts';

/**
 * Watches the routes the app declares itself (not the table's, which `tableHandlers` holds):
 * lints their paths once the app is ready (spec 4.1), runs the core's checks and body rules
 * before the handler of each route that has `config.conventions`, and sends what their handlers
 * return through the transform, serialize and send phases.
 */
export function watchNativeRoutes(
  fastify: FastifyInstance,
  conventions: Conventions,
  tableHandlers: WeakSet<object>,
): void {
  const tableUrls = new Set<string>();
  fastify.addHook('onRoute', (route) => {
    if (tableHandlers.has(route.handler)) {
      tableUrls.add(route.url);
      return;
    }
    const methods = [route.method].flat().filter((method) => method !== 'HEAD');
    const config = route.config?.conventions;
    if (config !== undefined) guardRoute(route, conventions, methods, config);
    route.preSerialization = [...[route.preSerialization ?? []].flat(), shapeValue(conventions)];
  });
  // Every route of the app, those declared before the plugin or after a register() that was not
  // awaited included: Fastify lists them all once it is ready.
  fastify.addHook('onReady', async () => {
    conventions.lint(listedRoutes(fastify.printRoutes({ commonPrefix: false }), tableUrls));
  });
}

/** The app's own routes from Fastify's route listing, one line per path: `/v1/things/:id (GET, HEAD)`. */
export function listedRoutes(listing: string, skip: ReadonlySet<string>): LintRoute[] {
  const routes: LintRoute[] = [];
  for (const [, path, methods] of listing.matchAll(/(\/\S*) \(([A-Z, ]+)\)/g)) {
    if (skip.has(path!)) continue;
    for (const method of methods!.split(', ')) {
      // Fastify's catch-all `*` is a named wildcard in the lint's path-to-regexp syntax.
      if (method !== 'HEAD') routes.push({ method, path: path!.replace(/\*$/, '*rest') });
    }
  }
  return routes;
}

/** A native handler's value through the response phases; Fastify then sends the bytes as they are. */
function shapeValue(conventions: Conventions): preSerializationHookHandler<unknown> {
  return (request, reply, payload, done) => {
    const ctx = contextOf(conventions, request);
    const headers = reply.getHeaders() as HeaderInit;
    const result = conventions.respond(ctx, reply.statusCode, payload, headers);
    const go = (response: {
      status: number;
      headers: Record<string, string | string[]>;
      body: string | Uint8Array | null;
    }) => {
      for (const name of Object.keys(reply.getHeaders())) reply.removeHeader(name);
      reply.code(response.status).headers(response.headers);
      done(null, response.body ?? '');
    };
    if (result instanceof Promise) result.then(go, done);
    else go(result);
  };
}

/** Adds a preHandler that runs `conventions.guard` with the route's settings, compiled once here. */
function guardRoute(
  route: RouteOptions,
  conventions: Conventions,
  methods: string[],
  config: NonNullable<NonNullable<RouteOptions['config']>['conventions']>,
): void {
  const settings = new Map<string, RouteSettings>(
    methods.map((method) => [method, conventions.routeSettings(method, route.url, config)]),
  );
  if (config.bodyLimit !== undefined) route.bodyLimit ??= config.bodyLimit;
  const guard: NonNullable<RouteOptions['preHandler']> = (request, reply, done) => {
    const own = settings.get(request.method);
    if (own === undefined) return done();
    const ctx = contextOf(conventions, request);
    ctx.input.parsedBody = { value: request.body };
    const go = (guarded: Guarded) => {
      if (guarded.response !== undefined) return send(reply, guarded.response);
      if (ctx.hasResponseHeaders) reply.headers(ctx.responseHeaders.record);
      request.body = guarded.body;
      done();
    };
    const result = conventions.guard(ctx, own, request.params as Record<string, string>);
    if (result instanceof Promise) result.then(go, done);
    else go(result);
  };
  route.preHandler = [...[route.preHandler ?? []].flat(), guard];
}
