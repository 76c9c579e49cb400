/** The options of the bearer plugin, and where its keys and claim rules come from. */
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import { isProduction, nodeEnv } from '../internal/platform.ts';
import type { RequestContext } from '../kernel/context.ts';
import { isPromise } from '../kernel/steps.ts';
import type { Store } from '../stores/store.ts';
import { type ClaimRules, standardScopes } from './claims.ts';
import type { RemoteKeys } from './jws.ts';
import { type TokenAlgorithm, TokenKeys } from './keys.ts';
import { RemoteKeySet } from './remote-keys.ts';

/**
 * A value known at start-up, or one read from each request (the request's own origin, say).
 *
 * @category Tokens
 */
export type PerRequest<T> = T | ((ctx: RequestContext) => T);

/**
 * Options of {@link bearer}.
 *
 * @category Tokens
 */
export interface BearerOptions {
  /**
   * The keys tokens are verified with (see {@link createTokenKeys}), or the promise of them, so
   * that an app can be built synchronously: requests wait for the keys once. Give either `keys`
   * (the library's own tokens, or a provider's public keys you hold) or `jwksUri`.
   */
  keys?: TokenKeys | Promise<TokenKeys>;
  /**
   * The URL of an identity provider's JWK set (its `jwks_uri`, RFC 8414 §2 / OpenID Connect
   * Discovery): fetched on first use, kept for `jwksMaxAgeMs`, and fetched again when a token
   * names a key the set lacks (a rotation). At most one fetch per `jwksCooldownMs`, whatever its
   * outcome, shared by every request that needs it. See [Your identity provider](../../../docs/identity-providers.md) for Keycloak,
   * Auth0, Okta, Entra ID and Cognito, and for what happens while the provider fails.
   */
  jwksUri?: string | URL;
  /**
   * The longest wait for the JWK set, body included, in milliseconds: past it, a token whose key
   * is not known yet is answered 503 (the provider is unreachable, the caller is not at fault).
   * @default 5000
   */
  jwksTimeoutMs?: number;
  /**
   * The least time between two fetches of the JWK set, in milliseconds, whatever the outcome of
   * the first: a provider that fails is not asked again before it. @default 30000
   */
  jwksCooldownMs?: number;
  /**
   * How long a fetched JWK set is used before it is fetched again, in milliseconds; at least
   * `jwksCooldownMs`. @default 600000
   */
  jwksMaxAgeMs?: number;
  /**
   * The largest JWK set read, in bytes: its declared `Content-Length`, and the body as it is
   * decoded (a small gzip that inflates past it is refused too). Reading stops at the first
   * byte past it, and the fetch counts as failed. @default 262144 (256 KiB)
   */
  jwksMaxBytes?: number;
  /**
   * The signature algorithms accepted. HMAC (`HS256`) only with `keys` holding a secret, never
   * with `jwksUri` (RFC 8725 §2.1); `none` never. @default with `jwksUri`: `['RS256', 'PS256',
   * 'ES256', 'ES384', 'EdDSA']`; with `keys`: each key's own algorithm
   */
  algorithms?: readonly TokenAlgorithm[];
  /**
   * The token type accepted in the header (`typ`, RFC 8725 §3.11): `'at+jwt'` requires an
   * RFC 9068 access token; `'jwt'` also takes `JWT` or no `typ`, as most providers issue access
   * tokens. @default `'jwt'` with `jwksUri`, `'at+jwt'` with `keys`
   */
  tokenType?: 'at+jwt' | 'jwt';
  /**
   * The scopes of a verified token's claims. @default `scope` (a space-separated string) and
   * `scp` (a string or an array, as Okta and Entra ID send it), together
   */
  scopesOf?: (claims: Readonly<Record<string, unknown>>) => readonly string[];
  /**
   * Whether each refused token is logged with why (issuer, audience, expiry, key, signature,
   * algorithm; never the token). @default on unless `NODE_ENV` is `production` or `test`
   */
  logRefusals?: boolean;
  /** The one issuer accepted (`iss`), or a function of the request that gives it. */
  issuer: PerRequest<string>;
  /**
   * The audiences accepted (`aud` must hold one), or a function of the request. Required, but
   * with `jwksUri` and `clientIds` it may be left out for a provider whose access tokens carry
   * no `aud` (Amazon Cognito): the client is checked instead.
   */
  audience?: PerRequest<string | readonly string[]>;
  /**
   * The clients whose tokens are accepted (the `client_id`, `azp`, `cid` or `appid` claim); any
   * other client's token is refused as invalid. @default any client
   */
  clientIds?: readonly string[];
  /** The realm of the `WWW-Authenticate` challenge. @default 'api' */
  realm?: string;
  /** What routes that do not set `auth` need. @default 'required' */
  auth?: 'required' | 'optional';
  /**
   * Whether the `access_token` query parameter is read (RFC 6750 §2.3). It leaks tokens into
   * logs and histories, so it is off; when on, responses to such requests are
   * `Cache-Control: private`. @default false
   */
  query?: boolean;
  /**
   * Whether the `access_token` parameter of a form-urlencoded body is read on routes that
   * accept form bodies (RFC 6750 §2.2). @default true
   */
  body?: boolean;
  /**
   * Where revoked token ids are kept until their tokens expire; share one store (Redis) between
   * instances so a revocation reaches them all. @default a MemoryStore of this plugin
   */
  store?: Store;
  /** The most verified tokens remembered; 0 turns the cache off. @default 10000 */
  cacheSize?: number;
  /** The longest token read, in characters; longer ones are refused before any crypto. @default 4096 */
  maxTokenLength?: number;
  /**
   * How often, at most, a remembered token is checked against the store again, in milliseconds:
   * the bound on how long a revocation made through another instance takes to reach this one.
   * @default 5000
   */
  revocationCheckMs?: number;
  /** Seconds of clock difference tolerated on `exp`, `nbf` and `iat`. @default 0 */
  clockTolerance?: number;
  /**
   * The longest life of an accepted token, in seconds: `exp - iat` must not exceed it, and `iat`
   * must not be ahead of the clock by more than `clockTolerance` (so a token's age is bounded
   * too). @default with `jwksUri`: 86400 (24 hours); with `keys`: no bound (your own tokens live
   * `accessTokenTtl`, up to 7 days)
   */
  maxTokenAge?: number;
  /** The clock, in milliseconds since the epoch, for tests. @default Date.now */
  now?: () => number;
}

const known = [
  'keys',
  'issuer',
  'audience',
  'realm',
  'auth',
  'query',
  'body',
  'store',
  'cacheSize',
  'maxTokenLength',
  'revocationCheckMs',
  'clockTolerance',
  'now',
  'jwksUri',
  'jwksTimeoutMs',
  'jwksCooldownMs',
  'jwksMaxAgeMs',
  'jwksMaxBytes',
  'maxTokenAge',
  'algorithms',
  'tokenType',
  'scopesOf',
  'logRefusals',
  'clientIds',
];

const everyAlgorithm: readonly TokenAlgorithm[] = [
  'EdDSA',
  'ES256',
  'ES384',
  'RS256',
  'PS256',
  'HS256',
];
const providerAlgorithms: readonly TokenAlgorithm[] = ['RS256', 'PS256', 'ES256', 'ES384', 'EdDSA'];

/** Where tokens are verified: the keys given, or a provider's JWK set. */
interface KeySource {
  keys: TokenKeys | Promise<TokenKeys> | RemoteKeys;
  claims: ClaimRules;
  /** Whether refused tokens are logged (through the service's logger), with why. */
  logRefusals: boolean;
  /** The longest life of a token in seconds, or `undefined` for no bound. */
  maxTokenAge: number | undefined;
}

function checkAlgorithms(given: unknown, remote: boolean): readonly TokenAlgorithm[] {
  if (given === undefined) return remote ? providerAlgorithms : everyAlgorithm;
  if (
    !Array.isArray(given) ||
    given.length === 0 ||
    !given.every((a) => (everyAlgorithm as readonly unknown[]).includes(a))
  ) {
    throw new TypeError(
      `bearer: algorithms must be a non-empty list of ${everyAlgorithm.map((a) => `'${a}'`).join(', ')}; 'none' is never accepted.`,
    );
  }
  if (remote && given.includes('HS256')) {
    throw new TypeError(
      "bearer: 'HS256' cannot be used with jwksUri: a provider's public keys must never verify an HMAC (RFC 8725 §2.1); remove it.",
    );
  }
  return [...given];
}

function jwksUrl(value: unknown): URL {
  let url: URL;
  try {
    url = new URL(value instanceof URL ? value.href : String(value));
  } catch {
    throw new TypeError(`bearer: jwksUri must be an absolute URL; got ${String(value)}.`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new TypeError(`bearer: jwksUri must be an https URL; got ${url.protocol}.`);
  }
  // In production a key set fetched in clear can be swapped on the way; only local addresses pass.
  const local =
    url.hostname === 'localhost' || url.hostname === '127.0.0.1' || url.hostname === '[::1]';
  if (url.protocol === 'http:' && isProduction() && !local) {
    throw new TypeError(
      `bearer: jwksUri must be https in production (got ${url.href}): keys fetched over http can be replaced on the way.`,
    );
  }
  return url;
}

/** Checks the key options of `bearer` and resolves where tokens are verified. */
export function keySource(options: BearerOptions): KeySource {
  assertKnownKeys('bearer', options, known);
  const { keys, jwksUri } = options;
  if (keys !== undefined && jwksUri !== undefined) {
    throw new TypeError(
      'bearer: give keys (tokens this service or you sign) or jwksUri (an identity provider), not both; use two bearer setups behind your own check if you need both.',
    );
  }
  const remote = jwksUri !== undefined;
  if (!remote && !(keys instanceof TokenKeys) && !isPromise(keys)) {
    throw new TypeError(
      "bearer: keys must be the TokenKeys of createTokenKeys(), or its promise (await createTokenKeys()); or give jwksUri to verify an identity provider's tokens.",
    );
  }
  const tokenType = options.tokenType ?? (remote ? 'jwt' : 'at+jwt');
  if (tokenType !== 'at+jwt' && tokenType !== 'jwt') {
    throw new TypeError(`bearer: tokenType must be 'at+jwt' or 'jwt'; got ${String(tokenType)}.`);
  }
  const scopesOf = options.scopesOf;
  if (scopesOf !== undefined && typeof scopesOf !== 'function') {
    throw new TypeError(
      'bearer: scopesOf must be a function of the claims that returns a list of scopes.',
    );
  }
  const clientIds = options.clientIds;
  if (
    clientIds !== undefined &&
    (!Array.isArray(clientIds) ||
      clientIds.length === 0 ||
      !clientIds.every((c) => typeof c === 'string' && c !== ''))
  ) {
    throw new TypeError('bearer: clientIds must be a non-empty list of client ids.');
  }
  if (options.audience === undefined && (!remote || clientIds === undefined)) {
    throw new TypeError(
      'bearer: audience is required (the aud your tokens carry); only with jwksUri and clientIds may it be left out, for a provider whose access tokens have no aud (Cognito).',
    );
  }
  const claims: ClaimRules = {
    clients: clientIds === undefined ? undefined : new Set(clientIds),
    typ: tokenType,
    algorithms: checkAlgorithms(options.algorithms, remote),
    strict: !remote && tokenType === 'at+jwt',
    scopes: scopesOf === undefined ? standardScopes : scopesFrom(scopesOf),
  };
  const log = options.logRefusals ?? (nodeEnv() !== 'production' && nodeEnv() !== 'test');
  if (typeof log !== 'boolean') throw new TypeError('bearer: logRefusals must be true or false.');
  const maxTokenAge =
    options.maxTokenAge === undefined && !remote
      ? undefined
      : assertInteger('bearer maxTokenAge', options.maxTokenAge ?? 86_400, 1, 31_536_000);
  if (!remote) return { keys: keys!, claims, logRefusals: log, maxTokenAge };
  return { keys: { remote: remoteKeys(jwksUri, options) }, claims, logRefusals: log, maxTokenAge };
}

/** The provider's key set of `jwksUri`, its bounds checked. */
function remoteKeys(jwksUri: string | URL, options: BearerOptions): RemoteKeySet {
  const cooldownMs = assertInteger(
    'bearer jwksCooldownMs',
    options.jwksCooldownMs ?? 30_000,
    0,
    86_400_000,
  );
  const maxAgeMs = assertInteger(
    'bearer jwksMaxAgeMs',
    options.jwksMaxAgeMs ?? 600_000,
    0,
    604_800_000,
  );
  if (maxAgeMs < cooldownMs) {
    throw new TypeError(
      `bearer: jwksMaxAgeMs (${maxAgeMs}) must be at least jwksCooldownMs (${cooldownMs}): the set is fetched at most once per cooldown; raise jwksMaxAgeMs or lower jwksCooldownMs.`,
    );
  }
  const now = options.now;
  return new RemoteKeySet(jwksUrl(jwksUri).href, {
    timeoutMs: assertInteger('bearer jwksTimeoutMs', options.jwksTimeoutMs ?? 5000, 1, 60_000),
    maxBytes: assertInteger(
      'bearer jwksMaxBytes',
      options.jwksMaxBytes ?? 262_144,
      1024,
      16_777_216,
    ),
    cooldownMs,
    maxAgeMs,
    now: typeof now === 'function' ? now : Date.now,
  });
}

/** A user's `scopesOf`, checked on each new token: a wrong answer refuses the token. */
function scopesFrom(
  scopesOf: (claims: Readonly<Record<string, unknown>>) => readonly string[],
): ClaimRules['scopes'] {
  return (claims) => {
    const list: unknown = scopesOf(claims);
    return Array.isArray(list) && list.every((s) => typeof s === 'string') ? list : undefined;
  };
}
