/** The seams features plug into, named by the phase they run in and what they may touch. */
import type { Logger } from '../errors/logger.ts';
import type { HeaderValue } from '../http/headers.ts';
import type { Reply } from '../http/reply.ts';
import type { ApiResponse, OutgoingResponse, SentResponse } from '../http/response.ts';
import type { RequestContext } from './context.ts';
import type { LogFields } from './request-logger.ts';
import type { RouteInfo, RouteTable } from './route-table.ts';
import type { RouteConfig, RouteSettings } from './route-types.ts';
import type { Step } from './steps.ts';

/**
 * What a check may return: nothing to go on (a hook with no `return` is fine), or a reply that
 * answers the request at once.
 *
 * @category Writing plugins
 */
// biome-ignore lint/suspicious/noConfusingVoidType: a hook that returns nothing returns void
export type CheckResult = undefined | void | Reply;

/**
 * Turns a response value into bytes for one media type. It may throw: the request then gets the
 * error response, serialized as JSON.
 *
 * @category Writing plugins
 */
export type Serializer = (value: unknown, ctx: RequestContext) => string | Uint8Array;

/**
 * What `Conventions.guard` gives a host whose own handler answers: `{ response }`, the error or a
 * check's early reply ready to send, when the request stops (do not run the handler); or
 * `{ response: undefined, body }`, the body parsed and checked against the route's `body` rules,
 * when the request goes on to the host's handler.
 *
 * @category Plugins and pipeline
 */
export type Guarded =
  | {
      /** The error, or a check's early reply, ready to send. */
      response: ApiResponse;
    }
  | {
      /** Always `undefined`: nothing to send yet. */
      response: undefined;
      /** The body, parsed and checked against the route's `body` rules. */
      body: unknown;
    };

/**
 * What a service gives each of its plugins when it is built, through {@link Plugin.setup}.
 *
 * @category Writing plugins
 */
export interface PluginSetup {
  /**
   * The service's `logger` (the option of `conventions()`, console by default), checked and
   * guarded: every line a plugin logs goes here, unless the plugin has a `logger` of its own.
   */
  readonly logger: Required<Logger>;
  /**
   * The service's `checkTimeout`: how long, in milliseconds, a check the plugin runs for a route
   * (an `authorize`, a `resourceVersion`) may take to settle before the request is answered 503.
   */
  readonly checkTimeout: number;
  /** What the host found after the conventions, filled in as the host finds it. */
  readonly downstream: Downstream;
}

/**
 * What runs after the conventions on the host (a companion package the host found), which a
 * plugin may adapt to. It can change after set-up: a host finds some companions at its first
 * request.
 *
 * @category Writing plugins
 */
export interface Downstream {
  /**
   * Whether a companion may encode the responses after the conventions sent them (`compression`,
   * `@fastify/compress`, `hono/compress`): a strong entity tag then differs by the codings the
   * request accepts (RFC 9110 §8.8.3).
   */
  readonly encodes: boolean;
}

/**
 * What a service knows of itself once built, handed to {@link Plugin.onReady}: what
 * {@link openapi} reads of an API. A `Conventions` has it.
 *
 * @category Routing
 */
export interface DescribedApi {
  /** Every declared route, as `Conventions.routes` lists them. */
  readonly routes: readonly RouteInfo[];
  /**
   * The installed plugins' names (`Conventions.plugins`): which headers and security schemes
   * the document describes. @default every one described
   */
  readonly plugins?: readonly string[];
  /**
   * The app's own routes a host handed over (`Conventions.appRoutes`: Express, Fastify and
   * Hono routes beside the table), documented as table routes are. @default none
   */
  readonly appRoutes?: readonly RouteInfo[];
  /**
   * The media types a route answers in (`Conventions.mediaTypesOf`): what content negotiation
   * offers there. @default the route's `formats` (JSON, XML), JSON without
   */
  mediaTypesOf?(route: RouteInfo): readonly string[];
}

/**
 * A feature that takes part in every request: a unique `name` and the members it needs, grouped
 * by what a plugin does — what it adds to the service ({@link PluginContributions}), what it
 * learns at start-up ({@link StartupHooks}), who the caller is ({@link IdentityHooks}), checks
 * that may refuse a request ({@link RequestChecks}), the response phases ({@link ResponseHooks})
 * and observation ({@link ObservationHooks}). Hooks are named after the phase they run in (the
 * table in [Extending](../../../docs/extending.md) sets them beside Fastify's and Hono's). Each
 * may be async, may throw an {@link ApiError} to stop the request with that error, and a check
 * may return a {@link Reply} to answer early. A hook that returns no promise costs no
 * asynchronous hop.
 *
 * @example
 * ```ts
 * import { conventions, type Plugin } from 'api-conventions';
 *
 * const poweredBy: Plugin = { name: 'powered-by', headers: { 'x-powered-by': 'bookshelf' } };
 * const api = conventions({ plugins: [poweredBy] });
 * ```
 *
 * @category Writing plugins
 */
export interface Plugin
  extends PluginContributions,
    StartupHooks,
    IdentityHooks,
    RequestChecks,
    ResponseHooks,
    ObservationHooks {
  /** A unique name, for error messages and `dependencies`. */
  readonly name: string;
  /** Plugins that must be present and that run before this one; a missing one is a `TypeError`. */
  readonly dependencies?: readonly string[];
}

/**
 * What a plugin adds to the service, read once when the service is built: its route settings,
 * routes, serializers and always-on headers.
 *
 * @category Writing plugins
 */
export interface PluginContributions {
  /**
   * The keys of {@link RouteConfig} this plugin reads, so that a misspelt route setting is a
   * `TypeError` at start-up rather than a setting silently ignored.
   */
  readonly routeConfig?: readonly (keyof RouteConfig & string)[] | readonly string[];
  /** Routes this plugin serves (a token endpoint, a status resource), beside the service's own. */
  readonly routes?: RouteTable;
  /** Serializers by media type (`application/xml`); JSON is built in. */
  readonly serializers?: Readonly<Record<string, Serializer>>;
  /**
   * Headers on every response, errors and the app's own routes included, checked once at start-up; a
   * header a response already has is left as it is.
   */
  readonly headers?: Readonly<Record<string, HeaderValue>>;
}

/**
 * What a plugin learns of the service as it is built, and what it says of each route: compile
 * settings here, never per request.
 *
 * @category Writing plugins
 */
export interface StartupHooks {
  /**
   * Called once when a service is built with this plugin, before any `onRoute`: what the service
   * gives its plugins, such as the `logger` every line a plugin logs goes to.
   */
  setup?(setup: PluginSetup): void;
  /** Called once per route at start-up (contributed and guarded routes too): compile settings here. */
  onRoute?(route: RouteInfo): void;
  /**
   * Called once the service is built, with what it knows of itself: its routes (and, later,
   * the host's own), its plugins' names and the media types of each route. For plugins that
   * describe the service (an OpenAPI document).
   */
  onReady?(api: DescribedApi): void;
  /**
   * The media types `route` answers in (its successes and its errors), for the OpenAPI
   * document: a content-negotiation plugin says, after `onRoute`. @default JSON only
   */
  mediaTypes?(route: RouteInfo): readonly string[];
}

/**
 * The hooks of an identity plugin (bearer tokens, API keys, mTLS): it verifies the caller, sets
 * `ctx.identity` and refuses what the route does not allow (401, 403).
 *
 * @category Writing plugins
 */
export interface IdentityHooks {
  /**
   * Authentication: a route matched (the table's or the host's own), after pre-routing and before
   * `preParsing`. Identity plugins (bearer tokens, API keys, mTLS) verify the caller here, set
   * `ctx.identity`, and refuse what the route does not allow (401, 403); every later phase reads
   * the verified identity, so no ordering by name is needed.
   */
  authenticate?(ctx: RequestContext): Step<CheckResult>;
  /**
   * Tells, cheaply and spending no crypto, whether the request presents credentials this plugin
   * still has to verify (an `Authorization: Bearer` header, say). It may set `ctx.identity` for
   * credentials it verified before (a cache). Read through `ctx.hasCredentials`, by the rate
   * limiter among others.
   */
  credentials?(ctx: RequestContext): boolean;
  /**
   * Whether `route` lets a caller without credentials through (`auth: false`, or credentials
   * optional there). On a host with its own router, a request passes anonymously only when every
   * route that could serve it does; an identity plugin without this hook is taken to require
   * credentials everywhere.
   */
  allowsAnonymous?(route: RouteSettings): boolean;
  /**
   * Verify the credentials the request presents and refuse a request without accepted ones (401
   * with the plugin's challenge), checking nothing route-specific (no scopes). Called where the
   * host may run a route other than the one checked (several of the app's routes, or middleware
   * the library cannot see, could serve the request) and one of them needs credentials. Without
   * it, the plugin's `authenticate` runs with such a route.
   */
  requireIdentity?(ctx: RequestContext): Step<CheckResult>;
}

/**
 * Checks that may refuse a request, or answer it early, before the handler runs: pre-routing,
 * then limits and access checks, then the last check once the body is read.
 *
 * @category Writing plugins
 */
export interface RequestChecks {
  /**
   * Pre-routing: every request, matched or not (404, 405, OPTIONS, upper-case paths), before any
   * answer of the router. `ctx.route` is the matched route or `undefined`; `ctx.allowed` the
   * methods of the path. May answer early (a CORS preflight, HTTPS refused, a scan limited).
   */
  onRequest?(ctx: RequestContext): Step<CheckResult>;
  /**
   * Whether this plugin's `onRequest` runs on every request the service answers: also after an
   * earlier plugin's `onRequest` answered early (a CORS preflight, a refused cross-site request),
   * and for requests a host answers before the pipeline can read them (an HTTP parser error, a
   * `Host` it cannot read), on a context that holds only the client's address (no method or
   * headers, path `/`). What it returns then is ignored; an error it throws (a 429) is answered
   * instead. A rate limit sets it, so that every answer counts. @default false
   */
  readonly seesEveryRequest?: boolean;
  /** After authentication, before the body is read: limits and access checks. */
  preParsing?(ctx: RequestContext): Step<CheckResult>;
  /** After the body is parsed and checked, just before the handler (e.g. CSRF in a form). */
  preHandler?(ctx: RequestContext): Step<CheckResult>;
}

/**
 * The response phases, on every response, errors included: the value before it is serialized,
 * then the bytes.
 *
 * @category Writing plugins
 */
export interface ResponseHooks {
  /**
   * The transform phase: reshape the value (fields, views, links, envelopes), choose its media
   * type, add headers. Never sees bytes.
   */
  preSerialization?(ctx: RequestContext, response: OutgoingResponse): Step<void>;
  /**
   * The send phase: the bytes and the final status (an ETag, a 304, caching headers). Never
   * re-serializes. HEAD drops the body after this phase.
   */
  onSend?(ctx: RequestContext, response: SentResponse): Step<void>;
}

/**
 * Observation, for telemetry and request ids: hooks that see every request from its arrival to
 * its final status and cannot answer it.
 *
 * @category Writing plugins
 */
export interface ObservationHooks {
  /**
   * Called once for every request the service opens a context for, as it is received, before
   * any other hook (pre-routing included) and whatever answers it, on every host: the start of a
   * span, a request id. `ctx.route` is the route view's match; on a host with a router of its own
   * the route that serves the request may still change. Synchronous: it cannot answer, and what
   * it throws is logged, never answered.
   */
  onReceive?(ctx: RequestContext): void;
  /**
   * Called once for every request `onReceive` saw, with its final status, once the response is
   * done: the core's answers and, on a host with a router of its own, the app's own handlers'
   * answers too (the host reports them: Express when the response closes, Fastify in its
   * `onResponse`, Hono once the middleware has the response). `ctx.route` is the route that
   * served the request, `undefined` when none did. Synchronous; what it throws is logged.
   */
  onResponse?(ctx: RequestContext, status: number): void;
  /**
   * Fields every line the request logs carries through `ctx.logger` (a request id, a trace id),
   * asked only when the request first logs.
   */
  logFields?(ctx: RequestContext): LogFields | undefined;
}
