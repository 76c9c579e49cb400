/**
 * The service of the telemetry suites, with no host: request ids, telemetry and the
 * routes every host serves. Web APIs only, so that Bun runs it too (test/runtimes).
 */
import type { MeterProvider } from '@opentelemetry/api';
import {
  type Conventions,
  caching,
  conventions,
  type Logger,
  noContent,
  type Plugin,
  type RouteTable,
  rateLimit,
  unauthorized,
} from 'api-conventions';
import { telemetry } from 'api-conventions/otel';

/** A host of the suites: node:http has no router of its own; the others serve the app's route. */
export type TelemetryHost =
  | 'node'
  | 'express'
  | 'express4'
  | 'fastify'
  | 'fetch'
  | 'koa'
  | 'nest'
  | 'nest-fastify'
  | 'bun';

/** A caller with this `X-Api-Key` is alice; `/v1/private` needs one, every other route is open. */
export const apiKey = 'key-of-alice';

/** A small identity plugin: an API key, required on `/v1/private` only. */
function apiKeys(): Plugin {
  const check = (ctx: Parameters<NonNullable<Plugin['authenticate']>>[0]) => {
    const key = ctx.headers.get('x-api-key');
    if (key === apiKey) ctx.identity = { subject: 'alice', scopes: new Set(), via: 'api-key' };
    else if (key !== undefined && key !== null) throw unauthorized('The API key is not known.');
  };
  return {
    name: 'api-keys',
    credentials: (ctx) => typeof ctx.headers.get('x-api-key') === 'string',
    allowsAnonymous: (route) => route.pattern !== '/v1/private',
    requireIdentity(ctx) {
      check(ctx);
      if (ctx.identity === undefined) throw unauthorized('Send X-Api-Key.');
    },
    authenticate(ctx) {
      check(ctx);
      if (ctx.identity === undefined && ctx.route?.pattern === '/v1/private') {
        throw unauthorized('Send X-Api-Key.');
      }
    },
  };
}

const table: RouteTable = {
  '/v1/books/:id': { GET: (ctx) => ({ id: ctx.param('id'), title: 'A book' }) },
  '/v1/private': { GET: () => ({ secret: true }) },
  '/v1/limited': {
    GET: {
      handler: () => ({ limited: true }),
      config: { rateLimit: [{ name: 'tight', limit: 1, window: 60 }] },
    },
  },
  '/v1/failures': {
    GET: () => {
      throw new Error('a route failed on purpose');
    },
  },
};

/** The service of one host: request ids, telemetry (spans to the global provider), the routes. */
export function telemetryApi(
  adapter: TelemetryHost,
  meterProvider: MeterProvider,
  logger: Logger,
): Conventions {
  const routes: RouteTable =
    adapter === 'node' ? { ...table, '/v1/things/:id': { DELETE: () => noContent() } } : table;
  return conventions({
    routes,
    logger,
    requestIds: true,
    plugins: [telemetry({ meterProvider }), apiKeys(), rateLimitOf(), caching()],
  });
}

/** The rate limit with no service-wide policy: only `/v1/limited` is limited. */
function rateLimitOf(): Plugin {
  return rateLimit({ policies: [] });
}
