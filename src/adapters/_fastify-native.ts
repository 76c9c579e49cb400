/** The app's own Fastify routes: lint, `config.conventions` before handlers, values through the response phases. */
import type {
  Conventions,
  HeaderValue,
  HostRoute,
  LintRoute,
  RouteSettings,
} from 'api-conventions';
import type { ApiResponse, Guarded } from 'api-conventions/host';
import type {
  FastifyInstance,
  onSendHookHandler,
  preSerializationHookHandler,
  RouteOptions,
} from 'fastify';
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
  const hostRoutes: HostRoute[] = [];
  const shape = shapeValue(conventions);
  fastify.addHook('onRoute', (route) => {
    if (tableHandlers.has(route.handler)) {
      tableUrls.add(route.url);
      return;
    }
    const methods = [route.method].flat();
    const pattern = fastifyPattern(route.url);
    for (const method of methods) {
      hostRoutes.push({ method, pattern, config: route.config?.conventions });
    }
    // Fastify builds a GET route's HEAD route from the options as declared, before these hooks
    // added to them, and calls this hook for it too: each route gets its own.
    const config = route.config?.conventions;
    if (config !== undefined) guardRoute(route, conventions, methods, config);
    // A route with a response schema keeps Fastify's serializer: the schema decides its fields.
    if (route.schema?.response === undefined) {
      route.preSerialization = [...[route.preSerialization ?? []].flat(), shape];
    }
    // After Fastify's own HEAD handler, which counts the empty payload: GET's length is the answer.
    if (methods.includes('HEAD')) route.onSend = [...[route.onSend ?? []].flat(), restoreLength];
  });
  // Every route of the app, those declared before the plugin or after a register() that was not
  // awaited included: Fastify lists them all once it is ready.
  // They join the route view then, once: Fastify takes no route after it is ready.
  fastify.addHook('onReady', async () => {
    const listed = listedRoutes(fastify.printRoutes(), tableUrls);
    conventions.lint(listed);
    const known = new Set(hostRoutes.map((r) => `${r.method} ${r.pattern}`));
    for (const { method, path } of listed) {
      if (known.has(`${method} ${path}`)) continue;
      // Declared before the plugin: authenticated and limited, but its value skips the response phases.
      conventions.logger.warn(
        `The app's own route ${method} ${path} was declared before toFastifyPlugin(api) was registered: what it returns does not go through the response phases. Register the plugin first.`,
      );
      hostRoutes.push({ method, pattern: path });
    }
    conventions.useHostRoutes(hostRoutes);
  });
}

/**
 * The app's own routes from Fastify's route tree (`printRoutes()`): each line is one segment of
 * the path, indented four characters a level, with its methods when a route ends there; a path
 * is its ancestors' segments joined.
 */
export function listedRoutes(listing: string, skip: ReadonlySet<string>): LintRoute[] {
  const routes: LintRoute[] = [];
  const segments: string[] = [];
  for (const line of listing.split('\n')) {
    const node = /^([│ ]*)[├└]── (.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (node === null) continue;
    segments.length = node[1]!.length / 4;
    segments.push(node[2]!);
    const path = segments.join('');
    if (node[3] === undefined || skip.has(path)) continue;
    for (const method of node[3].split(', ')) {
      // Fastify's catch-all `*` is a named wildcard in the lint's path-to-regexp syntax.
      if (method !== 'HEAD') routes.push({ method, path: path.replace(/\*$/, '*rest') });
    }
  }
  return routes;
}

/** A Fastify path in the table's syntax: the trailing catch-all `*` becomes a named wildcard. */
function fastifyPattern(url: string): string {
  return url.replace(/\*$/, '*rest');
}

const headLengths = new WeakMap<object, string>();

// Fastify's default for an object payload; the core's serializer chooses the media type instead.
const fastifyJson = 'application/json; charset=utf-8';

/** A native handler's value through the response phases; Fastify then sends the bytes as they are. */
function shapeValue(conventions: Conventions): preSerializationHookHandler<unknown> {
  return (request, reply, payload, done) => {
    const ctx = contextOf(conventions, request);
    const headers = { ...reply.getHeaders() } as Record<string, HeaderValue>;
    if (headers['content-type'] === fastifyJson) delete headers['content-type'];
    const go = (response: ApiResponse) => {
      for (const name of Object.keys(reply.getHeaders())) reply.removeHeader(name);
      reply.code(response.status).headers(response.headers).serializer(asIs);
      const length = response.headers['content-length'];
      if (request.method === 'HEAD' && typeof length === 'string') headLengths.set(request, length);
      done(null, response.body ?? '');
    };
    const result = conventions.finish(ctx, reply.statusCode, payload, headers);
    if (result instanceof Promise) result.then(go, done);
    else go(result);
  };
}

const restoreLength: onSendHookHandler<unknown> = (request, reply, payload, done) => {
  const length = headLengths.get(request);
  if (length !== undefined) reply.header('content-length', length);
  done(null, payload);
};

const asIs = (payload: unknown) => payload as string;

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
    // The route view holds the route (its checks ran in onRequest), unless its pattern is one
    // the view cannot read (warned at start-up): then its own settings, checks included.
    const result = conventions.guard(
      ctx,
      ctx.route?.host === true ? undefined : own,
      request.params as Record<string, string>,
    );
    if (result instanceof Promise) result.then(go, done);
    else go(result);
  };
  route.preHandler = [...[route.preHandler ?? []].flat(), guard];
}
