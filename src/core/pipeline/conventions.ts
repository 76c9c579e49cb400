/** `conventions(options)`: compiles everything once and answers each request through one pipeline. */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { methodNotAllowed } from '../errors/helpers.ts';
import { consoleLogger, errorToOutgoing, type Logger } from '../errors/to-response.ts';
import { bodyFormat, parseBody } from '../http/parse-body.ts';
import type { ApiResponse, OutgoingResponse } from '../http/response.ts';
import { formatFindings, type LintFinding, type LintRoute, lintRoutes } from '../lint/index.ts';
import { assertLowerCasePath, hasUpperCase, splitTarget } from '../paths/check-path.ts';
import { checkRouteConfig } from '../routing/check-config.ts';
import { allowList, type Router } from '../routing/router.ts';
import type { RouteConfig, RouteInfo, RouteSettings } from '../routing/types.ts';
import { checkFields } from '../validation/check-fields.ts';
import { RequestContext, type RequestInput } from './context.ts';
import {
  type ConventionsOptions,
  type ResolvedConventionsOptions,
  resolveConventionsOptions,
} from './options.ts';
import type { CheckResult, Guarded } from './plugin.ts';
import { serialize } from './serialize.ts';
import { andThen, isPromise, runChecks, type Step, toOutgoing } from './steps.ts';

const brand = Symbol.for('api-conventions.Conventions');

const withBody = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const defaultAccepts = ['json'] as const;

/**
 * Everything an adapter needs, compiled once from {@link ConventionsOptions}. `handle` answers a
 * request end to end; hosts that route by themselves (Express, Fastify) use `screen`,
 * `handleRoute`, `handleUnmatched` and `handleError` around their own router.
 */
export class Conventions {
  /** Marks a `Conventions`, for {@link isConventions} across copies of the package. */
  readonly [brand] = true;
  private readonly o: ResolvedConventionsOptions;

  constructor(options: ConventionsOptions = {}) {
    this.o = resolveConventionsOptions(options);
    this.lint(this.router.routes.map((r) => ({ method: r.method, path: r.pattern })));
  }

  /** The compiled route table. */
  get router(): Router {
    return this.o.router;
  }

  /** The logger faults are reported to. */
  get logger(): Logger {
    return this.o.logger;
  }

  /** The default body limit in bytes. */
  get bodyLimit(): number {
    return this.o.bodyLimit;
  }

  /** Every declared route (HEAD included where GET is), in declaration order. */
  get routes(): readonly RouteInfo[] {
    return this.router.routes;
  }

  /**
   * Lints route patterns against the path rules (spec 4.1) as the `lint` option says: warns,
   * throws a `TypeError`, or does nothing. Runs on the route table at creation; hosts with their
   * own router call it with their routes. Returns the findings.
   */
  lint(routes: readonly LintRoute[]): LintFinding[] {
    if (this.o.lint === 'off' || routes.length === 0) return [];
    const findings = lintRoutes(routes, this.o.lintOptions);
    if (findings.length === 0) return findings;
    const text = formatFindings(findings);
    if (this.o.lint === 'throw') throw new TypeError(`The routes break the path rules:\n${text}`);
    (this.logger.warn ?? consoleLogger.warn)(`route lint:\n${text}`);
    return findings;
  }

  /**
   * Answers one request end to end: path rules, routing (404, 405, OPTIONS), checks, body,
   * handler, response shaping, serialization. Never throws: every failure becomes its error
   * response. Returns synchronously when nothing on the way is asynchronous.
   */
  handle(input: RequestInput): Step<ApiResponse> {
    return this.run(input, (ctx) => {
      assertLowerCasePath(ctx.path);
      const found = this.router.find(ctx.method, ctx.path);
      ctx.params = found.params;
      if (found.route === undefined) return allowAnswer(found.allow);
      return this.runRoute(ctx, input, found.route);
    });
  }

  /**
   * For hosts with their own router: the response that stops a request before routing (an
   * upper-case path is 404, spec 4.1.3), or `undefined` to go on.
   */
  screen(input: RequestInput): Step<ApiResponse> | undefined {
    const { path } = splitTarget(input.url);
    if (!hasUpperCase(path)) return undefined;
    return this.run(input, () => assertLowerCasePath(path) as never);
  }

  /**
   * For hosts with their own router: answers a request the host matched to `route`, with the
   * host's decoded `params`. When the host already parsed the body, pass it as
   * `input.parsedBody`; its media type is still checked against the route's `accepts`.
   */
  handleRoute(
    route: RouteInfo,
    input: RequestInput,
    params: Record<string, string>,
  ): Step<ApiResponse> {
    return this.run(input, (ctx) => {
      ctx.params = params;
      return this.runRoute(ctx, input, route);
    });
  }

  /**
   * For hosts with their own router: answers a request no route matched. With the methods the
   * path does serve (in any order; HEAD and OPTIONS are added as {@link allowList} says), that is
   * 405 with `Allow`, or 204 with `Allow` for OPTIONS; without, 404 naming the path.
   */
  handleUnmatched(input: RequestInput, allow?: readonly string[]): Step<ApiResponse> {
    return this.run(input, (ctx) => {
      assertLowerCasePath(ctx.path);
      const methods = allowList(allow ?? []);
      if (methods.length === 0) {
        throw new ApiError(404, ErrorCode.NoRoute, `Nothing found at ${ctx.path}.`);
      }
      if (ctx.method === 'OPTIONS') return allowAnswer(methods);
      throw methodNotAllowed(ctx.method, ctx.path, methods);
    });
  }

  /**
   * For hosts with their own routes: checks a route's settings once, at start-up (a misspelt key
   * or a bad value is a `TypeError`), and returns them as the {@link RouteSettings} that
   * {@link Conventions.guard} takes.
   */
  routeSettings(method: string, pattern: string, config: RouteConfig): RouteSettings {
    const frozen = Object.freeze({ ...config });
    checkRouteConfig(`Route "${method} ${pattern}" config`, frozen, this.o.configKeys);
    return Object.freeze({ method, pattern, config: frozen });
  }

  /**
   * For hosts whose own handler answers: runs on a route the host matched all the core does
   * before a handler (the plugins' checks, the body's media type and field rules). Resolves to
   * `{ response }` when the request must stop there (an error, or a check's early reply), else
   * to the checked `body` and the `headers` the checks added, for the host to go on with.
   */
  guard(route: RouteSettings, input: RequestInput, params: Record<string, string>): Step<Guarded> {
    const ctx = contextOf(input);
    ctx.route = route;
    ctx.params = params;
    const stop = (out: OutgoingResponse): Step<Guarded> =>
      andThen(this.finish(ctx, out), (response) => ({ response }));
    const go = (early: CheckResult): Step<Guarded> =>
      early === undefined
        ? { response: undefined, body: ctx.body, headers: ctx.responseHeaders ?? {} }
        : stop(toOutgoing(early));
    let prepared: Step<CheckResult>;
    try {
      prepared = this.prepare(ctx, input);
    } catch (error) {
      return stop(this.fail(ctx, error));
    }
    if (!isPromise<CheckResult>(prepared)) return go(prepared);
    return prepared.then(go, (error) => stop(this.fail(ctx, error)));
  }

  /** For hosts that catch errors themselves: the spec's error response for `error`. */
  handleError(input: RequestInput, error: unknown): Step<ApiResponse> {
    return this.run(input, () => {
      throw error;
    });
  }

  private run(
    input: RequestInput,
    step: (ctx: RequestContext) => Step<OutgoingResponse>,
  ): Step<ApiResponse> {
    const ctx = contextOf(input);
    let out: Step<OutgoingResponse>;
    try {
      out = step(ctx);
    } catch (error) {
      out = this.fail(ctx, error);
    }
    if (isPromise<OutgoingResponse>(out)) {
      return out.then(
        (o) => this.finish(ctx, o),
        (error) => this.finish(ctx, this.fail(ctx, error)),
      );
    }
    return this.finish(ctx, out);
  }

  /** The error response for a failure of this request, before serialization. */
  private fail(ctx: RequestContext, error: unknown): OutgoingResponse {
    const out = errorToOutgoing(error, this.logger, { method: ctx.method, path: ctx.path });
    if (ctx.responseHeaders) out.headers = { ...ctx.responseHeaders, ...out.headers };
    return out;
  }

  private runRoute(
    ctx: RequestContext,
    input: RequestInput,
    route: RouteInfo,
  ): Step<OutgoingResponse> {
    ctx.route = route;
    return andThen(this.prepare(ctx, input), (early) =>
      early === undefined ? andThen(route.handler(ctx), toOutgoing) : toOutgoing(early),
    );
  }

  /** Everything before a handler: checks, then the body and its field rules, then later checks. */
  private prepare(ctx: RequestContext, input: RequestInput): Step<CheckResult> {
    return andThen(runChecks(this.o.onRequest, ctx), (early) =>
      early === undefined ? andThen(this.readBody(ctx, input), () => this.checkBody(ctx)) : early,
    );
  }

  private readBody(ctx: RequestContext, input: RequestInput): Step<void> {
    const config = ctx.route!.config;
    const accepts = config.accepts ?? defaultAccepts;
    if (!withBody.has(ctx.method)) return;
    if (input.parsedBody !== undefined) {
      const { value } = input.parsedBody;
      if (value !== undefined) bodyFormat(ctx.headers.get('content-type'), accepts);
      ctx.body = value;
      return;
    }
    if (input.readBody === undefined) return;
    return input.readBody(config.bodyLimit ?? this.bodyLimit).then((bytes) => {
      ctx.body = parseBody(bytes, ctx.headers.get('content-type'), accepts);
    });
  }

  private checkBody(ctx: RequestContext): Step<CheckResult> {
    const config = ctx.route!.config;
    if (config.body && ctx.method !== 'DELETE' && withBody.has(ctx.method)) {
      ctx.body = checkFields(ctx.body, config.body, {
        partial: ctx.method === 'PATCH',
        rejectUnknown: config.rejectUnknownFields ?? true,
      });
    }
    return runChecks(this.o.beforeHandle, ctx);
  }

  private finish(ctx: RequestContext, out: OutgoingResponse): Step<ApiResponse> {
    if (ctx.responseHeaders) out.headers = { ...ctx.responseHeaders, ...out.headers };
    let pending: Step<void> | undefined;
    try {
      for (const hook of this.o.onResponse) pending = andThen(pending, () => hook(ctx, out));
    } catch (error) {
      return this.serialize(ctx, this.fail(ctx, error));
    }
    if (isPromise(pending)) {
      return pending.then(
        () => this.serialize(ctx, out),
        (error) => this.serialize(ctx, this.fail(ctx, error)),
      );
    }
    return this.serialize(ctx, out);
  }

  private serialize(ctx: RequestContext, out: OutgoingResponse): ApiResponse {
    const head = ctx.method === 'HEAD';
    try {
      return serialize(out, head);
    } catch (error) {
      // A body JSON cannot represent (a cycle, a BigInt) is the handler's fault, not the client's.
      return serialize(this.fail(ctx, error), head);
    }
  }
}

function contextOf(input: RequestInput): RequestContext {
  const { path, query } = splitTarget(input.url);
  return new RequestContext(input, path, query);
}

/** RFC 9110 §9.3.7: OPTIONS on a path with no handler of its own answers with `Allow`. */
function allowAnswer(allow: readonly string[]): OutgoingResponse {
  return { status: 204, headers: { allow: allow.join(', ') }, body: undefined };
}

/** Tells whether a value is a {@link Conventions}, also from another copy of the package. */
export function isConventions(value: unknown): value is Conventions {
  return typeof value === 'object' && value !== null && (value as Conventions)[brand] === true;
}

/**
 * What every adapter does with its argument: a {@link Conventions} is used as it is, options are
 * compiled with {@link conventions}.
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
 */
export function conventions(options: ConventionsOptions = {}): Conventions {
  return new Conventions(options);
}
