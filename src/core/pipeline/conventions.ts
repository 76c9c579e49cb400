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
import { allowList, type Router } from '../routing/router.ts';
import type { RouteConfig, RouteInfo, RouteSettings } from '../routing/types.ts';
import { startHeaders } from './answers.ts';
import { openContext, type RequestContext, type RequestInput } from './context.ts';
import {
  beforeRouting,
  guardRoute,
  type HostRouting,
  hostUnmatched,
  routeRequest,
  run,
  runRoute,
} from './dispatch.ts';
import {
  type ConventionsOptions,
  type ResolvedConventionsOptions,
  resolveConventionsOptions,
} from './options.ts';
import type { Guarded } from './plugin.ts';
import { countedHostAnswer, raiseUnrouted } from './pre-routing.ts';
import { bareArray, compileRoute } from './request.ts';
import type { Step } from './steps.ts';

export type { HostRouting } from './dispatch.ts';

const brand = Symbol.for('api-conventions.Conventions');

/**
 * Everything an adapter needs, compiled once from {@link ConventionsOptions}. `handle` answers a
 * request end to end; hosts that route by themselves (Express, Fastify) use the host seams
 * (`open`, `beforeRouting`, `handleRoute`, `handleUnmatched`, `handleError`, `guard`, `respond`) around
 * their own router.
 *
 * @category Start here
 */
export class Conventions {
  /** Marks a `Conventions`, for {@link isConventions} across copies of the package. */
  readonly [brand] = true;
  private readonly settings: ResolvedConventionsOptions;
  // Where a host request object keeps its context: a property, not a WeakMap, whose insert per
  // request costs more than the rest of routing. One symbol per instance, so two never mix.
  private readonly contextKey = Symbol('api-conventions.context');
  // Host answers are the same bytes every time: built once per kind, on first use.
  private readonly hostAnswers = new Map<HostFailure, HostAnswer>();

  constructor(options: ConventionsOptions = {}) {
    this.settings = resolveConventionsOptions(options);
    for (const route of this.router.routes) compileRoute(route);
    this.lint(
      this.router.routes.map((r) =>
        r.config.deprecation === undefined
          ? { method: r.method, path: r.pattern }
          : { method: r.method, path: r.pattern, deprecated: r.config.deprecation },
      ),
    );
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
   * Answers one request end to end: pre-routing hooks, path rules and routing (404, 405,
   * OPTIONS), checks, body, handler, then the response phases. Never throws: every failure becomes
   * its error response. Returns synchronously when nothing on the way is asynchronous.
   */
  handle(input: RequestInput, host: HostRouting = {}): Step<ApiResponse> {
    const ctx = host.context ?? this.open(input);
    return run(this.settings, ctx, () => routeRequest(this.settings, ctx, host));
  }

  /**
   * Host seam: the context of a request the host received, its target normalised once. A head
   * that must be refused before routing (a URI over `uriLimit`, an unknown `Expect`, no `Host`)
   * is answered after the pre-routing hooks saw the request.
   */
  open(input: RequestInput): RequestContext {
    const ctx = openContext(input, this.settings.trust);
    const refused = checkRequestHead(input, this.settings.uriLimit);
    if (refused !== undefined) ctx.problem = refused;
    return ctx;
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
   * Host seam: the context of a host's own request object, opened once — every later call with
   * the same object (from a middleware, a route, an error handler) gets the same context. Without
   * `input`, the context opened before, if any.
   */
  contextFor(native: object): RequestContext | undefined;
  contextFor(native: object, input: () => RequestInput): RequestContext;
  contextFor(native: object, input?: () => RequestInput): RequestContext | undefined {
    const holder = native as Record<symbol, RequestContext | undefined>;
    let ctx = holder[this.contextKey];
    if (ctx === undefined && input !== undefined) {
      ctx = this.open(input());
      holder[this.contextKey] = ctx;
    }
    return ctx;
  }

  /**
   * Host seam, the pre-routing phase for hosts with their own router: the `onRequest` hooks, then
   * the path rules (malformed percent-encoding is 400, an upper-case path 404, spec 4.1.3).
   * Returns the response that stops the request, or `undefined` to go on to the host's router.
   */
  beforeRouting(ctx: RequestContext): Step<ApiResponse | undefined> {
    return beforeRouting(this.settings, ctx);
  }

  /** Host seam: answers a request the host matched to `route`, with the host's decoded `params`. */
  handleRoute(
    ctx: RequestContext,
    route: RouteInfo,
    params: Record<string, string>,
  ): Step<ApiResponse> {
    return run(this.settings, ctx, () => {
      ctx.params = params;
      return runRoute(this.settings, ctx, route);
    });
  }

  /**
   * Host seam: answers a request no route matched. With the methods the path does serve (in any
   * order; `allowList` orders them), that is 405 with `Allow`, or 204 with `Allow` for OPTIONS;
   * without, 404 naming the path.
   */
  handleUnmatched(ctx: RequestContext, allow?: readonly string[]): Step<ApiResponse> {
    return run(this.settings, ctx, () => hostUnmatched(this.settings, ctx, allowList(allow ?? [])));
  }

  /**
   * Host seam: the spec's error response for anything thrown while the host handled `ctx`. An
   * error the host raised before the pre-routing phase is still seen by the plugins that see
   * every request (a rate limit counts it).
   */
  handleError(ctx: RequestContext, error: unknown): Step<ApiResponse> {
    return run(this.settings, ctx, () => raiseUnrouted(this.settings, ctx, error));
  }

  /**
   * Host seam: a native route's own answer (`res.json(value)`) through the response phases, so
   * it is shaped, serialized and sent like a table route's; a bare array is the same logged 500
   * as a table handler's (spec 2.7). `headers` are the host's response
   * headers so far, which hold the context's when the host copied them there; without them the
   * response starts with the context's headers.
   */
  respond(
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
    const settings: RouteSettings = Object.freeze({ method, pattern, config: frozen });
    compileRoute(settings);
    for (const hook of this.settings.onRoute) hook(settings as RouteInfo);
    return settings;
  }

  /**
   * Host seam, for hosts whose own handler answers: runs on a route the host matched all the core
   * does before a handler (the plugins' checks, the body's media type and field rules). Resolves
   * to `{ response }` when the request must stop there, else to the checked `body`.
   */
  guard(ctx: RequestContext, route: RouteSettings, params: Record<string, string>): Step<Guarded> {
    return guardRoute(this.settings, ctx, route, params);
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
export function conventions(options: ConventionsOptions = {}): Conventions {
  return new Conventions(options);
}
