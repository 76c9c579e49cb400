/** The options of `createClient`, checked once when the client is made. */
import { MemoryCache, type ResponseCache, Validators } from './cache.ts';
import type { DeprecationNotice } from './headers.ts';
import { type OAuthClientOptions, TokenSource } from './oauth.ts';
import { type OriginPolicy, originList } from './origins.ts';
import { RateGate } from './rate-gate.ts';
import { defaultMaxBodySize } from './read-body.ts';
import { defaultStorage } from './sign-in.ts';
import { maxTimer } from './sleep.ts';

/**
 * How a client retries a 429 or 503 (spec 8.2).
 *
 * @category Client
 */
export interface RetryOptions {
  /** Retries of one call at most. @default 3 */
  retries?: number;
  /**
   * The longest wait, in ms, that a call accepts, for a retry (`Retry-After`, a reset) and for
   * the rate limit: a longer one rejects at once with a `ClientRefusedError` naming it. At most
   * 2147483647 (a timer's limit). @default 60000
   */
  maxWait?: number;
}

/**
 * The options of {@link createClient}.
 *
 * @category Client
 */
export interface ClientOptions {
  /** The service's base URL, such as `https://books.example.com` (paths are appended to it). */
  baseUrl: string;
  /** A bearer token, or a function that gives one for each call. @default none */
  token?: string | (() => string | Promise<string>);
  /** Tokens from the service's OAuth 2.0 token endpoint, refreshed as needed. @default none */
  oauth?: OAuthClientOptions;
  /** The `fetch` to call (a test's, a proxy's, an instrumented one). @default globalThis.fetch */
  fetch?: typeof fetch;
  /** Told once per endpoint (method and route template) that it is deprecated or has a sunset (spec 9.8). @default none */
  onDeprecation?: (notice: DeprecationNotice) => void;
  /**
   * Conditional GETs: `true` keeps the last 500 representations in memory, a {@link ResponseCache}
   * keeps them where you choose, `false` turns both the cache and `If-Match` on writes off.
   * @default true
   */
  cache?: boolean | ResponseCache;
  /** Retries of 429 and 503 answers, or `false` for none. @default `{ retries: 3, maxWait: 60000 }` */
  retry?: RetryOptions | false;
  /** Whether calls wait to stay under the limit the rate-limit headers state (spec 8.3). @default true */
  rateLimit?: boolean;
  /** Headers every call sends (to the base URL's origin only). @default `{ accept: 'application/json' }` */
  headers?: Record<string, string>;
  /**
   * Origins besides the base URL's that a `Link` or a redirect may lead to: they are followed
   * without credentials (no token, no headers but `Accept`). A link or redirect anywhere else,
   * or from https to http, rejects with a `ClientRefusedError`. @default []
   */
  followOrigins?: readonly string[];
  /**
   * The longest response body, in bytes (decoded), that the client reads; a longer one rejects
   * with a `ClientRefusedError`, read no further. @default 10485760 (10 MiB)
   */
  maxBodySize?: number;
}

/** A client's options, resolved. */
export interface ClientState {
  readonly base: string;
  /** Where credentials may go, and bare requests. */
  readonly origins: OriginPolicy;
  readonly maxBodySize: number;
  readonly fetch: typeof fetch;
  readonly token: (() => string | Promise<string>) | undefined;
  readonly tokens: TokenSource | undefined;
  /** Whether users sign in through the browser (`oauth.redirectUri`). */
  readonly signIn: boolean;
  readonly cache: ResponseCache | undefined;
  readonly validators: Validators | undefined;
  readonly gate: RateGate | undefined;
  readonly retries: number;
  readonly maxWait: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly onDeprecation: ((notice: DeprecationNotice) => void) | undefined;
  readonly deprecated: Set<string>;
  readonly now: () => number;
}

const optionKeys = [
  'baseUrl',
  'token',
  'oauth',
  'fetch',
  'onDeprecation',
  'cache',
  'retry',
  'rateLimit',
  'headers',
  'followOrigins',
  'maxBodySize',
];
const oauthKeys = [
  'tokenUrl',
  'clientId',
  'clientSecret',
  'username',
  'password',
  'scope',
  'issuer',
  'allowedOrigins',
  'redirectUri',
  'authorizationUrl',
  'storage',
];

function assertKeys(where: string, value: object, known: readonly string[]): void {
  for (const key of Object.keys(value)) {
    if (!known.includes(key)) {
      throw new TypeError(
        `${where}: unknown option "${key}"; the options are ${known.join(', ')}.`,
      );
    }
  }
}

/** Checks the options (a mistake is a `TypeError` that says how to fix it) and resolves them. */
export function resolveClientOptions(options: ClientOptions): ClientState {
  const where = 'createClient()';
  if (typeof options !== 'object' || options === null) {
    throw new TypeError(`${where} takes an options object with at least baseUrl.`);
  }
  assertKeys(where, options, optionKeys);
  let base: URL;
  try {
    base = new URL(options.baseUrl);
  } catch {
    throw new TypeError(
      `${where}: baseUrl must be an absolute http(s) URL such as https://books.example.com; got "${options.baseUrl}".`,
    );
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') {
    throw new TypeError(`${where}: baseUrl must be http or https; got "${base.protocol}".`);
  }
  if (options.token !== undefined && options.oauth !== undefined) {
    throw new TypeError(`${where}: give token or oauth, not both.`);
  }
  const fetchImpl = options.fetch ?? globalThis.fetch;
  if (typeof fetchImpl !== 'function') {
    throw new TypeError(
      `${where}: this runtime has no global fetch; pass one as the fetch option.`,
    );
  }
  const now = Date.now;
  const maxBodySize = options.maxBodySize ?? defaultMaxBodySize;
  if (!Number.isSafeInteger(maxBodySize) || maxBodySize < 0) {
    throw new TypeError(`${where}: maxBodySize is a whole number of bytes, such as 10485760.`);
  }
  const origins = {
    own: base.origin,
    follow: originList(`${where}: followOrigins`, options.followOrigins),
  };
  const tokens =
    options.oauth === undefined
      ? undefined
      : tokenSource(options.oauth, base, fetchImpl.bind(globalThis), now, maxBodySize);
  const token = options.token;
  const retry = options.retry === false ? { retries: 0 } : (options.retry ?? {});
  if (options.retry) assertKeys(`${where}: retry`, options.retry, ['retries', 'maxWait']);
  const retries = retry.retries ?? 3;
  const maxWait = retry.maxWait ?? 60_000;
  if (!Number.isInteger(retries) || retries < 0 || !(maxWait >= 0) || maxWait > maxTimer) {
    throw new TypeError(
      `${where}: retry.retries is a whole number and retry.maxWait ms from 0 to ${maxTimer} (a timer's longest wait).`,
    );
  }
  const cache =
    options.cache === false
      ? undefined
      : options.cache === true || options.cache === undefined
        ? new MemoryCache(500)
        : options.cache;
  const headers: Record<string, string> = { accept: 'application/json' };
  for (const [name, value] of Object.entries(options.headers ?? {})) {
    headers[name.toLowerCase()] = value;
  }
  return {
    // Paths are appended to the base as written: `https://x/api` + `/v1/books`.
    base: base.href.replace(/\/+$/, ''),
    origins,
    maxBodySize,
    fetch: fetchImpl.bind(globalThis),
    token: typeof token === 'string' ? () => token : token,
    tokens,
    signIn: options.oauth?.redirectUri !== undefined,
    cache,
    validators: options.cache === false ? undefined : new Validators(500),
    gate: options.rateLimit === false ? undefined : new RateGate(now),
    retries,
    maxWait,
    headers,
    onDeprecation: options.onDeprecation,
    deprecated: new Set(),
    now,
  };
}

/** The token source of the `oauth` option, checked. */
function tokenSource(
  oauth: OAuthClientOptions,
  base: URL,
  fetchImpl: typeof fetch,
  now: () => number,
  maxBodySize: number,
): TokenSource {
  const where = 'createClient(): oauth';
  assertKeys(where, oauth, oauthKeys);
  if (typeof oauth.clientId !== 'string' || oauth.clientId === '') {
    throw new TypeError(`${where}.clientId is required.`);
  }
  if (oauth.redirectUri !== undefined && oauth.username !== undefined) {
    throw new TypeError(
      `${where}: give redirectUri (users sign in at the authorization server) or username and password, not both.`,
    );
  }
  if (oauth.redirectUri !== undefined && !URL.canParse(oauth.redirectUri)) {
    throw new TypeError(
      `${where}.redirectUri is the absolute URL registered for the client, such as "https://app.example.com/callback"; got "${oauth.redirectUri}".`,
    );
  }
  const storage = oauth.storage as Partial<Record<string, unknown>> | undefined;
  if (
    storage !== undefined &&
    !['getItem', 'setItem', 'removeItem'].every((m) => typeof storage?.[m] === 'function')
  ) {
    throw new TypeError(
      `${where}.storage keeps a sign-in's verifier: give an object with getItem, setItem and removeItem, such as sessionStorage.`,
    );
  }
  const issuer = oauth.issuer ?? base.origin;
  let url: URL | undefined;
  try {
    url = new URL(issuer);
  } catch {
    url = undefined;
  }
  // RFC 8414 §2: an https URL (http on a test's loopback) with no query or fragment.
  if (url === undefined || !/^https?:$/.test(url.protocol) || url.search || url.hash) {
    throw new TypeError(
      `${where}.issuer is the issuer's URL as its metadata names it, such as "https://auth.example.com"; got "${issuer}".`,
    );
  }
  return new TokenSource({
    options: oauth,
    base: base.href,
    issuer,
    allowed: originList(`${where}.allowedOrigins`, oauth.allowedOrigins),
    storage: oauth.storage ?? defaultStorage(),
    fetch: fetchImpl,
    now,
    maxBodySize,
  });
}
