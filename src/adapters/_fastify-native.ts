/** The app's own Fastify routes: route lint when ready, and `config.conventions` before handlers. */
import type { Conventions, Guarded, LintRoute, RouteSettings } from 'api-conventions';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { send, toInput } from './_fastify-io.ts';

/**
 * Watches the routes the app declares itself (not the table's, which `tableHandlers` holds):
 * lints their paths once the app is ready (spec 4.1), and runs the core's checks and body rules
 * before the handler of each route that has `config.conventions`.
 */
export function watchNativeRoutes(
  fastify: FastifyInstance,
  api: Conventions,
  tableHandlers: WeakSet<object>,
): void {
  const native: LintRoute[] = [];
  fastify.addHook('onRoute', (route) => {
    if (tableHandlers.has(route.handler)) return;
    const methods = [route.method].flat().filter((method) => method !== 'HEAD');
    // Fastify's catch-all `*` is a named wildcard in the lint's path-to-regexp syntax.
    for (const method of methods) native.push({ method, path: route.url.replace(/\*$/, '*rest') });
    const config = route.config?.conventions;
    if (config !== undefined) guardRoute(route, api, methods, config);
  });
  fastify.addHook('onReady', async () => {
    api.lint(native);
  });
}

/** Adds a preHandler that runs `api.guard` with the route's settings, compiled once here. */
function guardRoute(
  route: RouteOptions,
  api: Conventions,
  methods: string[],
  config: NonNullable<NonNullable<RouteOptions['config']>['conventions']>,
): void {
  const settings = new Map<string, RouteSettings>(
    methods.map((method) => [method, api.routeSettings(method, route.url, config)]),
  );
  if (config.bodyLimit !== undefined) route.bodyLimit ??= config.bodyLimit;
  const guard: NonNullable<RouteOptions['preHandler']> = (request, reply, done) => {
    const own = settings.get(request.method);
    if (own === undefined) return done();
    const input = toInput(request);
    input.parsedBody = { value: request.body };
    const go = (guarded: Guarded) => {
      if (guarded.response !== undefined) return send(reply, guarded.response);
      reply.headers(guarded.headers);
      request.body = guarded.body;
      done();
    };
    const result = api.guard(own, input, request.params as Record<string, string>);
    if (result instanceof Promise) result.then(go, done);
    else go(result);
  };
  route.preHandler = [...[route.preHandler ?? []].flat(), guard];
}
