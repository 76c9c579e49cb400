/** `conventions(options)`: compiles everything once and answers each request through one pipeline. */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { consoleLogger, errorToOutgoing, type Logger } from '../errors/to-response.ts';
import { parseBody } from '../http/parse-body.ts';
import { isReply } from '../http/reply.ts';
import type { ApiResponse, OutgoingResponse } from '../http/response.ts';
import { assertKnownKeys, assertInteger } from '../internal/options.ts';
import { assertLowerCasePath, splitTarget } from '../paths/check-path.ts';
import { Router } from '../routing/router.ts';
import type { RouteInfo, RouteTable } from '../routing/types.ts';
import { checkFields } from '../validation/check-fields.ts';
import { RequestContext, type RequestInput } from './context.ts';
import type { CheckResult, Plugin } from './plugin.ts';
import { serialize } from './serialize.ts';

/** Options of {@link conventions}. */
export interface ConventionsOptions {
  /** The route table: path patterns mapped to methods and handlers. @default {} */
  routes?: RouteTable;
  /** Features that take part in every request, in order. @default [] */
  plugins?: readonly Plugin[];
  /** The largest request body read, in bytes; larger bodies get 413. @default 1048576 (1 MiB) */
  bodyLimit?: number;
  /** Where 5xx faults are reported. @default console.error */
  logger?: Logger;
}

const knownOptions = ['routes', 'plugins', 'bodyLimit', 'logger'] as const;
const withBody = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const defaultAccepts = ['json'] as const;

type Step<T> = T | Promise<T>;

function isPromise<T>(value: unknown): value is Promise<T> {
  return typeof (value as Promise<T> | undefined)?.then === 'function';
}

/** Applies `next` now when `value` is ready, or when it settles: no async hop on the sync path. */
function then<T, U>(value: Step<T>, next: (v: T) => Step<U>): Step<U> {
  return isPromise<T>(value) ? value.then(next) : next(value);
}

function runChecks(hooks: readonly Plugin['onRequest'][], ctx: RequestContext, from: number): Step<CheckResult> {
  for (let i = from; i < hooks.length; i++) {
    const result = hooks[i]!(ctx);
    if (result === undefined) continue;
    if (isPromise<CheckResult>(result)) {
      return result.then((r) => (r === undefined ? runChecks(hooks, ctx, i + 1) : r));
    }
    return result;
  }
  return undefined;
}

function toOutgoing(result: unknown): OutgoingResponse {
  if (isReply(result)) return { status: result.status, headers: { ...result.headers }, body: result.body };
  if (result === undefined) return { status: 204, headers: {}, body: undefined };
  if (Array.isArray(result)) {
    // spec 2.7: a list is wrapped in an object; a bare array is a programming error.
    throw new ApiError(500, ErrorCode.BareArray, 'Something went wrong on our side; it has been logged.', {
      cause: new TypeError('A handler returned a bare top-level array; wrap lists in an object (spec 2.7).'),
    });
  }
  return { status: 200, headers: {}, body: result };
}

/**
 * Everything an adapter needs, compiled once from {@link ConventionsOptions}: the router and
 * `handle`, which turns one request into one response.
 */
export class Conventions {
  /** The compiled route table. */
  readonly router: Router;
  /** The logger faults are reported to. */
  readonly logger: Logger;
  /** The default body limit in bytes. */
  readonly bodyLimit: number;
  private readonly onRequest: NonNullable<Plugin['onRequest']>[];
  private readonly beforeHandle: NonNullable<Plugin['beforeHandle']>[];
  private readonly onResponse: NonNullable<Plugin['onResponse']>[];

  constructor(options: ConventionsOptions = {}) {
    assertKnownKeys('conventions()', options, knownOptions);
    this.bodyLimit = assertInteger('bodyLimit', options.bodyLimit ?? 1_048_576, 0, 2 ** 31);
    this.logger = options.logger ?? consoleLogger;
    this.router = new Router(options.routes);
    const plugins = options.plugins ?? [];
    for (const plugin of plugins) {
      if (typeof plugin?.name !== 'string') throw new TypeError('Every plugin needs a `name`.');
      if (plugin.onRoute) for (const route of this.router.routes) plugin.onRoute(route);
    }
    this.onRequest = plugins.flatMap((p) => (p.onRequest ? [p.onRequest.bind(p)] : []));
    this.beforeHandle = plugins.flatMap((p) => (p.beforeHandle ? [p.beforeHandle.bind(p)] : []));
    this.onResponse = plugins.flatMap((p) => (p.onResponse ? [p.onResponse.bind(p)] : []));
  }

  /** Every declared route (HEAD included where GET is), in declaration order. */
  get routes(): readonly RouteInfo[] {
    return this.router.routes;
  }

  /**
   * Answers one request: path rules, routing (404, 405, OPTIONS), checks, body, handler,
   * response shaping, serialization. Never throws: every failure becomes its error response.
   * Returns synchronously when nothing on the way is asynchronous.
   */
  handle(input: RequestInput): Step<ApiResponse> {
    const { path, query } = splitTarget(input.url);
    const ctx = new RequestContext(input, path, query);
    let out: Step<OutgoingResponse>;
    try {
      out = this.dispatch(ctx, input);
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
    return errorToOutgoing(error, this.logger, { method: ctx.method, path: ctx.path });
  }

  private dispatch(ctx: RequestContext, input: RequestInput): Step<OutgoingResponse> {
    assertLowerCasePath(ctx.path);
    const found = this.router.find(ctx.method, ctx.path);
    ctx.params = found.params;
    if (found.route === undefined) {
      // RFC 9110 §9.3.7: OPTIONS on a path with no handler of its own answers with Allow.
      return { status: 204, headers: { allow: found.allow.join(', ') }, body: undefined };
    }
    ctx.route = found.route;
    return then(runChecks(this.onRequest, ctx, 0), (early) =>
      early === undefined ? this.readAndHandle(ctx, input) : toOutgoing(early),
    );
  }

  private readAndHandle(ctx: RequestContext, input: RequestInput): Step<OutgoingResponse> {
    const config = ctx.route!.config;
    if (input.readBody === undefined || !withBody.has(ctx.method)) return this.handleWithBody(ctx);
    return input.readBody(config.bodyLimit ?? this.bodyLimit).then((bytes) => {
      ctx.body = parseBody(bytes, ctx.headers.get('content-type'), config.accepts ?? defaultAccepts);
      return this.handleWithBody(ctx);
    });
  }

  private handleWithBody(ctx: RequestContext): Step<OutgoingResponse> {
    const config = ctx.route!.config;
    if (config.body && withBody.has(ctx.method) && ctx.method !== 'DELETE') {
      ctx.body = checkFields(ctx.body, config.body, {
        partial: ctx.method === 'PATCH',
        rejectUnknown: config.rejectUnknownFields ?? true,
      });
    }
    return then(runChecks(this.beforeHandle, ctx, 0), (early) =>
      early === undefined ? then(ctx.route!.handler(ctx), toOutgoing) : toOutgoing(early),
    );
  }

  private finish(ctx: RequestContext, out: OutgoingResponse): Step<ApiResponse> {
    if (ctx.responseHeaders) out.headers = { ...ctx.responseHeaders, ...out.headers };
    const head = ctx.method === 'HEAD';
    if (this.onResponse.length === 0) return this.serialize(ctx, out, head);
    let pending: Step<void> = undefined;
    try {
      for (const hook of this.onResponse) {
        pending = then(pending, () => hook(ctx, out));
      }
    } catch (error) {
      return this.serialize(ctx, this.fail(ctx, error), head);
    }
    if (isPromise(pending)) {
      return pending.then(
        () => this.serialize(ctx, out, head),
        (error) => this.serialize(ctx, this.fail(ctx, error), head),
      );
    }
    return this.serialize(ctx, out, head);
  }

  private serialize(ctx: RequestContext, out: OutgoingResponse, head: boolean): ApiResponse {
    try {
      return serialize(out, head);
    } catch (error) {
      // A body JSON cannot represent (a cycle, a BigInt) is the handler's fault, not the client's.
      return serialize(this.fail(ctx, error), head);
    }
  }
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
