/**
 * The app's own Fastify routes: read from `onRoute` (every route declared after the plugin, its
 * final options once the app is ready), checked on the route Fastify dispatched, their values
 * sent through the response phases.
 */
import type { HeaderValue, RouteConfig, RouteInfo, RouteSettings } from 'api-conventions';
import type {
  FastifyInstance,
  FastifyRequest,
  onSendHookHandler,
  preHandlerHookHandler,
  preSerializationHookHandler,
  RouteOptions,
} from 'fastify';
import {
  type ApiResponse,
  appHeaders,
  dispatchedSettings,
  type Guarded,
  type HostMatch,
  settle,
  useDeclaredRoutes,
} from '#core';
import { asIs, type FastifyHost, writeReply } from './_fastify-server.ts';

/** Where a table route registered by the plugin carries its route, in its Fastify config. */
export const tableRoute = Symbol.for('api-conventions.table-route');
/** Where the plugin's own not-found handler says so, in its Fastify config. */
export const ownNotFound = Symbol.for('api-conventions.not-found');
// Where each of the app's routes carries the key of its compiled settings, in its Fastify config:
// Fastify copies a route's config into the context of that very route, so twins that differ by
// their constraints alone (version, host) each keep their own.
const settingsKey = Symbol('api-conventions.route-settings');

/** A route's Fastify config, as the plugin reads it. */
export type RouteConfigBag = Record<string | symbol, unknown> & {
  url?: string;
  method?: string | string[];
  conventions?: RouteConfig;
};

const none: HostMatch = { routes: [] };
// The app's own not-found handler (a prefix's, set in a plugin of its own) is the app's code.
const appNotFound: HostMatch = { routes: [], others: true };

/**
 * Watches the app's routes: handed to the binding when the app is ready (settings checked, a
 * misspelt key a `TypeError` then; patterns linted; the route view), each given the guard and
 * the response phases; and gives the binding's `match`, read from the route Fastify dispatched.
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
    route.bodyLimit ??= route.config?.conventions?.bodyLimit;
    route.preHandler = [...[route.preHandler ?? []].flat(), guard];
    // A route with a response schema keeps Fastify's serializer: the schema decides its fields.
    if (route.schema?.response === undefined) {
      route.preSerialization = [...[route.preSerialization ?? []].flat(), shape];
    }
    if ([route.method].flat().includes('HEAD')) {
      route.onSend = [...[route.onSend ?? []].flat(), restoreLength];
    }
  });

  fastify.addHook('onReady', async function ready(this: FastifyInstance) {
    corsRoute = host.findCompanions((name) => this.hasPlugin(name)).has('@fastify/cors');
    // The settings as each route ends up with them, after every plugin's onRoute hook.
    const routes = declared.map(({ config, method, url, schema }) => {
      const { [settingsKey]: key, conventions } = config as RouteConfigBag;
      return { key: key as object, method, url, config: conventions, schema };
    });
    useDeclaredRoutes(host, routes, this.getSchemas());
  });

  const settingsOf = (request: FastifyRequest, config: RouteConfigBag): RouteSettings => {
    // Declared before the plugin, it has no key of its own: its checks still run, on its settings.
    const key = (config[settingsKey] as object | undefined) ?? config;
    const method = typeof config.method === 'string' ? config.method : request.method;
    const route = { key, method, url: config.url!, config: config.conventions };
    return dispatchedSettings(host, route, 'toFastifyPlugin(api)');
  };

  // After Fastify's own HEAD handler, which counts the empty payload: GET's length is the answer.
  const restoreLength: onSendHookHandler<unknown> = (request, reply, payload, done) => {
    const length = host.headLength(request);
    if (length !== undefined) reply.header('content-length', length);
    done(null, payload);
  };

  const guard: preHandlerHookHandler = (request, reply, done) => {
    const config = request.routeOptions.config as RouteConfigBag;
    if (config.conventions === undefined) return done();
    host.inputOf(request).parsedBody = { value: request.body };
    const go = (guarded: Guarded) => {
      if (guarded.response !== undefined) return writeReply(reply, guarded.response);
      reply.headers(appHeaders(host, request));
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
      done(null, response.body ?? '');
    };
    settle(host.finish(request, reply.statusCode, payload, headers), go, done);
  };
}
