/** `conventions(options)`: compiles everything once; its methods are the seams adapters use. */

import type { Logger } from '../errors/to-response.ts';
import { HeaderBag, type HeaderInit, type ResponseHeaders } from '../http/headers.ts';
import type { ApiResponse } from '../http/response.ts';
import {
  checkRequestHead,
  type HostAnswer,
  type HostFailure,
  hostFailure,
  toHostAnswer,
} from '../limits/index.ts';
import { formatFindings, type LintFinding, type LintRoute, lintRoutes } from '../lint/index.ts';
import { checkRouteConfig } from '../routing/check-config.ts';
import { compileView } from '../routing/route-view.ts';
import type { Router } from '../routing/router.ts';
import type { RouteInfo, RouteTable } from '../routing/table.ts';
import type { HostRoute, RouteConfig, RouteSettings } from '../routing/types.ts';
import type { TypedRoutes } from '../validation/typed-route.ts';
import { startHeaders } from './answers.ts';
import { openContext, type RequestContext, type RequestInput, routable } from './context.ts';
import { begin, front, guardRoute, rest, run } from './dispatch.ts';
import {
  type ConventionsOptions,
  type ResolvedConventionsOptions,
  resolveConventionsOptions,
} from './options.ts';
import type { Guarded } from './plugin.ts';
import { countedHostAnswer, raiseUnrouted } from './pre-routing.ts';
import { bareArray, compileRoute } from './request.ts';
import { andThen, type Step } from './steps.ts';

const brand = Symbol.for('api-conventions.Conventions');
const jsonOnly: readonly string[] = Object.freeze(['application/json']);

/**
 * Everything an adapter needs, compiled once from {@link ConventionsOptions}. `handle` answers a
 * request end to end; hosts that route by themselves (Express, Fastify, Hono) hand their routes
 * over with `useHostRoutes` and use the host seams around their own router: `open` (the context,
 * matched), `begin` (before the router), `guard` (before a host handler), `serve` (behind the
 * router), `finish` (a host handler's value) and `fail` (an error).
 *
 * @category Start here
 */
export class Conventions {
  /** Marks a `Conventions`, for {@link isConventions} across copies of the package. */
  readonly [brand] = true;
  private readonly settings: ResolvedConventionsOptions;
  // The route view: the table, and the host's routes once the host hands them in.
  private view: Router;
  private readonly warned = new Set<string>();
  private readonly seen = new WeakSet<RouteInfo>();
  // Host answers are the same bytes every time: built once per kind, on first use.
  private readonly hostAnswers = new Map<HostFailure, HostAnswer>();

  constructor(options: ConventionsOptions = {}) {
    this.settings = resolveConventionsOptions(options);
    this.view = this.settings.router;
    for (const route of this.router.routes) compileRoute(route);
    this.lint(
      this.router.routes.map((r) =>
        r.config.deprecation === undefined
          ? { method: r.method, path: r.pattern }
          : { method: r.method, path: r.pattern, deprecated: r.config.deprecation },
      ),
    );
    for (const hook of this.settings.onReady) hook(this);
  }

  /** The compiled route table, contributed routes included. */
  get router(): Router {
    return this.settings.router;
  }

  /** The logger faults are reported to, guarded so that it never throws. */
  get logger(): Required<Logger> {
    return this.settings.logger;
  }

  /** The default body limit in bytes. */
  get bodyLimit(): number {
    return this.settings.bodyLimit;
  }

  /** The names of the installed plugins, in the order they run (`'bearer'`, `'rate-limit'`…). */
  get plugins(): readonly string[] {
    return this.settings.pluginNames;
  }

  /**
   * The media types `route` answers in, successes and errors alike: what the content
   * negotiation plugin offers there (its vendor tree's own type included), JSON without one.
   */
  mediaTypesOf(route: RouteInfo): readonly string[] {
    return this.settings.mediaTypes?.(route) ?? jsonOnly;
  }

  /**
   * The app's own routes a host handed over (Express, Fastify and Hono routes beside the table),
   * with the settings it knows of them; empty until the host did (on its first request, or when
   * Fastify is ready).
   */
  get hostRoutes(): readonly RouteInfo[] {
    return this.view.routes.filter((r) => r.host === true);
  }

  /** Every declared route (HEAD included where GET is), in declaration order. */
  get routes(): readonly RouteInfo[] {
    return this.router.routes;
  }

  /** Headers every response carries, checked at start-up: hosts put them on native responses too. */
  get alwaysOnHeaders(): Readonly<ResponseHeaders> {
    return this.settings.response.alwaysOn;
  }

  /**
   * Lints route patterns against the path rules (spec 4.1) as the `lint` option says: warns,
   * throws a `TypeError`, or does nothing. Findings that make a route unreachable throw unless the
   * lint is off. Runs on the route table at creation; hosts with their own router call it with
   * their routes. Returns the findings.
   */
  lint(routes: readonly LintRoute[]): LintFinding[] {
    const { lint, lintOptions } = this.settings;
    if (lint === 'off' || routes.length === 0) return [];
    const findings = lintRoutes(routes, lintOptions);
    if (findings.length === 0) return findings;
    const text = formatFindings(findings);
    if (lint === 'throw' || findings.some((f) => f.severity === 'error')) {
      throw new TypeError(`The routes break the path rules:\n${text}`);
    }
    this.logger.warn(`route lint:\n${text}`);
    return findings;
  }

  /**
   * Answers one request end to end: the route view's match, pre-routing hooks, path rules, the
   * route's checks (authentication, `preParsing`), body, handler, or the router's answers (404,
   * 405, OPTIONS), then the response phases. Never throws: every failure becomes its error
   * response. Returns synchronously when nothing on the way is asynchronous.
   */
  handle(input: RequestInput): Step<ApiResponse> {
    const { settings } = this;
    const ctx = this.open(input);
    return run(settings, ctx, () =>
      andThen(front(settings, ctx), (stop) => stop ?? rest(settings, ctx)),
    );
  }

  /**
   * Host seam: the context of a request the host received, its target normalised once and matched
   * against the route view (the table and the host's routes): `ctx.route`, `ctx.params` and
   * `ctx.allowed` are set before any hook runs. A head that must be refused before routing (a URI
   * over `uriLimit`, an unknown `Expect`, no `Host`) is answered after the pre-routing hooks saw
   * the request. Call it once per request and keep the context with the native request.
   */
  open(input: RequestInput): RequestContext {
    const ctx = openContext(input, this.settings.trust);
    ctx.credentialTests = this.settings.credentialTests;
    const refused = checkRequestHead(input, this.settings.uriLimit);
    if (refused !== undefined) ctx.problem = refused;
    else if (routable(ctx) || (ctx.upperCase && this.settings.mixedCaseParameters)) {
      try {
        const found = this.view.lookup(ctx.method, ctx.path);
        if (found.kind !== 'notFound') {
          // The view matches literal segments case-sensitively (they are lower-case), so a path
          // it matched has its upper-case letters in parameter values only: allowed by option.
          ctx.upperCase = false;
          ctx.allowed = found.allow;
          if (found.kind === 'found') {
            ctx.route = found.route;
            ctx.params = found.params;
          }
        }
      } catch (error) {
        ctx.problem = error; // a parameter with malformed percent-encoding: 400 by the path rules
      }
    }
    return ctx;
  }

  /**
   * Host seam, the front of a request on a host with its own router, before that router: the
   * `onRequest` hooks, the path rules, then, when the view matched a route (the table's or the
   * host's), authentication and the `preParsing` checks. Returns the response that stops the
   * request, or `undefined` to go on to the host's router.
   */
  begin(ctx: RequestContext): Step<ApiResponse | undefined> {
    return begin(this.settings, ctx);
  }

  /**
   * Host seam, behind the host's router: a table route the host dispatched to gets its body,
   * field rules, `preHandler` checks, handler and response phases; any other request the router's
   * answer from the view (404 naming the path, 405 with `Allow`, 204 with `Allow` for OPTIONS).
   * Call it after {@link Conventions.begin}.
   */
  serve(ctx: RequestContext): Step<ApiResponse> {
    return run(this.settings, ctx, () => rest(this.settings, ctx));
  }

  /**
   * Host seam, for a host's own route after {@link Conventions.begin}: the body, read or taken
   * from the host's parser and checked against the route's field rules, then the `preHandler`
   * checks. `own`, the route's settings from {@link Conventions.routeSettings}, is used when the
   * view does not hold the route (its checks then run here first). Gives `{ response }` to send,
   * or `{ response: undefined, body }` with the checked body.
   */
  guard(ctx: RequestContext, own?: RouteSettings, params?: Record<string, string>): Step<Guarded> {
    return guardRoute(this.settings, ctx, own, params);
  }

  /**
   * Host seam: hands the host's own routes to the core as plain data; they join the table in the
   * route view every request is matched against, so they get authentication, limits, CORS and
   * the router's answers as table routes do. Compiled here, once (call it again when the host's
   * routes change); a route the view cannot hold is named in a warning, once. Runs the plugins'
   * `onRoute` on each new route.
   */
  useHostRoutes(routes: readonly HostRoute[]): void {
    const { settings } = this;
    this.view = compileView(settings.router, routes, settings.configKeys, (route, why) => {
      const key = `${route.method} ${route.pattern}`;
      if (this.warned.has(key)) return;
      this.warned.add(key);
      this.logger.warn(
        `The app's own route ${key} is outside the conventions (${why}): it gets no authentication, rate limit or CORS preflight. Declare it in the route table, or in a pattern the table's syntax reads.`,
      );
    });
    for (const route of this.view.routes) {
      if (!route.host || this.seen.has(route)) continue;
      this.seen.add(route);
      compileRoute(route);
      for (const hook of settings.onRoute) hook(route);
    }
  }

  /** The longest request target read, in characters (`uriLimit`). */
  get uriLimit(): number {
    return this.settings.uriLimit;
  }

  /**
   * Host seam: the answer to a request the host refused before the library ran (an HTTP parser
   * error, a header timeout, `CONNECT`): the spec's error body with the always-on headers and
   * `Connection: close`, also as HTTP/1.1 text for a socket. Built once per kind, and counted by
   * no one: hosts that know the client's address answer with {@link Conventions.hostAnswerFor}.
   */
  hostAnswer(kind: HostFailure): HostAnswer {
    let answer = this.hostAnswers.get(kind);
    if (answer === undefined) {
      answer = toHostAnswer(hostFailure(kind, this.settings.uriLimit), this.alwaysOnHeaders);
      this.hostAnswers.set(kind, answer);
    }
    return answer;
  }

  /**
   * Host seam: {@link Conventions.hostAnswer} for a request from `remoteAddress`, once the plugins
   * that see every request saw it: a rate limit counts it by that address (the only thing known
   * of it), adds its headers, and past the limit the answer is its 429. Never rejects.
   */
  hostAnswerFor(kind: HostFailure, remoteAddress: string | undefined): Step<HostAnswer> {
    return countedHostAnswer(this.settings, kind, remoteAddress, this.hostAnswer(kind));
  }

  /**
   * Host seam: the spec's error response for anything thrown while the host handled `ctx`. An
   * error the host raised before `begin` (before its hooks) is still seen by the plugins that see
   * every request (a rate limit counts it).
   */
  fail(ctx: RequestContext, error: unknown): Step<ApiResponse> {
    return run(this.settings, ctx, () => raiseUnrouted(this.settings, ctx, error));
  }

  /**
   * Host seam: a native route's own answer (`res.json(value)`) through the response phases, so
   * it is shaped, serialized and sent like a table route's; a bare array is the same logged 500
   * as a table handler's (spec 2.7). `headers` are the host's response
   * headers so far, which hold the context's when the host copied them there; without them the
   * response starts with the context's headers.
   */
  finish(
    ctx: RequestContext,
    status: number,
    body: unknown,
    headers?: HeaderInit,
  ): Step<ApiResponse> {
    return run(this.settings, ctx, () => {
      if (Array.isArray(body)) throw bareArray();
      return {
        status,
        headers: headers === undefined ? startHeaders(ctx) : new HeaderBag(headers),
        body,
      };
    });
  }

  /**
   * Host seam, for the service's own routes: checks their settings once, at start-up (a misspelt
   * key or a bad value is a `TypeError`), compiles them and runs the plugins' `onRoute`.
   */
  routeSettings(method: string, pattern: string, config: RouteConfig): RouteSettings {
    const frozen = Object.freeze({ ...config });
    checkRouteConfig(
      `Route "${method} ${pattern}" config`,
      frozen,
      this.settings.configKeys,
      method,
    );
    const settings: RouteSettings = Object.freeze({ method, pattern, config: frozen, host: true });
    compileRoute(settings);
    for (const hook of this.settings.onRoute) hook(settings as RouteInfo);
    return settings;
  }
}

/**
 * Tells whether a value is a {@link Conventions}, also from another copy of the package.
 *
 * @category Plugins and pipeline
 */
export function isConventions(value: unknown): value is Conventions {
  return typeof value === 'object' && value !== null && (value as Conventions)[brand] === true;
}

/**
 * What every adapter does with its argument: a {@link Conventions} is used as it is, options are
 * compiled with {@link conventions}.
 *
 * @category Plugins and pipeline
 */
export function toConventions(api: Conventions | ConventionsOptions): Conventions {
  return isConventions(api) ? api : new Conventions(api);
}

/**
 * Compiles the options once (routes, plugins, limits) and returns what every adapter runs.
 * Bad options throw a `TypeError` that says how to fix them.
 *
 * @example
 * ```ts
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * ```
 *
 * @category Start here
 */
export function conventions<const T extends Readonly<Record<string, object>> = RouteTable>(
  options: Omit<ConventionsOptions, 'routes'> & { routes?: TypedRoutes<T> } = {},
): Conventions {
  return new Conventions(options as ConventionsOptions);
}
