/** The spec's security header set (spec 4.8), HSTS and Public-Key-Pins on HTTPS, and `requireHttps`. */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { HeaderBag, type ResponseHeaders } from '../http/headers.ts';
import { fromBase64 } from '../internal/base64url.ts';
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import type { RequestContext } from '../kernel/context.ts';
import type { Plugin } from '../kernel/plugin.ts';
import type { RouteInfo } from '../kernel/route-table.ts';
import type { ReferrerPolicyValue } from './route-config.ts';

/**
 * `Strict-Transport-Security` (RFC 6797), sent on requests that came over HTTPS.
 *
 * @category Security
 */
export interface HstsOptions {
  /** How long browsers keep to HTTPS, in seconds. @default 31536000 (one year) */
  maxAge?: number;
  /** Whether the rule covers every subdomain too. @default false */
  includeSubDomains?: boolean;
  /** Asks to be listed in browsers' preload lists (needs `includeSubDomains` and a year). @default false */
  preload?: boolean;
}

/**
 * `Public-Key-Pins` (RFC 7469): the spec lists it, browsers have dropped it. Sent on HTTPS
 * requests, and only when pins are configured.
 *
 * @category Security
 */
export interface PublicKeyPinsOptions {
  /** At least two base64 SHA-256 pins (`pin-sha256`), one of them a backup key (RFC 7469 §4.3). */
  pins: readonly string[];
  /** How long clients keep the pins, in seconds. @default 5184000 (60 days) */
  maxAge?: number;
  /** Whether the pins cover every subdomain too. @default false */
  includeSubDomains?: boolean;
  /** Where clients report a pin failure. @default none */
  reportUri?: string;
}

/**
 * Options of {@link securityHeaders}.
 *
 * @category Security
 */
export interface SecurityHeadersOptions {
  /**
   * `X-XSS-Protection`. The spec asks for `1; mode=block`; current browsers have removed the
   * filter, and where an old one still runs, `0` avoids the leaks the filter itself caused
   * ([Security headers, CORS and CSRF](../../../docs/security.md) weighs both). @default '1; mode=block'
   */
  xssProtection?: '1; mode=block' | '0';
  /** `X-Frame-Options`: an API's answers are never framed. @default 'deny' */
  frameOptions?: 'deny' | 'sameorigin';
  /**
   * `Content-Security-Policy`: nothing an API sends may load or run anything, nor be framed.
   * @default "default-src 'none'; frame-ancestors 'none'"
   */
  contentSecurityPolicy?: string;
  /**
   * `Referrer-Policy`, or `false` for none. The spec is silent; an API's URLs (ids, queries) are
   * nobody else's business, so a page an answer links to learns nothing of it. @default 'no-referrer'
   */
  referrerPolicy?: ReferrerPolicyValue | false;
  /**
   * `Cross-Origin-Resource-Policy`, or `false` for none. The spec is silent; `same-origin` keeps
   * other sites from loading answers with `<script>` or `<img>` (no-cors requests), while
   * cross-origin `fetch` stays governed by CORS. @default 'same-origin'
   */
  crossOriginResourcePolicy?: 'same-origin' | 'same-site' | 'cross-origin' | false;
  /** `Strict-Transport-Security` on HTTPS requests, or `false` for none. @default { maxAge: 31536000 } */
  hsts?: HstsOptions | false;
  /** `Public-Key-Pins` on HTTPS requests; absent unless pins are given. @default none */
  publicKeyPins?: PublicKeyPinsOptions;
  /**
   * Refuses plain-HTTP requests with a 403 (code 40302) instead of redirecting them; the scheme
   * comes from the connection, or from `X-Forwarded-Proto`/`Forwarded` of trusted proxies only
   * (`trustProxy`). @default false
   */
  requireHttps?: boolean;
}

const knownOptions = [
  'xssProtection',
  'frameOptions',
  'contentSecurityPolicy',
  'referrerPolicy',
  'crossOriginResourcePolicy',
  'hsts',
  'publicKeyPins',
  'requireHttps',
];
const xssValues = ['1; mode=block', '0'];
const frameValues = ['deny', 'sameorigin'];
const referrerValues = [
  'no-referrer',
  'no-referrer-when-downgrade',
  'origin',
  'origin-when-cross-origin',
  'same-origin',
  'strict-origin',
  'strict-origin-when-cross-origin',
  'unsafe-url',
];
const corpValues = ['same-origin', 'same-site', 'cross-origin'];
// RFC 7469 §2.1.1: a pin is the base64 of a SHA-256 digest, 32 bytes, spelt canonically (a pin
// with stray bits would never equal the one a browser computes).
const isPin = (pin: unknown) => typeof pin === 'string' && fromBase64(pin)?.length === 32;
const maxSeconds = 2 ** 31 - 1;

function oneOf(where: string, value: unknown, allowed: readonly string[], off = false): string {
  if (typeof value !== 'string' || !allowed.includes(value)) {
    const choices = [...allowed.map((a) => `'${a}'`), ...(off ? ['false (no header)'] : [])];
    throw new TypeError(`${where} must be ${choices.join(' or ')}; got ${String(value)}.`);
  }
  return value;
}

function policy(where: string, value: unknown): string {
  if (typeof value !== 'string' || value.trim() === '' || /[\r\n\0]/.test(value)) {
    throw new TypeError(
      `${where} must be a policy such as "default-src 'none'; frame-ancestors 'none'".`,
    );
  }
  return value;
}

function compileHsts(options: HstsOptions | false | undefined): string | undefined {
  if (options === false) return undefined;
  assertKnownKeys('securityHeaders({ hsts })', options, ['maxAge', 'includeSubDomains', 'preload']);
  const maxAge = assertInteger('hsts.maxAge', options?.maxAge ?? 31_536_000, 0, maxSeconds);
  let value = `max-age=${maxAge}`;
  if (options?.includeSubDomains) value += '; includeSubDomains';
  if (options?.preload) {
    if (!options.includeSubDomains || maxAge < 31_536_000) {
      throw new TypeError(
        'hsts.preload needs includeSubDomains: true and a maxAge of at least 31536000 (one year).',
      );
    }
    value += '; preload';
  }
  return value;
}

function compilePins(options: PublicKeyPinsOptions | undefined): string | undefined {
  if (options === undefined) return undefined;
  assertKnownKeys('securityHeaders({ publicKeyPins })', options, [
    'pins',
    'maxAge',
    'includeSubDomains',
    'reportUri',
  ]);
  const pins = options.pins;
  if (!Array.isArray(pins) || pins.length < 2) {
    throw new TypeError(
      'publicKeyPins.pins needs at least two pins, the key in use and a backup key (RFC 7469 §4.3).',
    );
  }
  for (const pin of pins) {
    if (!isPin(pin)) {
      throw new TypeError(
        `publicKeyPins.pins: "${String(pin)}" is not the base64 of a SHA-256 digest (44 characters ending in "=").`,
      );
    }
  }
  const maxAge = assertInteger('publicKeyPins.maxAge', options.maxAge ?? 5_184_000, 0, maxSeconds);
  let value = pins.map((pin) => `pin-sha256="${pin}"`).join('; ');
  value += `; max-age=${maxAge}`;
  if (options.includeSubDomains) value += '; includeSubDomains';
  if (options.reportUri !== undefined) {
    if (typeof options.reportUri !== 'string' || !/^https?:\/\/[^\s"]+$/.test(options.reportUri)) {
      throw new TypeError('publicKeyPins.reportUri must be an absolute http(s) URL.');
    }
    value += `; report-uri="${options.reportUri}"`;
  }
  return value;
}

function compileOverrides(route: RouteInfo): Readonly<ResponseHeaders> | undefined {
  const overrides = route.config.securityHeaders;
  if (overrides === undefined) return undefined;
  const where = `Route "${route.method} ${route.pattern}": securityHeaders`;
  assertKnownKeys(where, overrides, [
    'xssProtection',
    'frameOptions',
    'contentSecurityPolicy',
    'referrerPolicy',
    'crossOriginResourcePolicy',
  ]);
  const bag = new HeaderBag();
  if (overrides.xssProtection !== undefined) {
    bag.set(
      'x-xss-protection',
      oneOf(`${where}.xssProtection`, overrides.xssProtection, xssValues),
    );
  }
  if (overrides.frameOptions !== undefined) {
    bag.set('x-frame-options', oneOf(`${where}.frameOptions`, overrides.frameOptions, frameValues));
  }
  if (overrides.contentSecurityPolicy !== undefined) {
    const csp = policy(`${where}.contentSecurityPolicy`, overrides.contentSecurityPolicy);
    bag.set('content-security-policy', csp);
  }
  if (overrides.referrerPolicy !== undefined) {
    const value = oneOf(`${where}.referrerPolicy`, overrides.referrerPolicy, referrerValues);
    bag.set('referrer-policy', value);
  }
  if (overrides.crossOriginResourcePolicy !== undefined) {
    const value = oneOf(
      `${where}.crossOriginResourcePolicy`,
      overrides.crossOriginResourcePolicy,
      corpValues,
    );
    bag.set('cross-origin-resource-policy', value);
  }
  return HeaderBag.constant(bag);
}

/**
 * 403 for a plain-HTTP request to a service that requires HTTPS: no redirect, so a client that
 * sent a secret over plain HTTP learns of it instead of having it forwarded silently.
 *
 * @category Security
 */
export function httpsRequired(): ApiError {
  return new ApiError(
    403,
    ErrorCode.HttpsRequired,
    'This service accepts HTTPS requests only; send the request again over https://.',
  );
}

/** The plugin of {@link securityHeaders}: its fixed headers, per-route ones and HTTPS rules. */
class SecurityHeadersPlugin implements Plugin {
  readonly name = 'security-headers';
  readonly routeConfig = ['securityHeaders'];
  readonly headers: Readonly<ResponseHeaders>;
  /** Pre-routing: HSTS, pins and `requireHttps`; absent without any of them (no hook, no cost). */
  readonly onRequest: Plugin['onRequest'];
  private readonly hsts: string | undefined;
  private readonly pins: string | undefined;
  private readonly requireHttps: boolean;
  /** By the route's settings object: a route's HEAD shares its GET's, and no key is built per request. */
  private readonly overrides = new WeakMap<object, Readonly<ResponseHeaders>>();
  private anyOverride = false;

  constructor(options: SecurityHeadersOptions) {
    assertKnownKeys('securityHeaders()', options, knownOptions);
    const fixed: Record<string, string> = {
      'x-xss-protection': oneOf(
        'xssProtection',
        options.xssProtection ?? '1; mode=block',
        xssValues,
      ),
      'x-frame-options': oneOf('frameOptions', options.frameOptions ?? 'deny', frameValues),
      'content-security-policy': policy(
        'contentSecurityPolicy',
        options.contentSecurityPolicy ?? "default-src 'none'; frame-ancestors 'none'",
      ),
    };
    // Beside the spec's set, where it is silent: what current practice (helmet's defaults) sends.
    const referrer = options.referrerPolicy ?? 'no-referrer';
    if (referrer !== false) {
      fixed['referrer-policy'] = oneOf('referrerPolicy', referrer, referrerValues, true);
    }
    const corp = options.crossOriginResourcePolicy ?? 'same-origin';
    if (corp !== false) {
      fixed['cross-origin-resource-policy'] = oneOf(
        'crossOriginResourcePolicy',
        corp,
        corpValues,
        true,
      );
    }
    this.headers = HeaderBag.constant(fixed);
    this.hsts = compileHsts(options.hsts);
    this.pins = compilePins(options.publicKeyPins);
    if (options.requireHttps !== undefined && typeof options.requireHttps !== 'boolean') {
      throw new TypeError('requireHttps must be true or false.');
    }
    this.requireHttps = options.requireHttps === true;
    // Without HSTS, pins or requireHttps the plugin has no pre-routing work: no hook, no cost.
    const secureOnly = this.hsts !== undefined || this.pins !== undefined || this.requireHttps;
    this.onRequest = secureOnly ? this.overHttps : undefined;
  }

  /** Compiles a route's `securityHeaders` at start-up; a mistake is a `TypeError`. */
  onRoute(route: RouteInfo): void {
    const compiled = compileOverrides(route);
    if (compiled === undefined) return;
    this.overrides.set(route.config, compiled);
    this.anyOverride = true;
  }

  /** A matched route's own values, over the fixed ones. */
  preParsing(ctx: RequestContext): void {
    if (!this.anyOverride || ctx.route === undefined) return;
    const own = this.overrides.get(ctx.route.config);
    if (own !== undefined) ctx.responseHeaders.merge(own);
  }

  private overHttps(ctx: RequestContext): undefined {
    if (!ctx.secure) {
      if (this.requireHttps) throw httpsRequired();
      return;
    }
    const record = ctx.responseHeaders.record;
    if (this.hsts !== undefined) record['strict-transport-security'] = this.hsts;
    if (this.pins !== undefined) record['public-key-pins'] = this.pins;
  }
}

/**
 * The spec's security header set (spec 4.8) as a plugin: `X-XSS-Protection`, `X-Frame-Options`
 * and `Content-Security-Policy` on every response (beside the core's `nosniff`), compiled once
 * into always-on headers, so errors, 404s, 304s and the host's own answers carry them too;
 * `Strict-Transport-Security` (and `Public-Key-Pins` when pins are configured) on HTTPS
 * requests; per-route values through the `securityHeaders` route setting; and `requireHttps`.
 *
 * @example
 * ```ts
 * import { conventions, defineRoutes, listOf, securityHeaders } from 'api-conventions';
 *
 * const routes = defineRoutes({ '/v1/books': { GET: () => listOf('books', [], { hasNext: false }) } });
 *
 * const api = conventions({
 *   routes,
 *   plugins: [securityHeaders({ hsts: { maxAge: 63_072_000 }, requireHttps: true })],
 *   trustProxy: ['loopback'],
 * });
 * ```
 *
 * @category Security
 */
export function securityHeaders(options: SecurityHeadersOptions = {}): Plugin {
  return new SecurityHeadersPlugin(options);
}
