/** RFC 9068 access tokens: JWTs with `typ: at+jwt`, signed by the service's current key. */
import { SignJWT } from 'jose';
import type { TokenKeys } from './keys.ts';

/**
 * What {@link issueAccessToken} puts in a token.
 *
 * @category Tokens
 */
export interface AccessTokenClaims {
  /** The issuer (`iss`): the authorization server's URL, as its metadata names it. */
  issuer: string;
  /** The audience (`aud`): the resource server(s) the token is for. */
  audience: string | readonly string[];
  /**
   * The user (`sub`). Without one (client credentials) `sub` is the client id, as RFC 9068
   * §2.2 asks, and the token has no user (a route with `user: true` refuses it).
   */
  subject?: string | undefined;
  /** The client the token was issued to (`client_id`). */
  clientId: string;
  /** The granted scopes, space-separated (`scope`); empty for none. */
  scope: string;
  /** How long the token lives, in seconds (a whole number above 0). */
  ttlSeconds: number;
  /** The current time in milliseconds since the epoch, for tests. @default Date.now() */
  now?: number;
}

/**
 * A token made by {@link issueAccessToken}, with what the token endpoint answers and what
 * revocation needs.
 *
 * @category Tokens
 */
export interface IssuedAccessToken {
  /** The compact JWT. */
  token: string;
  /** Seconds until it expires, for `expires_in`. */
  expiresIn: number;
  /** Its unique id (`jti`), for revocation. */
  jti: string;
  /** When it expires (`exp`), in seconds since the epoch. */
  expiresAt: number;
}

function need(name: string, value: unknown): string {
  if (typeof value !== 'string' || value === '') {
    throw new TypeError(`issueAccessToken: ${name} must be a non-empty string.`);
  }
  return value;
}

/**
 * Makes an RFC 9068 access token, a JWT of type `at+jwt` with `iss`, `sub`, `aud`, `client_id`,
 * `iat`, `exp`, `jti` and `scope`, signed with the signing key of `keys` (its `kid` in the
 * header). Tokens that `bearer()` of `api-conventions` verifies.
 *
 * @example
 * ```ts
 * import { createTokenKeys } from 'api-conventions';
 * import { issueAccessToken } from 'api-conventions/oauth';
 *
 * const keys = await createTokenKeys();
 * const { token, expiresIn } = await issueAccessToken(keys, {
 *   issuer: 'https://api.example.com', audience: 'https://api.example.com',
 *   subject: 'alice', clientId: 'demo-client', scope: 'books:read', ttlSeconds: 3600,
 * });
 * ```
 *
 * @category Tokens
 */
export async function issueAccessToken(
  keys: TokenKeys,
  claims: AccessTokenClaims,
): Promise<IssuedAccessToken> {
  const issuer = need('issuer', claims.issuer);
  const clientId = need('clientId', claims.clientId);
  const audience =
    typeof claims.audience === 'string' ? need('audience', claims.audience) : [...claims.audience];
  if (
    Array.isArray(audience) &&
    (audience.length === 0 || audience.some((a) => typeof a !== 'string' || a === ''))
  ) {
    throw new TypeError('issueAccessToken: audience must be a non-empty string or list of them.');
  }
  if (claims.subject !== undefined) need('subject', claims.subject);
  if (claims.subject === clientId) {
    // A token without a user has sub = client_id (RFC 9068 §2.2); a user of that name would be
    // taken for no user at all.
    throw new TypeError(
      `issueAccessToken: subject "${clientId}" equals the client id, which marks a token without a user; give users ids that no client has.`,
    );
  }
  if (typeof claims.scope !== 'string') {
    throw new TypeError('issueAccessToken: scope must be a space-separated string.');
  }
  const ttl = claims.ttlSeconds;
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 1) {
    throw new TypeError(
      `issueAccessToken: ttlSeconds must be a whole number above 0; got ${String(ttl)}.`,
    );
  }
  const key = keys.signing;
  const iat = Math.floor((claims.now ?? Date.now()) / 1000);
  const exp = iat + ttl;
  const jti = crypto.randomUUID();
  const payload: Record<string, unknown> = { client_id: clientId };
  if (claims.scope !== '') payload.scope = claims.scope;
  const token = await new SignJWT(payload)
    .setProtectedHeader({ alg: key.alg, typ: 'at+jwt', kid: key.kid })
    .setIssuer(issuer)
    .setSubject(claims.subject ?? clientId)
    .setAudience(audience as string | string[])
    .setIssuedAt(iat)
    .setExpirationTime(exp)
    .setJti(jti)
    .sign(key.signKey!);
  return { token, expiresIn: ttl, jti, expiresAt: exp };
}
