/** The spec's security header set (spec 4.8), HSTS and Public-Key-Pins on HTTPS, and `requireHttps`. */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { HeaderBag, type ResponseHeaders } from '../http/headers.ts';
import { fromBase64 } from '../internal/base64url.ts';
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import type { RequestContext } from '../pipeline/context.ts';
import type { Plugin } from '../pipeline/plugin.ts';
import type { RouteInfo } from '../routing/table.ts';

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
   * (docs/security.md weighs both). @default '1; mode=block'
   */
  xssProtection?: '1; mode=block' | '0';
  /** `X-Frame-Options`: an API's answers are never framed. @default 'deny' */
  frameOptions?: 'deny' | 'sameorigin';
  /**
   * `Content-Security-Policy`: nothing an API sends may load or run anything, nor be framed.
   * @default "default-src 'none'; frame-ancestors 'none'"
   */
  contentSecurityPolicy?: string;
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
  'hsts',
  'publicKeyPins',
  'requireHttps',
];
const xssValues = ['1; mode=block', '0'];
const frameValues = ['deny', 'sameorigin'];
// RFC 7469 §2.1.1: a pin is the base64 of a SHA-256 digest, 32 bytes, spelt canonically (a pin
// with stray bits would never equal the one a browser computes).
const isPin = (pin: unknown) => typeof pin === 'string' && fromBase64(pin)?.length === 32;
const maxSeconds = 2 ** 31 - 1;

function oneOf(where: string, value: unknown, allowed: readonly string[]): string {
  if (typeof value !== 'string' || !allowed.includes(value)) {
    throw new TypeError(
      `${where} must be ${allowed.map((a) => `'${a}'`).join(' or ')}; got ${String(value)}.`,
    );
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
  assertKnownKeys(where, overrides, ['xssProtection', 'frameOptions', 'contentSecurityPolicy']);
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

/**
 * The spec's security header set (spec 4.8) as a plugin: `X-XSS-Protection`, `X-Frame-Options`
 * and `Content-Security-Policy` on every response (beside the core's `nosniff`), compiled once
 * into always-on headers, so errors, 404s, 304s and the host's own answers carry them too;
 * `Strict-Transport-Security` (and `Public-Key-Pins` when pins are configured) on HTTPS
 * requests; per-route values through the `securityHeaders` route setting; and `requireHttps`.
 *
 * @example
 * ```ts
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
  assertKnownKeys('securityHeaders()', options, knownOptions);
  const fixed = HeaderBag.constant({
    'x-xss-protection': oneOf('xssProtection', options.xssProtection ?? '1; mode=block', xssValues),
    'x-frame-options': oneOf('frameOptions', options.frameOptions ?? 'deny', frameValues),
    'content-security-policy': policy(
      'contentSecurityPolicy',
      options.contentSecurityPolicy ?? "default-src 'none'; frame-ancestors 'none'",
    ),
  });
  const hsts = compileHsts(options.hsts);
  const pins = compilePins(options.publicKeyPins);
  if (options.requireHttps !== undefined && typeof options.requireHttps !== 'boolean') {
    throw new TypeError('requireHttps must be true or false.');
  }
  const requireHttps = options.requireHttps === true;
  // By the route's settings object: a route's HEAD shares its GET's, and no key is built per request.
  const overrides = new WeakMap<object, Readonly<ResponseHeaders>>();
  let anyOverride = false;
  const secureOnly = hsts !== undefined || pins !== undefined || requireHttps;

  const plugin: Plugin = {
    name: 'security-headers',
    routeConfig: ['securityHeaders'],
    headers: fixed,
    onRoute(route) {
      const compiled = compileOverrides(route);
      if (compiled === undefined) return;
      overrides.set(route.config, compiled);
      anyOverride = true;
    },
    preParsing(ctx: RequestContext) {
      if (!anyOverride || ctx.route === undefined) return;
      const own = overrides.get(ctx.route.config);
      if (own !== undefined) ctx.responseHeaders.merge(own);
    },
  };
  // Without HSTS, pins or requireHttps the plugin has no pre-routing work: no hook, no cost.
  if (!secureOnly) return plugin;
  return {
    ...plugin,
    onRequest(ctx: RequestContext) {
      if (!ctx.secure) {
        if (requireHttps) throw httpsRequired();
        return;
      }
      const record = ctx.responseHeaders.record;
      if (hsts !== undefined) record['strict-transport-security'] = hsts;
      if (pins !== undefined) record['public-key-pins'] = pins;
    },
  };
}
