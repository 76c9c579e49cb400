/**
 * The app's own Fastify routes: read from `onRoute` (every route declared after the plugin, its
 * final options once the app is ready), checked on the route Fastify dispatched, their values
 * sent through the response phases.
 */
import type { HeaderValue, RouteConfig, RouteInfo, RouteSettings } from 'api-conventions';
import {
  type ApiResponse,
  type AppRoute,
  type Guarded,
  type HostMatch,
  routeSchemasOf,
  settle,
} from 'api-conventions/host';
import type { LintRoute } from 'api-conventions/lint';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  onSendHookHandler,
  preSerializationHookHandler,
  RouteOptions,
} from 'fastify';
import { type FastifyHost, send } from './_fastify-io.ts';

/** Where a table route registered by the plugin carries its route, in its Fastify config. */
export const tableRoute = Symbol.for('api-conventions.table-route');
/** Where the plugin's own not-found handler says so, in its Fastify config. */
export const ownNotFound = Symbol.for('api-conventions.not-found');
// Where each of the app's routes carries the key of its compiled settings, in its Fastify config:
// Fastify copies a route's config into the context of that very route, so twins that differ by
// their constraints alone (version, host) each keep their own.
const settingsKey = Symbol('api-conventions.route-settings');

type RouteConfigBag = Record<string | symbol, unknown> & {
  url?: string;
  method?: string | string[];
  conventions?: RouteConfig;
};

/** Fastify's path syntax in the table's: the trailing catch-all `*` is a named wildcard. */
const patternOf = (url: string) => url.replace(/\*$/, '*rest');

// The plugins the core knows as companions, by the names they register under.
const companions = ['@fastify/rate-limit', '@fastify/helmet', '@fastify/compress'] as const;

const none: HostMatch = { routes: [] };
// The app's own not-found handler (a prefix's, set in a plugin of its own) is the app's code.
const appNotFound: HostMatch = { routes: [], others: true };

type PreHandler = (
  request: FastifyRequest,
  reply: FastifyReply,
  done: (error?: Error) => void,
) => void;

/**
 * Watches the app's routes: settings checked when the app is ready (a misspelt key is a
 * `TypeError` then), the patterns linted (warnings), the routes handed to the route view; and
 * gives the binding's `match`, read from the route Fastify dispatched.
 */
export function watchAppRoutes(
  fastify: FastifyInstance,
  host: FastifyHost,
): (request: FastifyRequest) => HostMatch {
  const declared: RouteOptions[] = [];
  const shape = shapeValue(host);
  // @fastify/cors answers preflights in its own hook; its `OPTIONS *` route only lets Fastify
  // take them, and answers nothing else.
  let corsRoute = false;

  fastify.addHook('onRoute', (route) => {
    if ((route.config as RouteConfigBag | undefined)?.[tableRoute] !== undefined) return;
    declared.push(route);
    route.config = { ...route.config, [settingsKey]: {} } as RouteOptions['config'];
    const config = route.config?.conventions;
    if (config?.bodyLimit !== undefined) route.bodyLimit ??= config.bodyLimit;
    route.preHandler = [...[route.preHandler ?? []].flat(), guard] as RouteOptions['preHandler'];
    // A route with a response schema keeps Fastify's serializer: the schema decides its fields.
    if (route.schema?.response === undefined) {
      route.preSerialization = [...[route.preSerialization ?? []].flat(), shape];
    }
    // After Fastify's own HEAD handler, which counts the empty payload: GET's length is the answer.
    if ([route.method].flat().includes('HEAD')) {
      route.onSend = [...[route.onSend ?? []].flat(), restoreLength];
    }
  });

  fastify.addHook('onReady', async function ready(this: FastifyInstance) {
    corsRoute = this.hasPlugin('@fastify/cors');
    if (corsRoute && host.api.plugins.includes('cors')) {
      throw new TypeError(
        "@fastify/cors and the conventions' cors() plugin both answer CORS requests: keep one. The conventions' cors() answers each preflight with the methods of its path; to keep @fastify/cors, remove cors() from the plugins.",
      );
    }
    for (const name of companions) if (this.hasPlugin(name)) host.companion(name);
    const lint: LintRoute[] = [];
    const view: AppRoute[] = [];
    // Schemas shared by `$id` (fastify.addSchema), which a route's schema may refer to.
    const shared = this.getSchemas() as Record<string, unknown>;
    for (const route of declared) {
      // The settings as the route ends up with them, after every plugin's onRoute hook.
      const config = (route.config as RouteConfigBag | undefined)?.conventions;
      const pattern = patternOf(route.url);
      const schemas = routeSchemasOf(route.schema, shared);
      const key = (route.config as RouteConfigBag)[settingsKey] as object;
      for (const method of [route.method].flat()) {
        host.settingsFor(key, method, pattern, () => config);
        if (method !== 'HEAD') lint.push({ method, path: pattern });
        view.push({ method, pattern, config, schemas });
      }
    }
    host.lint(lint);
    host.useAppRoutes(view);
  });

  const warned = new Set<string>();
  const settingsOf = (request: FastifyRequest, config: RouteConfigBag): RouteSettings => {
    const method = typeof config.method === 'string' ? config.method : request.method;
    const url = config.url!;
    // Declared before the plugin, it has no key of its own: its checks still run, on its settings.
    const key = (config[settingsKey] as object | undefined) ?? config;
    return host.settingsFor(key, method, patternOf(url), () => {
      if (key === config && !warned.has(url)) {
        warned.add(url);
        host.lint([{ method, path: patternOf(url) }]);
        host.logger.warn(
          `The app's own route ${method} ${url} was declared before toFastifyPlugin(api) was registered: the plugin finds it only at its first request (now). It is checked, but what it returns does not go through the response phases. Register the plugin first.`,
        );
      }
      return config.conventions;
    });
  };

  const guard: PreHandler = (request, reply, done) => {
    const config = request.routeOptions.config as RouteConfigBag;
    if (config.conventions === undefined) return done();
    const ctx = host.context(request);
    host.inputOf(request).parsedBody = { value: request.body };
    const go = (guarded: Guarded) => {
      if (guarded.response !== undefined) return send(reply, guarded.response);
      if (ctx.hasResponseHeaders) reply.headers(ctx.responseHeaders.record);
      request.body = guarded.body;
      done();
    };
    const params = request.params as Record<string, string>;
    settle(host.guard(request, settingsOf(request, config), params), go, done);
  };

  return (request) => {
    const config = request.routeOptions.config as RouteConfigBag | undefined;
    // Fastify found no route: the router's answers, or the app's own not-found handler.
    if (config?.url === undefined) return config?.[ownNotFound] === true ? none : appNotFound;
    const params = request.params as Record<string, string>;
    const table = config[tableRoute] as RouteInfo | undefined;
    if (table !== undefined) return { routes: [table], params };
    if (corsRoute && config.url === '*' && config.method === 'OPTIONS') return none;
    return { routes: [settingsOf(request, config)], params };
  };
}

const headLengths = new WeakMap<object, string>();

// Fastify's default for an object payload; the core's serializer chooses the media type instead.
const fastifyJson = 'application/json; charset=utf-8';

/** An app handler's value through the response phases; Fastify then sends the bytes as they are. */
function shapeValue(host: FastifyHost): preSerializationHookHandler<unknown> {
  return (request, reply, payload, done) => {
    const headers = { ...reply.getHeaders() } as Record<string, HeaderValue>;
    if (headers['content-type'] === fastifyJson) delete headers['content-type'];
    const go = (response: ApiResponse) => {
      for (const name of Object.keys(reply.getHeaders())) reply.removeHeader(name);
      reply.code(response.status).headers(response.headers).serializer(asIs);
      const length = response.headers['content-length'];
      if (request.method === 'HEAD' && typeof length === 'string') headLengths.set(request, length);
      done(null, response.body ?? '');
    };
    settle(host.finish(request, reply.statusCode, payload, headers), go, done);
  };
}

const restoreLength: onSendHookHandler<unknown> = (request, reply, payload, done) => {
  const length = headLengths.get(request);
  if (length !== undefined) reply.header('content-length', length);
  done(null, payload);
};

const asIs = (payload: unknown) => payload as string;
