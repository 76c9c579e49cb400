/** The options of {@link oauthServer}: clients, users, scopes, token lifetimes, the store. */
import type { RequestContext } from '../kernel/context.ts';
import type { Store } from '../stores/store.ts';

/**
 * The grant types a client may be allowed. `password` and `implicit` are supported but no client
 * gets them unless its configuration names them (RFC 9700 §2.4, §2.1.2 explain why).
 *
 * @category OAuth server
 */
export type GrantType =
  | 'authorization_code'
  | 'client_credentials'
  | 'password'
  | 'refresh_token'
  | 'implicit';

/**
 * One registered client application.
 *
 * @category OAuth server
 */
export interface OAuthClient {
  /** The `client_id`. */
  id: string;
  /** The client secret in clear. Prefer {@link OAuthClient.secretHash}. */
  secret?: string;
  /** The secret as {@link hashClientSecret} stores it (`sha256:…`), so the configuration holds no secret. */
  secretHash?: string;
  /**
   * The grants this client may use. A client with neither `secret` nor `secretHash` is a public
   * client (RFC 6749 §2.1): it sends only its `client_id` and may use `authorization_code` (with
   * PKCE), `refresh_token` and `implicit`.
   */
  grants: readonly GrantType[];
  /** The scopes this client may ever get. @default every scope of {@link OAuthServerOptions.scopes} */
  scopes?: readonly string[];
  /** The redirect URIs registered for the authorization endpoint, compared exactly (RFC 9700 §2.1). @default [] */
  redirectUris?: readonly string[];
  /**
   * Whether this client may introspect tokens issued to other clients (a resource server).
   * Any client may introspect its own. @default false
   */
  introspectAll?: boolean;
}

/**
 * A user the service's {@link OAuthServerOptions.verifyUser} has authenticated.
 *
 * @category OAuth server
 */
export interface OAuthUser {
  /** The token's `sub`: a stable id that never changes (not necessarily the login name). */
  subject: string;
  /** The scopes this user may grant; a request for more gets less (or `invalid_scope`). */
  scopes: readonly string[];
}

/**
 * What the token issuer is asked for; the shape of `issueAccessToken` of the tokens module.
 *
 * @category OAuth server
 */
export interface AccessTokenRequest {
  /** The `iss` claim. */
  issuer: string;
  /** The `aud` claim. */
  audience: string;
  /** The `sub` claim; absent for a client-credentials token (which acts for no user). */
  subject?: string;
  /** The `client_id` claim. */
  clientId: string;
  /** The granted scopes, space-separated. */
  scope: string;
  /** The lifetime in seconds. */
  ttlSeconds: number;
}

/**
 * How the OAuth server reaches the access-token side: issue a token, verify one (for
 * introspection and revocation), revoke one by `jti`, and the public keys for the JWKS route.
 *
 * @category OAuth server
 */
export interface AccessTokenSide {
  /**
   * Issues an access token: the token, `expiresIn` (seconds), its `jti` and `expiresAt` (epoch
   * seconds), as `issueAccessToken` of the tokens module answers.
   */
  issue(request: AccessTokenRequest): Promise<{
    /** The token itself. */
    token: string;
    /** Seconds until it expires (`expires_in`). */
    expiresIn: number;
    /** Its `jti`, for revocation. */
    jti: string;
    /** When it expires, in seconds since the epoch. */
    expiresAt: number;
  }>;
  /**
   * Verifies an access token for introspection and revocation and returns its claims (`jti`,
   * `exp`, `client_id`, `scope`, `sub`…); rejects for any token it refuses (forged, expired,
   * revoked). `ctx` is the introspection or revocation request, for a per-request issuer.
   */
  verify?(token: string, ctx: RequestContext): Promise<Readonly<Record<string, unknown>>>;
  /** Revokes an access token by its `jti` until it would have expired (`expiresAt`, epoch seconds). */
  revoke?(jti: string, expiresAt: number): Promise<void> | void;
  /** The public JSON Web Key Set served at the JWKS route. */
  jwks?(): unknown;
}

/**
 * Options of {@link oauthServer}.
 *
 * @category OAuth server
 */
export interface OAuthServerOptions {
  /** The registered clients. */
  clients: readonly OAuthClient[];
  /** The access-token side: issuing, verifying, revoking, JWKS. */
  tokens: AccessTokenSide;
  /** Every scope the server knows; a request for another is `invalid_scope`. */
  scopes: readonly string[];
  /** Scopes of public information: the only ones a client-credentials token may hold (spec 5.4). @default [] */
  publicScopes?: readonly string[];
  /**
   * Checks a user's password for the password grant and the authorization endpoint; resolves to
   * the user, or `undefined` for an unknown user and a wrong password alike. Needed when a client
   * has the `password` grant.
   */
  verifyUser?: (
    username: string,
    password: string,
    ctx: RequestContext,
  ) => Promise<OAuthUser | undefined> | OAuthUser | undefined;
  /**
   * The issuer URL (`iss` of every token, RFC 8414 `issuer`): set it in production, to the
   * server's public URL, the same on every instance. A function is asked until it returns one,
   * which is then kept (for a server that learns its origin when it listens on port 0). Without
   * it, each request's origin is the issuer, so tokens, metadata and revocation follow the `Host`
   * a client sends; under NODE_ENV=production that is warned about.
   * @default the origin the request came to (`http://host:port`), for development
   */
  issuer?: string | (() => string);
  /** The `aud` of access tokens. @default the issuer */
  audience?: string;
  /**
   * Where the server's state lives (refresh-token families, codes, the access tokens issued from
   * each; the failure counters too when it is a shared store, see `BruteForceOptions.store`).
   * Every record fails closed when a store drops it (a lost family is an unknown refresh token,
   * the user signs in again), so a memory store for it should evict when full; one that refuses
   * is warned about at start-up.
   * @default a new MemoryStore({ whenFull: 'evict' }) of its own
   */
  store?: Store;
  /**
   * The most refresh-token families one user holds with one client: a family is one sign-in and
   * every token rotated from it (RFC 9700 §4.14.2). A sign-in past the limit ends the family used
   * least recently (an expired or revoked one first), so one user's sign-ins take a bounded part
   * of the store, whatever their number. @default 10
   */
  maxRefreshFamilies?: number;
  /** Access-token lifetime in seconds. @default 3600 */
  accessTokenTtl?: number;
  /** Refresh-token lifetime in seconds, counted from each rotation. @default 1209600 (14 days) */
  refreshTokenTtl?: number;
  /** Authorization-code lifetime in seconds (RFC 6749 §4.1.2 says at most 10 minutes). @default 60 */
  codeTtl?: number;
  /** Whether clients may send their secret in the body (`client_secret_post`) instead of Basic. @default false */
  clientSecretPost?: boolean;
  /** The path the endpoints live under. @default '/v1/oauth2' */
  basePath?: string;
  /** The authorization endpoint the service serves (with the helpers), for the metadata. @default none */
  authorizationEndpoint?: string;
  /**
   * The count of failed logins, shared by the token endpoint and the authorization helpers'
   * `signIn`: per username (10 per 900 s), per client and source network (100 per 900 s; made-up
   * client ids per network alone) and per client from every network (1000 per 3600 s). Past a
   * limit the answer is 429 with `Retry-After`, the right password included; `false` turns the
   * counting off. @default {}
   */
  bruteForce?: BruteForceOptions | false;
}

/**
 * Limits of the count of failed logins. Every attempt is counted before its password or secret
 * is compared, so concurrent guesses never get past a limit; a right one gives its count back.
 *
 * @category OAuth server
 */
export interface BruteForceOptions {
  /** Failed passwords per username (case-insensitive) within `windowSeconds`. @default 10 */
  maxFailures?: number;
  /**
   * Failed logins (a client secret or a user's password) per client and source network within
   * `windowSeconds`: one address locks a client out only for its own network. Failures with a
   * client id nobody registered count per network alone. @default 100
   */
  maxClientFailures?: number;
  /** The window of `maxFailures` and `maxClientFailures`, in seconds. @default 900 */
  windowSeconds?: number;
  /**
   * Failed logins per client from every network within `clientWindowSeconds`: the ceiling that
   * stops a guesser spread over many networks. It must be more than one network can reach on its
   * own. @default 10 × maxClientFailures
   */
  maxClientTotalFailures?: number;
  /** The window of `maxClientTotalFailures`, in seconds. @default 4 × windowSeconds */
  clientWindowSeconds?: number;
  /** How many leading bits of an IPv6 address make one network, as the rate limiter counts. @default 56 */
  ipv6Prefix?: number;
  /**
   * Where the counters live. @default a `MemoryStore` of their own that evicts its oldest keys
   * when full, when `store` is a `MemoryStore` or not given; else `store` itself
   */
  store?: Store;
}
