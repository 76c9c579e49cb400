/** CSRF protection for cookie-authenticated APIs (spec 4.8): origin checks, per-session and one-time tokens. */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { fromBase64Url, toBase64Url } from '../internal/base64url.ts';
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import { randomToken } from '../internal/random.ts';
import type { RequestContext } from '../kernel/context.ts';
import type { Plugin } from '../kernel/plugin.ts';
import type { Step } from '../kernel/steps.ts';
import type { GuardedStore } from '../stores/guard-store.ts';
import { guardStore } from '../stores/guard-store.ts';
import type { Store } from '../stores/store.ts';
import type { StoreBudgetHolder } from '../stores/store-budget.ts';
import { readCookie } from './cookies.ts';

/**
 * Options of {@link csrf}.
 *
 * @category Security
 */
export interface CsrfOptions {
  /** The key that signs per-session tokens: at least 32 bytes, kept secret, the same on every instance. */
  secret: string | Uint8Array;
  /**
   * The session a request belongs to, or `undefined` when it carries none (then there is no
   * cookie authority to forge, and no token is asked for). @default the value of the cookie `cookieName`
   */
  session?: (ctx: RequestContext) => string | undefined;
  /** The session cookie read when `session` is not given. @default '__Host-session' */
  cookieName?: string;
  /** The request header that carries the token. @default 'x-csrf-token' */
  headerName?: string;
  /** The form field that carries the token in a form body. @default '_csrf' */
  fieldName?: string;
  /**
   * Other origins whose pages may send state-changing requests (your web app on another host):
   * exact origins. The service's own origin is always allowed. @default []
   */
  trustedOrigins?: readonly string[];
  /** Whether pages of the same site (`Sec-Fetch-Site: same-site`) may send them too. @default false */
  allowSameSite?: boolean;
  /** Where one-time tokens live; share it between instances (Redis) so any of them redeems a token. @default none: one-time tokens are off */
  store?: Store;
  /** How long a one-time token stays valid, in milliseconds. @default 600000 (10 minutes) */
  oneTimeTtlMs?: number;
}

const knownOptions = [
  'secret',
  'session',
  'cookieName',
  'headerName',
  'fieldName',
  'trustedOrigins',
  'allowSameSite',
  'store',
  'oneTimeTtlMs',
];
// RFC 9110 §9.2.1: these never change state, so a forged one changes nothing.
const safeMethods = new Set(['GET', 'HEAD', 'OPTIONS', 'TRACE']);
const encoder = new TextEncoder();

/** 403: a state-changing request from another site. */
function crossSite(): ApiError {
  return new ApiError(
    403,
    ErrorCode.CrossSiteRequest,
    'State-changing requests from other sites are refused; send it from an allowed origin.',
  );
}

/** 403: a cookie-authenticated request without a token. */
function missingToken(header: string, field: string): ApiError {
  return new ApiError(
    403,
    ErrorCode.CsrfTokenMissing,
    `This request uses a session cookie and needs a CSRF token in the ${header} header (or the ${field} form field).`,
  );
}

/** 403: a token that is not this session's, or a one-time token used already. */
function invalidToken(): ApiError {
  return new ApiError(
    403,
    ErrorCode.CsrfTokenInvalid,
    'The CSRF token is not valid for this session, or was used already; fetch a new one.',
  );
}

// Cost: linear in Content-Type (one lower-casing, two prefix tests).
function isForm(ctx: RequestContext): boolean {
  const type = ctx.headers.get('content-type')?.toLowerCase() ?? '';
  return (
    type.startsWith('application/x-www-form-urlencoded') || type.startsWith('multipart/form-data')
  );
}

/**
 * The CSRF plugin of {@link csrf}, with the functions that issue its tokens.
 *
 * @category Security
 */
export class CsrfPlugin implements Plugin {
  /** The plugin's name. */
  readonly name = 'csrf';
  private readonly session: (ctx: RequestContext) => string | undefined;
  private readonly headerName: string;
  private readonly fieldName: string;
  private readonly trusted = new Set<string>();
  private readonly allowSameSite: boolean;
  private readonly store: GuardedStore | undefined;
  private readonly ttl: number;
  private readonly key: Promise<CryptoKey>;
  /** Requests whose token comes in the form body, checked once the body is parsed. */
  private readonly formSessions = new WeakMap<RequestContext, string>();

  /** @internal Use {@link csrf}. */
  constructor(options: CsrfOptions) {
    assertKnownKeys('csrf()', options, knownOptions);
    const secretBytes =
      typeof options?.secret === 'string' ? encoder.encode(options.secret) : options?.secret;
    if (!(secretBytes instanceof Uint8Array) || secretBytes.byteLength < 32) {
      throw new TypeError(
        'csrf() needs a `secret` of at least 32 bytes (e.g. 32 random bytes, base64-encoded), the same on every instance.',
      );
    }
    const cookieName = options.cookieName ?? '__Host-session';
    const session =
      options.session ??
      ((ctx: RequestContext) => readCookie(ctx.headers.get('cookie'), cookieName));
    if (typeof session !== 'function') throw new TypeError('csrf(): session must be a function.');
    this.session = session;
    this.headerName = (options.headerName ?? 'x-csrf-token').toLowerCase();
    this.fieldName = options.fieldName ?? '_csrf';
    for (const origin of options.trustedOrigins ?? []) {
      if (typeof origin !== 'string' || !/^https?:\/\/[^/\s]+$/.test(origin)) {
        throw new TypeError(
          `csrf(): trustedOrigins holds "${String(origin)}"; write origins such as "https://app.example.com".`,
        );
      }
      this.trusted.add(origin.toLowerCase());
    }
    this.allowSameSite = options.allowSameSite === true;
    this.store = options.store ? guardStore(options.store, { prefix: 'csrf:' }) : undefined;
    this.ttl = assertInteger(
      'csrf() oneTimeTtlMs',
      options.oneTimeTtlMs ?? 600_000,
      1000,
      86_400_000,
    );
    this.key = crypto.subtle.importKey(
      'raw',
      secretBytes as Uint8Array<ArrayBuffer>,
      { name: 'HMAC', hash: 'SHA-256' },
      false,
      ['sign', 'verify'],
    );
  }

  /**
   * A token for every request of this session, until the session ends. Each call gives a
   * new-looking token. A function of its own: it may be passed around unbound.
   */
  readonly issueToken = async (sessionId: string): Promise<string> => {
    const mask = randomToken(16);
    const mac = await crypto.subtle.sign('HMAC', await this.key, message(mask, sessionId));
    return `s.${mask}.${toBase64Url(new Uint8Array(mac))}`;
  };

  /**
   * A token good for one request of this session, kept in the store; needs `store`. Given the
   * request it is issued in (`ctx`), the store call waits out of that request's store budget.
   */
  readonly issueOneTimeToken = async (
    sessionId: string,
    ctx?: StoreBudgetHolder,
  ): Promise<string> => {
    const store = this.store;
    if (store === undefined) {
      throw new TypeError('csrf(): one-time tokens need a `store`; pass the shared store.');
    }
    const token = `o.${randomToken(32)}`;
    if (!(await store.add(token, sessionId, this.ttl, ctx)))
      throw new Error('CSRF token collision');
    return token;
  };

  /** Pre-routing: a state-changing request from another site is refused (40304). */
  onRequest(ctx: RequestContext): undefined {
    if (this.exempt(ctx)) return;
    if (!this.fromTrustedPlace(ctx)) throw crossSite();
  }

  /** Before the body is read: the session's token in the header, or a form to look in later. */
  preParsing(ctx: RequestContext): Step<void> {
    if (this.exempt(ctx)) return;
    const sessionId = this.session(ctx);
    if (sessionId === undefined || sessionId === '') return;
    const token = ctx.headers.get(this.headerName);
    if (token != null && token !== '') return this.check(token, sessionId, ctx);
    if (!isForm(ctx)) throw missingToken(this.headerName, this.fieldName);
    this.formSessions.set(ctx, sessionId);
  }

  /** Once a form body is parsed: its token, taken out of the body. */
  preHandler(ctx: RequestContext): Step<void> {
    const sessionId = this.formSessions.get(ctx);
    if (sessionId === undefined) return;
    const body = ctx.body as Record<string, unknown> | undefined;
    const token = typeof body === 'object' && body !== null ? body[this.fieldName] : undefined;
    if (typeof token !== 'string' || token === '') {
      throw missingToken(this.headerName, this.fieldName);
    }
    // The handler never sees the token: body rules and writable lists need not name it.
    delete body![this.fieldName];
    return this.check(token, sessionId, ctx);
  }

  private async verify(token: string, sessionId: string, ctx: RequestContext): Promise<boolean> {
    // Cost: at most 200 characters read (one split, one base64url decoding); longer is refused.
    if (token.length > 200) return false;
    if (token.startsWith('o.')) {
      if (this.store === undefined) return false;
      // Taken, not read: of two requests showing the same token, one gets it (no replay).
      return (await this.store.take(token, ctx)) === sessionId;
    }
    const [kind, mask, mac, extra] = token.split('.');
    if (kind !== 's' || !mask || !mac || extra !== undefined) return false;
    // Canonical base64url only (RFC 4648 §3.5): one token, one spelling.
    const signature = fromBase64Url(mac);
    if (signature === undefined) return false;
    // crypto.subtle.verify compares in constant time.
    return crypto.subtle.verify('HMAC', await this.key, signature, message(mask, sessionId));
  }

  private check(token: string, sessionId: string, ctx: RequestContext): Promise<void> {
    return this.verify(token, sessionId, ctx).then((valid) => {
      if (!valid) throw invalidToken();
    });
  }

  private fromTrustedPlace(ctx: RequestContext): boolean {
    const site = ctx.headers.get('sec-fetch-site');
    const origin = ctx.headers.get('origin');
    if (origin != null && origin !== 'null' && this.trusted.has(origin)) return true;
    if (site != null) {
      // RFC-less but universal in browsers: the Fetch Metadata spec's four values.
      if (site === 'same-origin' || site === 'none') return true;
      if (site === 'same-site') return this.allowSameSite;
      return false;
    }
    if (origin == null) return true; // not a browser, or one too old to say: the token decides
    if (origin === 'null') return false;
    return ctx.host !== undefined && origin === `${ctx.scheme}://${ctx.host}`;
  }

  private exempt(ctx: RequestContext): boolean {
    if (safeMethods.has(ctx.method)) return true;
    const authorization = ctx.headers.get('authorization');
    return authorization != null && /^bearer /i.test(authorization);
  }
}

const message = (mask: string, sessionId: string) =>
  encoder.encode(`csrf-session\u0000${mask}\u0000${sessionId}`);

/**
 * CSRF protection for APIs that authenticate browsers with a cookie (spec 4.8), in two layers:
 *
 * 1. Before routing, a state-changing request (not GET, HEAD, OPTIONS) whose `Sec-Fetch-Site` or
 *    `Origin` says it comes from another site is refused with 403 (40304), unless that origin is
 *    trusted. Requests with a bearer token are exempt: a browser sends an `Authorization` header
 *    across sites only after a CORS preflight the API allowed, and no cookie authority is used.
 * 2. When the request carries a session, it must carry a token made for that session: in the
 *    `X-CSRF-Token` header, or the `_csrf` field of a form body. Per-session tokens are an HMAC
 *    of the session id with a random mask, so they are checked without a store; one-time tokens
 *    are kept in the store and taken (atomically) by the first request that shows them. Missing
 *    → 403 (40305); not this session's, forged or replayed → 403 (40306).
 *
 * @example
 * ```ts
 * import { conventions, csrf, defineRoutes, listOf } from 'api-conventions';
 *
 * const routes = defineRoutes({ '/v1/books': { GET: () => listOf('books', [], { hasNext: false }) } });
 *
 * const protection = csrf({ secret: process.env.CSRF_SECRET!, trustedOrigins: ['https://app.example.com'] });
 * const api = conventions({ routes, plugins: [protection] });
 * // in a handler: { token: await protection.issueToken(sessionId) }
 * ```
 *
 * @category Security
 */
export function csrf(options: CsrfOptions): CsrfPlugin {
  return new CsrfPlugin(options);
}
