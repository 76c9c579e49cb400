/**
 * The route settings every feature extends: `RouteConfig` holds the pipeline's own setting, and
 * each feature adds its settings beside its own code by declaration merging (its folder's
 * `route-config.ts`), so this file imports nothing and no feature is known here.
 */

/**
 * The methods of the spec's table (spec 4.2). OPTIONS and HEAD are answered for every route.
 *
 * @category Routing
 */
export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/**
 * Per-route settings, attached where the route is declared. Each feature declares the settings
 * it reads beside its own code and adds them here by declaration merging (body rules, scopes,
 * a cache policy, paging…); a plugin of your own does the same, and lists the keys in its
 * `routeConfig` so that a misspelt key is a start-up `TypeError`:
 *
 * @example
 * ```ts
 * import type { Plugin } from 'api-conventions';
 *
 * declare module 'api-conventions' {
 *   interface RouteConfig {
 *     audit?: boolean;
 *   }
 * }
 *
 * // The plugin that reads it lists it, so a misspelt key is a TypeError at start-up.
 * export const audit: Plugin = {
 *   name: 'audit',
 *   routeConfig: ['audit'],
 *   onSend(ctx, sent) {
 *     if (ctx.route?.config.audit) console.info(`${ctx.method} ${ctx.path} ${sent.status}`);
 *   },
 * };
 * ```
 *
 * @category Routing
 */
export interface RouteConfig {
  /** The largest body this route reads, in bytes. @default the `bodyLimit` of {@link ConventionsOptions} */
  bodyLimit?: number;
}

/**
 * What plugins see of a route: its method, pattern and settings.
 *
 * @category Routing
 */
export interface RouteSettings {
  /** The method, upper-case. */
  readonly method: string;
  /** The path pattern as declared. */
  readonly pattern: string;
  /** The route's settings. */
  readonly config: Readonly<RouteConfig>;
  /** `true` on one of the app's own routes: the host's router holds it and its handler answers (an Express, Fastify or Hono route). */
  readonly app?: true;
  /** On one of the app's own routes, the JSON Schemas its host declares (Fastify's `schema`). */
  readonly schemas?: AppRouteSchemas | undefined;
}

/**
 * What one of the app's own routes declares of itself in its host's terms (Fastify's route
 * `schema`): JSON Schemas of its parts, which the host checks and the OpenAPI document describes,
 * and the words `@fastify/swagger` reads.
 *
 * @category Routing
 */
export interface AppRouteSchemas {
  /** The request body's JSON Schema. */
  readonly body?: Readonly<Record<string, unknown>> | undefined;
  /** The query's JSON Schema: an object of the parameters. */
  readonly querystring?: Readonly<Record<string, unknown>> | undefined;
  /** The path parameters' JSON Schema: an object of them. */
  readonly params?: Readonly<Record<string, unknown>> | undefined;
  /** The request headers' JSON Schema: an object of them. */
  readonly headers?: Readonly<Record<string, unknown>> | undefined;
  /** The bodies the host's serializer writes, by status (`'200'`, `'2XX'`, `'default'`). */
  readonly response?: Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined;
  /** A short summary. */
  readonly summary?: string | undefined;
  /** A longer description. */
  readonly description?: string | undefined;
  /** Tags that group operations. */
  readonly tags?: readonly string[] | undefined;
  /** `true` when the route is no operation of the API (a plugin's documentation page). */
  readonly hide?: boolean | undefined;
}

/**
 * One of the app's own routes (declared on its Express, Fastify or Hono router, not in the route
 * table), as a host binding hands it to the core: plain data, compiled once into the route view
 * beside the table.
 *
 * @category Routing
 */
export interface AppRoute {
  /** The method, upper-case. */
  readonly method: string;
  /** The path pattern, in the table's syntax (path-to-regexp: `/v1/things/:id`). */
  readonly pattern: string;
  /** Its settings (`auth`, `scopes`, `body`, …), as the route's guard declared them. @default {} */
  readonly config?: RouteConfig | undefined;
  /** The JSON Schemas the host declares for it (Fastify's route `schema`). @default none */
  readonly schemas?: AppRouteSchemas | undefined;
}
