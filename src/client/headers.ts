/**
 * Reading what a response says to its client: `Retry-After`, the rate-limit fields, `Link`,
 * `Deprecation`, `Sunset` and a Bearer challenge. Each reader is linear in the header's length.
 */

/** What a response says of the caller's rate limit. */
export interface LimitState {
  /** Requests left in the window. */
  readonly remaining?: number;
  /** Requests allowed per window. */
  readonly limit?: number;
  /** When the window resets, in the client's clock (ms since the epoch). */
  readonly resetAt?: number;
}

const wholeNumber = (text: string | null | undefined): number | undefined => {
  if (text == null) return undefined;
  const trimmed = text.trim();
  return /^\d{1,15}$/.test(trimmed) ? Number(trimmed) : undefined;
};

/**
 * The server's clock minus the client's, from `Date` (RFC 9110 §6.6.1), so that an absolute time
 * the server sends is read in the client's clock; 0 without a usable `Date`.
 */
function skewOf(headers: Headers, now: number): number {
  const date = headers.get('date');
  const server = date ? Date.parse(date) : Number.NaN;
  // Date has a one-second resolution: a skew under two seconds is the rounding, not a clock.
  return Number.isNaN(server) || Math.abs(server - now) < 2000 ? 0 : server - now;
}

/**
 * How long `Retry-After` asks to wait, in ms: delay-seconds or an HTTP-date (RFC 9110 §10.2.3);
 * `undefined` without one.
 */
export function retryAfterOf(headers: Headers, now: number): number | undefined {
  const value = headers.get('retry-after');
  if (value == null) return undefined;
  const seconds = wholeNumber(value);
  if (seconds !== undefined) return seconds * 1000;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - skewOf(headers, now) - now);
}

/**
 * The most restrictive of the IETF `RateLimit` field's items (`"default";r=9;t=30`): the fewest
 * remaining, and the latest reset among those at zero (draft-ietf-httpapi-ratelimit-headers).
 */
function ietfLimit(value: string, now: number): LimitState | undefined {
  let best: { r: number; t: number } | undefined;
  // Items are comma-separated; their parameters are `;key=value` (RFC 9651 §3.1).
  for (const item of value.split(',')) {
    let r: number | undefined;
    let t: number | undefined;
    for (const part of item.split(';').slice(1)) {
      const [key, raw] = part.split('=', 2);
      const n = wholeNumber(raw);
      if (key?.trim() === 'r') r = n;
      else if (key?.trim() === 't') t = n;
    }
    if (r === undefined) continue;
    const candidate = { r, t: t ?? 0 };
    if (best === undefined || r < best.r || (r === best.r && candidate.t > best.t)) {
      best = candidate;
    }
  }
  return best && { remaining: best.r, resetAt: now + best.t * 1000 };
}

/**
 * The rate limit a response states: the IETF `RateLimit` field when sent (its `t` is relative,
 * so no clock is involved), else `X-RateLimit-Remaining` and `X-RateLimit-Reset` (spec 8.3; epoch
 * seconds, or seconds from now when the value is small) or the older `RateLimit-Remaining` and
 * `RateLimit-Reset`. `undefined` when it says nothing.
 */
export function limitOf(headers: Headers, now: number): LimitState | undefined {
  const limit =
    wholeNumber(headers.get('x-ratelimit-limit')) ?? wholeNumber(headers.get('ratelimit-limit'));
  const ietf = headers.get('ratelimit');
  if (ietf !== null) {
    const state = ietfLimit(ietf, now);
    if (state) return limit === undefined ? state : { ...state, limit };
  }
  const remaining =
    wholeNumber(headers.get('x-ratelimit-remaining')) ??
    wholeNumber(headers.get('ratelimit-remaining'));
  if (remaining === undefined) return undefined;
  const reset =
    wholeNumber(headers.get('x-ratelimit-reset')) ?? wholeNumber(headers.get('ratelimit-reset'));
  let resetAt: number | undefined;
  if (reset !== undefined) {
    // An epoch in seconds is past 10^9; a smaller number counts seconds from now.
    resetAt = reset > 1e9 ? reset * 1000 - skewOf(headers, now) : now + reset * 1000;
  }
  return {
    remaining,
    ...(limit === undefined ? {} : { limit }),
    ...(resetAt === undefined ? {} : { resetAt }),
  };
}

/**
 * The target of the first link of relation `rel` in `Link` (RFC 8288 §3), resolved against
 * `base`; `undefined` without one.
 */
export function linkOf(headers: Headers, rel: string, base: string): string | undefined {
  const value = headers.get('link');
  if (value === null) return undefined;
  // `<uri>; param; param, <uri>; …`: URIs cannot hold `>`, so the split is at each `<`.
  const pattern = /<([^>]*)>([^<]*)/g;
  for (let m = pattern.exec(value); m !== null; m = pattern.exec(value)) {
    const rels = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(m[2] ?? '');
    const names = (rels?.[1] ?? rels?.[2] ?? '').toLowerCase().split(/\s+/);
    if (names.includes(rel)) return new URL(m[1] ?? '', base).href;
  }
  return undefined;
}

/** What `Deprecation` and `Sunset` say of an endpoint (RFC 9745, RFC 8594). */
export interface DeprecationNotice {
  /** The method of the call that was told. */
  readonly method: string;
  /** The endpoint: the route template the call used (`/v1/authors/:id`). */
  readonly path: string;
  /** The URL of the call. */
  readonly url: string;
  /** When the endpoint was (or will be) deprecated; `true` when the date is not given. */
  readonly deprecation?: Date | true;
  /** When the endpoint stops answering (RFC 8594). */
  readonly sunset?: Date;
  /** The `successor-version` link, where to move to. */
  readonly successor?: string;
  /** The `deprecation` (or `sunset`) link: where the change is explained. */
  readonly documentation?: string;
}

/** A `Deprecation` value: `@<epoch seconds>` (RFC 9745 §2.1), `true` or an HTTP-date (earlier drafts). */
function deprecationDate(value: string): Date | true {
  const trimmed = value.trim();
  const epoch = /^@(-?\d{1,15})$/.exec(trimmed);
  if (epoch) return new Date(Number(epoch[1]) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? true : new Date(date);
}

/** The deprecation a response announces, or `undefined` when it announces none. */
export function deprecationOf(
  headers: Headers,
  method: string,
  path: string,
  url: string,
): DeprecationNotice | undefined {
  const deprecation = headers.get('deprecation');
  const sunset = headers.get('sunset');
  if (deprecation === null && sunset === null) return undefined;
  const sunsetAt = sunset === null ? Number.NaN : Date.parse(sunset);
  const successor = linkOf(headers, 'successor-version', url);
  const documentation = linkOf(headers, 'deprecation', url) ?? linkOf(headers, 'sunset', url);
  return {
    method,
    path,
    url,
    ...(deprecation === null ? {} : { deprecation: deprecationDate(deprecation) }),
    ...(Number.isNaN(sunsetAt) ? {} : { sunset: new Date(sunsetAt) }),
    ...(successor === undefined ? {} : { successor }),
    ...(documentation === undefined ? {} : { documentation }),
  };
}

/** Whether a 401 names `invalid_token` in its Bearer challenge (RFC 6750 §3.1). */
export function isInvalidToken(headers: Headers): boolean {
  return /\berror\s*=\s*"?invalid_token"?/i.test(headers.get('www-authenticate') ?? '');
}
