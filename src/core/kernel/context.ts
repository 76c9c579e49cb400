/** The per-request context handed to plugins and handlers. */

import { consoleLogger, type Logger } from '../errors/logger.ts';
import { HeaderBag } from '../http/headers.ts';
import type { HeaderReader } from '../http/response.ts';
import { type RequestOrigin, resolveOrigin } from '../origin/resolve-origin.ts';
import { type TrustTest, trustNone } from '../origin/trust-proxy.ts';
import { hasUpperCase, splitTarget } from '../paths/check-path.ts';
import { normalizeTarget } from '../paths/normalize-target.ts';
import type { StoreBudget } from '../stores/store-budget.ts';
import type { Identity } from './identity.ts';
import type { RequestInput } from './input.ts';
import { requestLogger } from './request-logger.ts';
import type { RouteSettings } from './route-types.ts';
import { Run } from './run.ts';

export type { ParsedBody, ReadBodyOptions, RequestInput } from './input.ts';

let runOfContext: (ctx: RequestContext) => Run<RequestContext>;

/**
 * The run of a request (src/core/kernel/run.ts): the pipeline's own state of it, which plugins
 * and handlers never see.
 */
export function runOf(ctx: RequestContext): Run<RequestContext> {
  return runOfContext(ctx);
}

/**
 * Per-request data that plugins and handlers share. Each feature declares the fields it sets
 * beside its own code and adds them here by declaration merging (the negotiated `format`, the
 * resource's `validators`, the chosen `apiVersion`), and so does a plugin of your own.
 *
 * @example
 * ```ts
 * import type { Plugin } from 'api-conventions';
 *
 * declare module 'api-conventions' {
 *   interface RequestState {
 *     tenant?: string;
 *   }
 * }
 *
 * // Sets it for every later hook and the handler: `ctx.state.tenant`.
 * export const tenants: Plugin = {
 *   name: 'tenants',
 *   onRequest(ctx) {
 *     ctx.state.tenant = ctx.headers.get('x-tenant') ?? undefined;
 *   },
 * };
 * ```
 *
 * @category Writing plugins
 */
// biome-ignore lint/suspicious/noEmptyInterface: the target of every feature's declaration merging.
export interface RequestState {}

/**
 * One request as the core sees it: plain values, parsed lazily.
 *
 * @example
 * ```ts
 * import { conventions, type RequestContext } from 'api-conventions';
 *
 * // What a handler (and every hook) is given: the request's plain values, parsed when first read.
 * const search = (ctx: RequestContext) => ({
 *   method: ctx.method, // 'GET'
 *   path: ctx.path, // '/v1/books/emma'
 *   id: ctx.param('id'), // 'emma'
 *   q: ctx.query.get('q'), // from ?q=…
 *   language: ctx.headers.get('accept-language'),
 *   caller: ctx.identity?.subject, // set by an identity plugin
 * });
 * const api = conventions({ routes: { '/v1/books/:id': { GET: search } } });
 * ```
 *
 * @category Start here
 */
export class RequestContext {
  /** The method, upper-case. */
  readonly method: string;
  /** The path, normalised (dot segments removed, unreserved characters decoded), without the query. */
  readonly path: string;
  /** The query string without `?`. */
  readonly rawQuery: string;
  /** Request headers. */
  readonly headers: HeaderReader;
  /** The peer address of the connection, before any proxy header is read. */
  readonly peerAddress: string | undefined;
  /** The host's own request object. */
  readonly native: unknown;
  /** The matched route; `undefined` before routing or when nothing matched. */
  route: RouteSettings | undefined = undefined;
  /** The methods the path serves (for `Allow`); empty when no route has the path. */
  allowed: readonly string[] = [];
  /** Decoded path parameters of the matched route. */
  params: Readonly<Record<string, string>> = {};
  /** The parsed body, once read; `undefined` when there is none. */
  body: unknown = undefined;
  /** Who is calling, once a plugin established it (a verified bearer token, say). */
  identity: Identity | undefined = undefined;
  /** Data shared between plugins and the handler. */
  readonly state: RequestState = {};
  /**
   * The time this request may still wait for stores, shared by every store call made for it (the
   * context is the `StoreBudgetHolder` a guarded store's calls take); made by its first call
   * that has to wait.
   */
  storeBudget: StoreBudget | undefined = undefined;
  readonly #run: Run<RequestContext>;
  static {
    runOfContext = (ctx) => ctx.#run;
  }
  private log: Required<Logger> | undefined;
  private bag: HeaderBag | undefined;
  private parsedQuery: URLSearchParams | undefined;
  private resolved: RequestOrigin | undefined;
  private readonly scheme0: 'http' | 'https';
  private readonly trust: TrustTest;

  /**
   * @param input - the adapter's request
   * @param path - the normalised path
   * @param rawQuery - the query string without `?`
   * @param trust - which proxies are trusted (compiled `trustProxy`)
   */
  constructor(input: RequestInput, path: string, rawQuery: string, trust: TrustTest) {
    this.#run = new Run(input);
    this.method = input.method;
    this.path = path;
    this.rawQuery = rawQuery;
    this.headers = input.headers;
    this.peerAddress = input.remoteAddress;
    this.native = input.native;
    this.scheme0 = input.scheme ?? 'http';
    this.trust = trust;
  }

  /** The query parameters, parsed on first use. */
  get query(): URLSearchParams {
    // Cost: linear in the query, at most `uriLimit` (8 KiB) characters, parsed once per request.
    this.parsedQuery ??= new URLSearchParams(this.rawQuery);
    return this.parsedQuery;
  }

  /**
   * Headers this request's response gets, whatever its outcome (rate-limit counters, `Vary`):
   * reply and error headers are merged into them.
   */
  get responseHeaders(): HeaderBag {
    this.bag ??= new HeaderBag();
    return this.bag;
  }

  /**
   * The service's logger for lines about this request: each carries the request's context (its
   * route, and what plugins add, such as the request id and the trace id). Made when first used.
   */
  get logger(): Required<Logger> {
    const plan = this.#run.logs;
    // A context made outside a service (a test's) has the library's default logger.
    if (plan === undefined) return consoleLogger;
    this.log ??= requestLogger<RequestContext>(this, plan);
    return this.log;
  }

  /** Tells whether a plugin added response headers, without creating the bag. */
  get hasResponseHeaders(): boolean {
    return this.bag !== undefined;
  }

  /** Where the request came from, through trusted proxies only; resolved on first use. */
  get origin(): RequestOrigin {
    this.resolved ??= resolveOrigin(
      { scheme: this.scheme0, peerAddress: this.peerAddress, headers: this.headers },
      this.trust,
    );
    return this.resolved;
  }

  /** `https` or `http`, as the client used it. */
  get scheme(): 'http' | 'https' {
    // Without trusted proxies the connection alone answers: no address is parsed.
    return this.trust === trustNone ? this.scheme0 : this.origin.scheme;
  }

  /** Whether the client used HTTPS. */
  get secure(): boolean {
    return this.trust === trustNone ? this.scheme0 === 'https' : this.origin.secure;
  }

  /** The host (and port) the client asked for. */
  get host(): string | undefined {
    return this.trust === trustNone ? this.headers.get('host') || undefined : this.origin.host;
  }

  /** The peer port of the connection, when the host knows it. */
  get peerPort(): number | undefined {
    return this.#run.input.remotePort;
  }

  /** The request's HTTP version (`1.1`, `2.0`), when the host knows it. */
  get httpVersion(): string | undefined {
    return this.#run.input.httpVersion;
  }

  /** The client's address: the peer, or the first untrusted hop behind trusted proxies. */
  get remoteAddress(): string | undefined {
    return this.origin.remoteAddress;
  }

  /**
   * Whether the request presents credentials an identity plugin still has to verify (a bearer
   * token its cache does not vouch for): what the plugins' `credentials` tests say, spending no
   * crypto. The rate limiter counts such a request after authentication, by its verified caller,
   * or by its network when they are refused.
   */
  get hasCredentials(): boolean {
    for (const test of this.#run.credentialTests) if (test(this)) return true;
    return false;
  }

  private validated: Partial<Record<'body' | 'query' | 'params' | 'headers', unknown>> | undefined;

  /**
   * The output of the route's schema for one part of the request (`body`, `query`, `params`,
   * `headers`): the values as the schema made them (coerced, defaulted, transformed), or
   * `undefined` when the route has no schema for that part. Set once the checks passed.
   */
  valid(part: 'body' | 'query' | 'params' | 'headers'): unknown {
    return this.validated?.[part];
  }

  /** @internal Keeps the output of a part's schema, for {@link RequestContext.valid}. */
  setValid(part: 'body' | 'query' | 'params' | 'headers', value: unknown): void {
    if (this.validated === undefined) this.validated = {};
    this.validated[part] = value;
  }

  /** A path parameter of the matched route; a programming error when the route has none by that name. */
  param(name: string): string {
    const value = this.params[name];
    if (value === undefined) {
      throw new TypeError(`Route ${this.route?.pattern ?? '(none)'} has no parameter "${name}".`);
    }
    return value;
  }
}

/**
 * The context of a request, its target normalised once (dot segments, absolute form, fragment,
 * unreserved percent-encoding); a target that cannot be normalised is kept as received and its
 * problem answered by the path rules, after the pre-routing hooks saw the request.
 *
 * @category Plugins and pipeline
 */
export function openContext(input: RequestInput, trust: TrustTest): RequestContext {
  try {
    const { path, query } = normalizeTarget(input.url);
    const ctx = new RequestContext(input, path, query, trust);
    runOf(ctx).upperCase = hasUpperCase(path);
    return ctx;
  } catch (error) {
    const { path, query } = splitTarget(input.url);
    const ctx = new RequestContext(input, path, query, trust);
    runOf(ctx).problem = error;
    return ctx;
  }
}

/** Tells whether the path rules let the request reach the router: encoding well-formed, lower case. */
export function routable(ctx: RequestContext): boolean {
  const run = runOf(ctx);
  return run.problem === undefined && !run.upperCase;
}
