/** The caching plugin: Cache-Control, Date, Expires, ETag and Last-Modified, 304, 412 and 428 (spec 4.7, RFC 9110 §13). */
import { ApiError, isApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { currentDate, httpDate, parseHttpDate } from '../http/http-date.ts';
import { ok, type Reply } from '../http/reply.ts';
import type { SentResponse } from '../http/response.ts';
import { assertKnownKeys } from '../internal/options.ts';
import { defaultCheckTimeout, withinBudget } from '../kernel/check-budget.ts';
import { type RequestContext, runOf } from '../kernel/context.ts';
import type { CheckResult, Downstream, Plugin, PluginSetup } from '../kernel/plugin.ts';
import type { RouteInfo } from '../kernel/route-table.ts';
import type { RouteSettings } from '../kernel/route-types.ts';
import { andThen, isPromise, type Step } from '../kernel/steps.ts';
import { identityKey } from '../shaping/link-key.ts';
import { type CachePolicy, cacheControl } from './cache-control.ts';
import { codingKey, heldTag } from './coding-key.ts';
import { bytesTag, type ParsedTag, splitTag, versionOpaque, versionTag } from './etag.ts';
import { type CurrentResource, evaluatePreconditions, hasPrecondition } from './preconditions.ts';
import type { EtagMode, ResourceVersion, Validators, VersionReader } from './route-config.ts';

/**
 * Options of {@link caching}.
 *
 * @category Caching
 */
export interface CachingOptions {
  /** Cache-Control of successful GET and HEAD responses to anonymous requests. @default 'no-cache' */
  cacheControl?: CachePolicy;
  /** Cache-Control of successful GET and HEAD responses to requests with an identity. @default 'private, no-cache' */
  authenticated?: CachePolicy;
  /** How entity tags are built. @default 'strong' */
  etag?: EtagMode;
  /** Whether PUT, PATCH and DELETE must carry `If-Match` (or another precondition), else 428. @default false */
  requireIfMatch?: boolean;
  /** Whether every response carries `Date` (spec 4.7). @default true */
  date?: boolean;
  /**
   * Whether a read whose route states a `resourceVersion` and answers with a strong tag sends the
   * JSON text it wrote before, while the version, the request (path, query, format, host,
   * caller) and the handler's value are the same: the same objects, or plain data equal member
   * by member. The version promises that the representation changes only with it (RFC 9110
   * §8.8.3); a route whose body carries something of each request of its own (a time, an id)
   * does not keep that promise: give it `etag: 'weak'`, or turn this off. @default true
   */
  reuseText?: boolean;
}

interface CompiledRoute {
  policy: string | undefined;
  etag: EtagMode;
  version: VersionReader | undefined;
  /** What decides the caller's links (the route's `resource`), mixed into its version tags. */
  linkKey: ((ctx: RequestContext) => string) | undefined;
  requireIfMatch: boolean;
  /** The last body text tagged on this route, its media type and its tag's opaque part. */
  last: { body: string; type: string | undefined; hash: string } | undefined;
}

// A body this long or longer is hashed every time rather than kept for the next comparison.
const rememberedBody = 64 * 1024;

const known = ['cacheControl', 'authenticated', 'etag', 'requireIfMatch', 'date', 'reuseText'];
const writes = new Set(['PUT', 'PATCH', 'DELETE']);

function checkEtag(where: string, mode: unknown): EtagMode {
  if (mode !== 'strong' && mode !== 'weak' && mode !== false) {
    throw new TypeError(`${where} must be 'strong', 'weak' or false; got ${String(mode)}.`);
  }
  return mode;
}

function checkBoolean(where: string, value: unknown): boolean {
  if (typeof value !== 'boolean')
    throw new TypeError(`${where} must be true or false; got ${String(value)}.`);
  return value;
}

const toMs = (time: Date | number | undefined): number | undefined => {
  if (time === undefined) return undefined;
  const ms = typeof time === 'number' ? time : time.getTime();
  return Number.isFinite(ms) ? ms : undefined;
};

/**
 * What else of the request a version's representation depends on: the API version chosen and
 * what decides the caller's links. A 304 is answered before the handler builds anything, so its
 * tag must already tell apart callers who would get different bodies (RFC 9110 §8.8.3).
 */
function varyOf(ctx: RequestContext, compiled: CompiledRoute, coding: string): string {
  const api = ctx.state.apiVersion;
  const links = compiled.linkKey?.(ctx) ?? '';
  return api === undefined && links === '' && coding === ''
    ? ''
    : `${api ?? ''}\u0000${links}\u0000${coding}`;
}

function preconditionFailed(): ApiError {
  return new ApiError(
    412,
    ErrorCode.PreconditionFailed,
    'The resource changed since the version this request names (If-Match, If-Unmodified-Since); nothing was changed. Read it again and retry.',
  );
}

/** The plugin of {@link caching}: its defaults and each route's settings, compiled once. */
class CachingPlugin implements Plugin {
  readonly name = 'caching';
  readonly routeConfig = ['cacheControl', 'etag', 'resourceVersion', 'requireIfMatch'];
  private readonly anonymous: string;
  private readonly authenticated: string;
  private readonly defaults: CompiledRoute;
  private readonly date: boolean;
  private readonly reuseText: boolean;
  private readonly plans = new WeakMap<RouteSettings, CompiledRoute>();
  /** A write reads the version its path's GET declares, so one setting serves both. */
  private readonly byPattern = new Map<string, VersionReader>();
  /** …and the tag after a write is the one its path's GET would send this caller. */
  private readonly getOf = new Map<string, CompiledRoute>();
  /** How long a `resourceVersion` may take to settle: the service's `checkTimeout`. */
  private budget = defaultCheckTimeout;
  /** What runs after the conventions: a compression companion makes tags differ by coding. */
  private downstream: Downstream = { encodes: false };

  constructor(options: CachingOptions) {
    assertKnownKeys('caching()', options, known);
    this.anonymous = cacheControl(options.cacheControl ?? 'no-cache', 'caching() cacheControl');
    this.authenticated = cacheControl(
      options.authenticated ?? 'private, no-cache',
      'caching() authenticated',
    );
    this.defaults = {
      policy: undefined,
      etag: checkEtag('caching() etag', options.etag ?? 'strong'),
      version: undefined,
      linkKey: undefined,
      requireIfMatch: checkBoolean('caching() requireIfMatch', options.requireIfMatch ?? false),
      last: undefined,
    };
    this.date = checkBoolean('caching() date', options.date ?? true);
    this.reuseText = checkBoolean('caching() reuseText', options.reuseText ?? true);
  }

  /** Takes the service's `checkTimeout`, the bound on a `resourceVersion` that returns a promise. */
  setup({ checkTimeout, downstream }: PluginSetup): void {
    this.budget = checkTimeout;
    this.downstream = downstream;
  }

  /** The key of the codings the request accepts, where a companion may encode the response. */
  private codingOf(ctx: RequestContext): string {
    return this.downstream.encodes ? codingKey(ctx.headers.get('accept-encoding')) : '';
  }

  /** Compiles a route's caching settings at start-up; a mistake is a `TypeError`. */
  onRoute(route: RouteInfo): void {
    const where = `Route "${route.method} ${route.pattern}"`;
    const config = route.config;
    const version = config.resourceVersion;
    if (version !== undefined && typeof version !== 'function') {
      throw new TypeError(
        `${where}: resourceVersion must be a function (ctx) => ({ version, lastModified }).`,
      );
    }
    const compiled: CompiledRoute = {
      policy:
        config.cacheControl === undefined
          ? undefined
          : cacheControl(config.cacheControl, `${where} cacheControl`),
      etag:
        config.etag === undefined ? this.defaults.etag : checkEtag(`${where} etag`, config.etag),
      version,
      linkKey: config.resource?.linkKey,
      requireIfMatch:
        config.requireIfMatch === undefined
          ? this.defaults.requireIfMatch
          : checkBoolean(`${where} requireIfMatch`, config.requireIfMatch),
      last: undefined,
    };
    this.plans.set(route, compiled);
    if (version !== undefined && route.method === 'GET') this.byPattern.set(route.pattern, version);
    if (route.method === 'GET') this.getOf.set(route.pattern, compiled);
  }

  /** Before the handler: 304 and 412 of a read, 428 and 412 of a write, from the version. */
  preHandler(ctx: RequestContext): Step<CheckResult> {
    const route = ctx.route;
    if (route === undefined) return;
    const compiled = this.compiledOf(route);
    const method = ctx.method;
    if (method === 'GET' || method === 'HEAD') {
      if (compiled.version === undefined) return;
      return andThen(this.versionIn(ctx, compiled.version), (found) =>
        readPreconditions(ctx, compiled, found, this.codingOf(ctx), this.reuseText),
      );
    }
    if (!writes.has(method)) return;
    if (!hasPrecondition(ctx.headers)) {
      if (!compiled.requireIfMatch) return;
      throw new ApiError(
        428,
        ErrorCode.PreconditionRequired,
        `${method} here must be conditional: send If-Match with the ETag of the version you read.`,
      );
    }
    const reader = this.versionOf(route, compiled);
    if (reader === undefined) {
      // Without a version to compare with, the safe answer is not to change anything.
      throw new ApiError(
        412,
        ErrorCode.PreconditionFailed,
        'This resource offers no version to evaluate If-Match, If-None-Match or If-Unmodified-Since against; nothing was changed.',
      );
    }
    return andThen(this.versionIn(ctx, reader), (found) => writePreconditions(ctx, found));
  }

  /** The send phase: `Date`, `Cache-Control`, the validators, 304 and 412 on the bytes. */
  onSend(ctx: RequestContext, sent: SentResponse): Step<void> {
    const headers = sent.headers.record;
    if (this.date) headers.date ??= currentDate();
    const status = sent.status;
    if (status >= 400) {
      headers['cache-control'] = 'no-store';
      return;
    }
    const method = ctx.method;
    const compiled = this.compiledOf(ctx.route);
    if (method !== 'GET' && method !== 'HEAD') {
      headers['cache-control'] ??= 'no-store';
      return writes.has(method) ? this.afterWrite(ctx, sent, compiled) : undefined;
    }
    const identified = ctx.identity !== undefined;
    headers['cache-control'] ??=
      compiled.policy ?? (identified ? this.authenticated : this.anonymous);
    if (identified && ctx.headers.get('authorization') != null) sent.headers.vary('Authorization');
    if (status !== 200 && status !== 304) return;
    const coding = this.codingOf(ctx);
    // The tag names the codings the request accepts: so does the cache's key.
    if (coding !== '') sent.headers.vary('Accept-Encoding');
    sendValidators(ctx, sent, compiled, coding);
    if (sent.status === 304) {
      if (coding !== '' && typeof headers.etag === 'string') {
        headers.etag = heldTag(headers.etag, ctx.headers.get('if-none-match'));
      }
      // RFC 9110 §15.4.5: no content, and no metadata of the content it stands for.
      sent.body = null;
      delete headers['content-type'];
      delete headers['content-length'];
    }
  }

  /** What a `resourceVersion` reads, within the check budget (503 past it: nothing was done). */
  private versionIn(ctx: RequestContext, reader: VersionReader): Step<ResourceVersion | undefined> {
    return withinBudget(reader(ctx), this.budget, () => `resourceVersion of ${routeName(ctx)}`);
  }

  private compiledOf(route: RouteSettings | undefined): CompiledRoute {
    return (route && this.plans.get(route)) ?? this.defaults;
  }

  private versionOf(route: RouteSettings, compiled: CompiledRoute): VersionReader | undefined {
    return compiled.version ?? this.byPattern.get(route.pattern);
  }

  private afterWrite(ctx: RequestContext, sent: SentResponse, compiled: CompiledRoute): Step<void> {
    const reader = ctx.route && this.versionOf(ctx.route, compiled);
    if (reader === undefined || compiled.etag === false || sent.status >= 300) return;
    const read = this.versionIn(ctx, reader);
    // The write is done: a version read too late only leaves the validators out of its answer.
    const settled = isPromise<ResourceVersion | undefined>(read) ? read.catch(unlessLate) : read;
    return andThen(settled, (found) => {
      const headers = sent.headers.record;
      if (found?.version !== undefined) {
        headers.etag ??= versionTag(
          found.version,
          ctx.state.format?.type,
          compiled.etag === 'weak',
          '',
          varyOf(ctx, this.getOf.get(ctx.route!.pattern) ?? compiled, this.codingOf(ctx)),
        );
      }
      const modified = toMs(found?.lastModified);
      if (modified !== undefined) headers['last-modified'] ??= httpDate(modified);
    });
  }
}

function routeName(ctx: RequestContext): string {
  return ctx.route === undefined ? ctx.path : `${ctx.route.method} ${ctx.route.pattern}`;
}

/** Nothing for a version that did not settle within the budget; any other failure as it is. */
function unlessLate(error: unknown): undefined {
  if (isApiError(error) && error.code === ErrorCode.CheckTimeout) return undefined;
  throw error;
}

/** A read's preconditions against the version its route found: a 304 reply, a 412, or on. */
function readPreconditions(
  ctx: RequestContext,
  compiled: CompiledRoute,
  found: ResourceVersion | undefined,
  coding: string,
  reuseText: boolean,
): Reply | undefined {
  if (found === undefined) return; // the handler answers 404
  let tag: string | undefined;
  if (compiled.etag !== false && found.version !== undefined) {
    const vary = varyOf(ctx, compiled, coding);
    tag = versionTag(
      found.version,
      ctx.state.format?.type,
      compiled.etag === 'weak',
      ctx.rawQuery,
      vary,
    );
    if (reuseText && compiled.etag === 'strong') {
      // What a link or the page may read of the request: the API version and the caller's links
      // (the tag's vary), the query, where the client asked, and who is asking.
      runOf(ctx).representation = {
        key: `${tag}\u0000${ctx.path}`,
        details: [vary, ctx.rawQuery, ctx.scheme, ctx.host ?? '', identityKey(ctx)],
      };
    }
  }
  const validators: Validators = {
    tag,
    lastModified: toMs(found.lastModified),
    expires: toMs(found.expires),
  };
  ctx.state.validators = validators;
  const verdict = evaluatePreconditions(ctx.method, ctx.headers, current(validators));
  if (verdict === 'notModified') {
    const reply = ok(undefined);
    reply.status = 304;
    return reply;
  }
  if (verdict !== 'proceed') throw preconditionFailed();
  return undefined;
}

/** A write's preconditions against the current version: 412 when they fail, else on. */
function writePreconditions(ctx: RequestContext, found: ResourceVersion | undefined): void {
  const opaque = found?.version === undefined ? undefined : versionOpaque(found.version);
  const verdict = evaluatePreconditions(ctx.method, ctx.headers, {
    exists: found !== undefined,
    lastModified: toMs(found?.lastModified),
    // Any format's (and any query's) tag of the current version names it: `"<version>.…"`.
    matches: (tag, strong) =>
      opaque !== undefined && !(strong && tag.weak) && tag.opaque.startsWith(`${opaque}.`),
  });
  if (verdict === 'failed') throw preconditionFailed();
  if (verdict === 'exists') {
    throw new ApiError(
      412,
      ErrorCode.ResourceExists,
      'The resource exists and If-None-Match matched it; nothing was changed.',
    );
  }
}

/** The validators of a GET's answer (`ETag`, `Last-Modified`, `Expires`), then its 304 or 412. */
function sendValidators(
  ctx: RequestContext,
  sent: SentResponse,
  compiled: CompiledRoute,
  coding: string,
): void {
  const headers = sent.headers.record;
  const known = ctx.state.validators;
  if (known !== undefined) {
    if (known.tag !== undefined) headers.etag ??= known.tag;
    if (known.lastModified !== undefined) {
      headers['last-modified'] ??= httpDate(known.lastModified);
    }
    if (known.expires !== undefined) headers.expires ??= httpDate(known.expires);
    return;
  }
  if (sent.status !== 200 || compiled.etag === false || sent.body === null) return;
  if (headers.etag === undefined) {
    const header = headers['content-type'];
    const type = typeof header === 'string' ? header : undefined;
    const body = sent.body;
    // A route that sends the same bytes again (a list polled by its clients) gets the tag it
    // had: comparing two texts costs a fraction of hashing one.
    const last = compiled.last;
    let hash: string;
    if (last !== undefined && last.body === body && last.type === type) hash = last.hash;
    else {
      hash = bytesTag(body, type);
      if (typeof body === 'string' && body.length < rememberedBody) {
        compiled.last = { body, type, hash };
      }
    }
    // RFC 9110 §8.8.3: a strong tag differs per content coding; a weak one may be shared.
    headers.etag =
      compiled.etag === 'weak'
        ? `W/"${hash}"`
        : coding === ''
          ? `"${hash}"`
          : `"${hash}@${coding}"`;
  }
  const tag = splitTag(String(headers.etag));
  const modified = headers['last-modified'];
  const verdict = evaluatePreconditions(ctx.method, ctx.headers, {
    exists: true,
    lastModified: typeof modified === 'string' ? parseHttpDate(modified) : undefined,
    matches: (t, strong) =>
      tag !== undefined && !(strong && (t.weak || tag.weak)) && t.opaque === tag.opaque,
  });
  if (verdict === 'notModified') sent.status = 304;
  else if (verdict !== 'proceed') {
    // The send phase does not run again for an error thrown here: answer the 412 in place.
    const { message, code } = preconditionFailed();
    sent.status = 412;
    sent.body = JSON.stringify({ errors: [{ message, code }] });
    headers['content-type'] = 'application/json';
    headers['cache-control'] = 'no-store';
    delete headers.etag;
    delete headers['last-modified'];
  }
}

/**
 * Caching headers and conditional requests (spec 4.7, RFC 9110 §13, RFC 9111): `Date` on every
 * response (formatted once a second); `Cache-Control: no-store` on every error (401, 403 and
 * 429 included) and on the answers to writes; on GET and HEAD the route's policy, else
 * `private, no-cache` with an identity and `no-cache` without; a strong `ETag` over the sent
 * bytes (weak on request, different per format) or from the route's `resourceVersion`, with
 * `Last-Modified` and `Expires` where it knows them. `If-None-Match` (lists, weak comparison,
 * `*`) and `If-Modified-Since` answer 304; `If-Match` and `If-Unmodified-Since` answer 412 before
 * a write changes anything; `requireIfMatch` makes an unconditional write a 428.
 *
 * @example
 * ```ts
 * import { caching, conventions, defineRoutes, listOf, negotiation } from 'api-conventions';
 *
 * const routes = defineRoutes({ '/v1/books': { GET: () => listOf('books', [], { hasNext: false }) } });
 * const api = conventions({ routes, plugins: [negotiation(), caching({ requireIfMatch: true })] });
 * ```
 *
 * @category Caching
 */
export function caching(options: CachingOptions = {}): Plugin {
  return new CachingPlugin(options);
}

/** The current resource of a GET whose route read its version. */
function current(validators: Validators): CurrentResource {
  // The tag is taken apart only when a request carries a tag to compare it with.
  let tag: ParsedTag | undefined | null = null;
  return {
    exists: true,
    lastModified: validators.lastModified,
    matches: (t: ParsedTag, strong: boolean) => {
      if (tag === null) tag = validators.tag === undefined ? undefined : splitTag(validators.tag);
      return tag !== undefined && !(strong && (t.weak || tag.weak)) && t.opaque === tag.opaque;
    },
  };
}
