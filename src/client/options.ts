/** The options of `createClient`, checked once when the client is made. */
import { MemoryCache, type ResponseCache, Validators } from './cache.ts';
import type { DeprecationNotice } from './headers.ts';
import { type OAuthClientOptions, TokenSource } from './oauth.ts';
import { RateGate } from './rate-gate.ts';

/**
 * How a client retries a 429 or 503 (spec 8.2).
 *
 * @category Client
 */
export interface RetryOptions {
  /** Retries of one call at most. @default 3 */
  retries?: number;
  /** The longest wait, in ms, that a call accepts; a longer `Retry-After` rejects at once. @default 60000 */
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
  /** Headers every call sends. @default `{ accept: 'application/json' }` */
  headers?: Record<string, string>;
}

/** A client's options, resolved. */
export interface ClientState {
  readonly base: string;
  readonly fetch: typeof fetch;
  readonly token: (() => string | Promise<string>) | undefined;
  readonly tokens: TokenSource | undefined;
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
];
const oauthKeys = ['tokenUrl', 'clientId', 'clientSecret', 'username', 'password', 'scope'];

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
  let tokens: TokenSource | undefined;
  if (options.oauth !== undefined) {
    assertKeys(`${where}: oauth`, options.oauth, oauthKeys);
    if (typeof options.oauth.clientId !== 'string' || options.oauth.clientId === '') {
      throw new TypeError(`${where}: oauth.clientId is required.`);
    }
    tokens = new TokenSource(options.oauth, base.href, fetchImpl.bind(globalThis), now);
  }
  const token = options.token;
  const retry = options.retry === false ? { retries: 0 } : (options.retry ?? {});
  if (options.retry) assertKeys(`${where}: retry`, options.retry, ['retries', 'maxWait']);
  const retries = retry.retries ?? 3;
  const maxWait = retry.maxWait ?? 60_000;
  if (!Number.isInteger(retries) || retries < 0 || !(maxWait >= 0)) {
    throw new TypeError(`${where}: retry.retries is a whole number and retry.maxWait ms ≥ 0.`);
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
    fetch: fetchImpl.bind(globalThis),
    token: typeof token === 'string' ? () => token : token,
    tokens,
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
