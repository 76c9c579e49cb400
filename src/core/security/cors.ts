/** CORS (spec 4.8): allowed origins, credentials, preflight from the route table, exposed headers. */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { noContent } from '../http/reply.ts';
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import type { RequestContext } from '../kernel/context.ts';
import type { CheckResult, Plugin } from '../kernel/plugin.ts';

/**
 * Which origins may call: exact origins (`https://app.example.com`), anchored regular
 * expressions, a function, a list of strings and expressions, or `'*'` (any origin, never with
 * credentials).
 *
 * @category Security
 */
export type CorsOrigin =
  | string
  | RegExp
  | readonly (string | RegExp)[]
  | ((origin: string, ctx: RequestContext) => boolean);

/**
 * Options of {@link cors}.
 *
 * @category Security
 */
export interface CorsOptions {
  /** The origins allowed to read answers; every other origin gets no CORS headers. */
  origins: CorsOrigin;
  /**
   * Whether browsers may send cookies and HTTP authentication and read the answer
   * (`Access-Control-Allow-Credentials: true`). Refused with `'*'`. @default false
   */
  credentials?: boolean;
  /** Request headers a preflight admits. @default the library's request headers (below) */
  allowHeaders?: readonly string[];
  /** Response headers scripts may read, beyond the safelisted ones. @default the headers the library's features send */
  exposeHeaders?: readonly string[];
  /** How long browsers may cache a preflight, in seconds (Chromium caps it at 7200). @default 600 */
  maxAge?: number;
}

/**
 * The response headers the library's features send, exposed to scripts by default: validators
 * and `Location`, rate limits, deprecation and links.
 *
 * @category Security
 */
export const defaultExposedHeaders: readonly string[] = Object.freeze([
  'ETag',
  'Location',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Deprecation',
  'Sunset',
  'Link',
  'WWW-Authenticate',
]);

const defaultAllowHeaders = [
  'Authorization',
  'Content-Type',
  'If-Match',
  'If-None-Match',
  'If-Modified-Since',
  'If-Unmodified-Since',
  'X-CSRF-Token',
];

const knownOptions = ['origins', 'credentials', 'allowHeaders', 'exposeHeaders', 'maxAge'];
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// An origin as browsers serialize it (RFC 6454 §6.1): scheme, host, optional port; nothing after.
const originPattern = /^https?:\/\/(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/;

function checkOrigin(value: string): string {
  const lower = value.toLowerCase();
  if (!originPattern.test(lower)) {
    throw new TypeError(
      `cors(): "${value}" is not an origin; write scheme, host and port only, such as "https://app.example.com" (no path, no trailing slash).`,
    );
  }
  return lower;
}

function checkPattern(pattern: RegExp): RegExp {
  // An unanchored pattern admits look-alikes: /app\.example\.com/ matches
  // https://app.example.com.evil.io.
  if (!pattern.source.startsWith('^') || !pattern.source.endsWith('$') || pattern.global) {
    throw new TypeError(
      `cors(): the origin pattern ${String(pattern)} must be anchored with ^ and $ (and not global), or it admits look-alike origins such as https://app.example.com.evil.io.`,
    );
  }
  return pattern;
}

type OriginTest = (origin: string, ctx: RequestContext) => boolean;

/** A compiled origin list: its test, and the origins it lists exactly (each checked at start-up). */
interface CompiledOrigins {
  readonly allows: OriginTest | '*';
  readonly exact?: ReadonlySet<string>;
}

function compileOrigins(origins: CorsOrigin, credentials: boolean): CompiledOrigins {
  if (typeof origins === 'function') return { allows: origins };
  if (origins === '*') {
    if (credentials) {
      throw new TypeError(
        "cors(): origins '*' with credentials would let every site act as the signed-in user; list the origins instead.",
      );
    }
    return { allows: '*' };
  }
  const list = typeof origins === 'string' || origins instanceof RegExp ? [origins] : origins;
  if (!Array.isArray(list) || list.length === 0) {
    throw new TypeError(
      "cors(): origins must be an origin, a RegExp, a list of them, a function or '*'; such as origins: ['https://app.example.com'].",
    );
  }
  const exact = new Set<string>();
  const patterns: RegExp[] = [];
  for (const entry of list as readonly unknown[]) {
    if (entry instanceof RegExp) patterns.push(checkPattern(entry));
    else if (typeof entry === 'string' && entry !== '*') exact.add(checkOrigin(entry));
    else {
      throw new TypeError(
        `cors(): ${String(entry)} cannot be in a list of origins; use exact origins and anchored RegExps ('*' stands alone).`,
      );
    }
  }
  const allows: OriginTest =
    patterns.length === 0
      ? (origin) => exact.has(origin)
      : (origin) => exact.has(origin) || patterns.some((p) => p.test(origin));
  return { allows, exact };
}

function headerList(where: string, names: readonly string[]): string {
  if (!Array.isArray(names) || names.some((n) => typeof n !== 'string' || !token.test(n))) {
    throw new TypeError(`cors(): ${where} must be a list of header names.`);
  }
  return names.join(', ');
}

/**
 * 403 for a preflight from an origin the service does not allow.
 *
 * @category Security
 */
export function originNotAllowed(): ApiError {
  return new ApiError(
    403,
    ErrorCode.OriginNotAllowed,
    'This origin may not call the API from a browser; ask for it to be added to the allowed origins.',
  );
}

/** The CORS plugin of {@link cors}: the origin test and the header values, compiled once. */
class CorsPlugin implements Plugin {
  readonly name = 'cors';
  private readonly withCredentials: boolean;
  private readonly allows: OriginTest | '*';
  /** The origins listed exactly, each checked at start-up. */
  private readonly exact: ReadonlySet<string> | undefined;
  private readonly expose: string;
  private readonly allowHeaders: string;
  private readonly maxAge: string;

  constructor(options: CorsOptions) {
    assertKnownKeys('cors()', options, knownOptions);
    if (options === undefined || options.origins === undefined) {
      throw new TypeError(
        "cors() needs `origins`, such as cors({ origins: ['https://app.example.com'] }).",
      );
    }
    if (options.credentials !== undefined && typeof options.credentials !== 'boolean') {
      throw new TypeError('cors(): credentials must be true or false.');
    }
    this.withCredentials = options.credentials === true;
    ({ allows: this.allows, exact: this.exact } = compileOrigins(
      options.origins,
      this.withCredentials,
    ));
    this.expose = headerList('exposeHeaders', options.exposeHeaders ?? defaultExposedHeaders);
    this.allowHeaders = headerList('allowHeaders', options.allowHeaders ?? defaultAllowHeaders);
    this.maxAge = String(assertInteger('cors() maxAge', options.maxAge ?? 600, 0, 86_400));
  }

  /** Pre-routing: `Vary: Origin`, the allowed origin's headers, and the answer to a preflight. */
  onRequest(ctx: RequestContext): CheckResult {
    const bag = ctx.responseHeaders;
    // Vary: Origin on every answer, so no cache hands one origin's answer to another.
    bag.vary('Origin');
    // Cost: one set look-up, then the configured patterns in turn; Access-Control-Request-
    // Headers is never parsed (the allowed list is fixed at start-up).
    const origin = ctx.headers.get('origin');
    if (origin === undefined || origin === null) return;
    const preflight =
      ctx.method === 'OPTIONS' && ctx.headers.get('access-control-request-method') != null;
    const allowed = this.addAllowed(ctx, origin);
    if (!preflight) return;
    bag.vary('Access-Control-Request-Method', 'Access-Control-Request-Headers');
    if (!allowed) throw originNotAllowed();
    // The route view's methods for the path: the table's and the app's own routes alike. A
    // path nothing serves gets the router's 404, and the browser stops there.
    const allow = ctx.allowed;
    if (allow.length === 0) return;
    bag.set('access-control-allow-methods', allow.join(', '));
    bag.set('access-control-allow-headers', this.allowHeaders);
    bag.set('access-control-max-age', this.maxAge);
    // The headers above are on the context: the reply keeps them.
    return noContent();
  }

  private addAllowed(ctx: RequestContext, origin: string): boolean {
    if (origin === 'null') return false;
    const bag = ctx.responseHeaders;
    const allows = this.allows;
    if (allows === '*') bag.set('access-control-allow-origin', '*');
    else if (this.exact?.has(origin)) {
      // One of the origins listed, each checked at start-up: written as it is (every request).
      bag.record['access-control-allow-origin'] = origin;
      if (this.withCredentials) bag.record['access-control-allow-credentials'] = 'true';
    } else if (allows(origin, ctx)) {
      bag.set('access-control-allow-origin', origin);
      // Values fixed and checked at start-up go straight into the record (every request).
      if (this.withCredentials) bag.record['access-control-allow-credentials'] = 'true';
    } else return false;
    if (this.expose !== '') bag.record['access-control-expose-headers'] = this.expose;
    return true;
  }
}

/**
 * CORS as a plugin (spec 4.8). Every response carries `Vary: Origin`. A request from an allowed
 * origin gets that origin back in `Access-Control-Allow-Origin` (never `*` with credentials),
 * with the exposed headers; any other origin, `null` and look-alikes included, gets no CORS
 * header, so the browser keeps the answer from the page. A preflight is answered in the
 * pre-routing phase, before authentication, with 204, the path's methods from the route view,
 * the allowed request headers and `Access-Control-Max-Age`; a preflight from a foreign origin
 * gets 403 (code 40303).
 *
 * @example
 * ```ts
 * import { conventions, cors, defineRoutes, listOf } from 'api-conventions';
 *
 * const routes = defineRoutes({ '/v1/books': { GET: () => listOf('books', [], { hasNext: false }) } });
 *
 * const api = conventions({
 *   routes,
 *   plugins: [cors({ origins: ['https://app.example.com', /^https:\/\/[a-z0-9-]+\.example\.com$/], credentials: true })],
 * });
 * ```
 *
 * @category Security
 */
export function cors(options: CorsOptions): Plugin {
  return new CorsPlugin(options);
}
