/** Route declarations: a table of path patterns, methods, handlers and per-route settings. */
import type { CachePolicy } from '../caching/cache-control.ts';
import type { EtagMode, VersionReader } from '../caching/caching-plugin.ts';
import type { BodyFormat } from '../http/parse-body.ts';
import type { ContentCoding } from '../limits/body-coding.ts';
import type { Format } from '../negotiation/media-types.ts';
import type { ListOptions } from '../paging/list-options.ts';
import type { RequestContext } from '../pipeline/context.ts';
import type { SecurityRouteConfig } from '../security/route-config.ts';
import type { Resource } from '../shaping/resource.ts';
import type { FieldSchema } from '../validation/check-fields.ts';
import type { Deprecation } from '../versioning/deprecation.ts';

/**
 * The methods of the spec's table (spec 4.2). OPTIONS and HEAD are answered for every route.
 *
 * @category Routing
 */
export type Method = 'GET' | 'HEAD' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'OPTIONS';

/**
 * Per-route settings, attached where the route is declared. Features add their own fields by
 * declaration merging, so a route can carry scopes, limits or a cache policy:
 *
 * @example
 * ```ts
 * declare module 'api-conventions' {
 *   interface RouteConfig { audit?: boolean }
 * }
 * ```
 *
 * @category Routing
 */
export interface RouteConfig extends SecurityRouteConfig {
  /** The body formats this route reads; anything else is 415. @default ['json'] */
  accepts?: readonly BodyFormat[];
  /** The largest body this route reads, in bytes. @default the `bodyLimit` of {@link ConventionsOptions} */
  bodyLimit?: number;
  /**
   * The content codings this route decodes (`gzip`, `br`, `deflate`), with `bodyLimit` applied to
   * the decoded size; a body in any other `Content-Encoding` is 415 with `Accept-Encoding`.
   * Decoding is the host's (`RequestInput.decodeBody`): the Node adapters use node:zlib, the
   * fetch adapter `DecompressionStream` or its `decodeBody` option. @default [] (none)
   */
  encodings?: readonly ContentCoding[];
  /**
   * Fields the body must have; every problem is reported at once as a 400. On PATCH every field
   * is optional. @default no check
   */
  body?: FieldSchema;
  /** Whether unknown body fields are a 400 when `body` is set. @default true */
  rejectUnknownFields?: boolean;
  /**
   * Whether the route needs a bearer token, with the `bearer` plugin: `'required'` (none → 401),
   * `'optional'` (a token sent is still checked) or `false` (never read: a token endpoint, a
   * health check). @default the plugin's `auth` option, `'required'`
   */
  auth?: 'required' | 'optional' | false;
  /**
   * Scopes the bearer token must hold, every one of them (403 `insufficient_scope` otherwise);
   * read by the `bearer` plugin. @default none
   */
  scopes?: readonly string[];
  /**
   * Whether the bearer token must have been issued to a user, not to a client alone (403
   * otherwise); read by the `bearer` plugin. @default false
   */
  user?: boolean;
  /**
   * The response formats this route offers, the first being the default (read by the
   * `negotiation` plugin). @default the plugin's `formats`
   */
  formats?: readonly Format[];
  /** The format this route answers in whatever `Accept` says: set by `withFormatSuffixes`. */
  formatSuffix?: Format;
  /** Whether `withFormatSuffixes` adds `.json`/`.xml` twins of this GET route. @default false */
  suffixes?: boolean;
  /** The Cache-Control of this route's successful responses (read by the `caching` plugin). @default the plugin's */
  cacheControl?: CachePolicy;
  /** How this route's entity tags are built (read by the `caching` plugin). @default the plugin's `etag` */
  etag?: EtagMode;
  /**
   * The current version of the route's resource, read before the handler: a GET answers 304
   * without running its handler, and a PUT, PATCH or DELETE of the same path checks `If-Match`
   * before anything changes (read by the `caching` plugin). @default none: tags hash the sent bytes
   */
  resourceVersion?: VersionReader;
  /** Whether a write must be conditional, else 428 (read by the `caching` plugin). @default the plugin's */
  requireIfMatch?: boolean;
  /**
   * This endpoint's deprecation: announcement, sunset (at least 6 months later), successor and
   * documentation (spec 9.8). Read by the {@link versioning} plugin, which must be present.
   * @default not deprecated
   */
  deprecation?: Deprecation | undefined;
  /**
   * The route answers a list: its paging styles, sizes, filters, `q` and `sort`, read and
   * checked before the handler (spec 4.4). Read by the `payloads()` plugin. @default not a list
   */
  list?: ListOptions;
  /**
   * The shape of the resource the route answers with (each item of a list): `fields`, `view`
   * and `links` applied in the transform phase (spec 2.10, 2.12). Made by `defineResource()`,
   * read by the `payloads()` plugin. @default the handler's value as it is
   */
  resource?: Resource;
}

/**
 * A request handler: takes the request context, returns the data (sent as 200 JSON) or a
 * {@link Reply}, or throws an {@link ApiError}. It may be async.
 *
 * @category Routing
 */
export type Handler = (ctx: RequestContext) => unknown;

/**
 * A handler with its per-route settings.
 *
 * @category Routing
 */
export interface RouteDefinition {
  /** The handler. */
  handler: Handler;
  /** Per-route settings. */
  config?: RouteConfig;
}

/**
 * The methods of one path pattern, each a handler or a handler with settings.
 *
 * @category Routing
 */
export type PathMethods = Partial<
  Record<Exclude<Method, 'HEAD' | 'OPTIONS'>, Handler | RouteDefinition>
> &
  Partial<Record<'HEAD' | 'OPTIONS', Handler | RouteDefinition>>;

/**
 * The route table: path patterns (path-to-regexp syntax, `/v1/books/:id`) mapped to their methods.
 *
 * @category Routing
 */
export type RouteTable = Readonly<Record<string, PathMethods>>;

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
  /** `true` on a route the host holds and answers itself (an Express, Fastify or Hono route). */
  readonly host?: true;
}

/**
 * One declared route as the library sees it after start-up: pattern, method, settings, handler.
 *
 * @category Routing
 */
export interface RouteInfo extends RouteSettings {
  /** The route's handler; on a host's own route, one that is never called (the host answers). */
  readonly handler: Handler;
}

/**
 * One of the host's own routes, as an adapter hands it to `Conventions.useHostRoutes`: plain
 * data, compiled once into the route view beside the table.
 *
 * @category Routing
 */
export interface HostRoute {
  /** The method, upper-case. */
  readonly method: string;
  /** The path pattern, in the table's syntax (path-to-regexp: `/v1/things/:id`). */
  readonly pattern: string;
  /** Its settings (`auth`, `scopes`, `body`, …), as the host's guard declared them. @default {} */
  readonly config?: RouteConfig | undefined;
}

/**
 * Declares a route table with its types checked; returns it unchanged.
 *
 * @example
 * ```ts
 * const routes = defineRoutes({
 *   '/v1/books': { GET: listBooks, POST: { handler: createBook, config: { body: bookFields } } },
 *   '/v1/books/:id': { GET: getBook, DELETE: deleteBook },
 * });
 * ```
 *
 * @category Start here
 */
export function defineRoutes<T extends RouteTable>(table: T): T {
  return table;
}
