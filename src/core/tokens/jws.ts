/**
 * Verification of a compact JWS access token (RFC 7515, RFC 9068 §4) through jose's `jwtVerify`,
 * with the rules of RFC 8725 around it: every segment canonical base64url, the header checked
 * against the key it names before any signature work, and the claims only once the signature holds.
 */
import { jwtVerify } from 'jose';
import { fromBase64Url } from '../internal/base64url.ts';
import type { TokenAlgorithm, TokenKey, TokenKeys } from './keys.ts';

/** Why a token is refused, before the cache or the store are asked. */
export type JwsProblem = 'malformed' | 'invalid' | 'expired';

/** What a token must name, and the clock to judge it by. */
export interface JwsExpectations {
  /** The one accepted issuer. */
  issuer: string;
  /** The accepted audiences: the token's `aud` must hold at least one. */
  audience: string | readonly string[];
  /** Seconds of tolerated clock difference. */
  tolerance: number;
}

/** A token whose signature and claims hold. */
export interface VerifiedJws {
  /** The claims. */
  payload: Record<string, unknown>;
  /** The key that verified it. */
  key: TokenKey;
}

const decoder = new TextDecoder('utf-8', { fatal: true });
// jose checks `alg` against a list: the key's own algorithm only (RFC 8725 §3.1), one list each.
const allowed: Record<TokenAlgorithm, TokenAlgorithm[]> = {
  EdDSA: ['EdDSA'],
  ES256: ['ES256'],
  HS256: ['HS256'],
};
// RFC 9068 §2.2 (RFC 7519 §4.1.4, §4.1.6): jose checks presence and type, these must be numbers.
const requiredClaims = ['exp', 'iat'];

/**
 * A base64url segment decoded as a JSON object; `undefined` when it is not canonical base64url
 * (RFC 4648 §3.5: non-zero spare bits would give one token several spellings), not UTF-8 or
 * not a JSON object.
 */
function jsonPart(part: string): Record<string, unknown> | undefined {
  const bytes = fromBase64Url(part);
  if (bytes === undefined) return undefined;
  try {
    const value: unknown = JSON.parse(decoder.decode(bytes));
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** RFC 9068 §4 step 1: `at+jwt`, with or without `application/`, in any case (RFC 8725 §3.11). */
function isAccessTokenType(typ: unknown): boolean {
  if (typeof typ !== 'string') return false;
  const t = typ.toLowerCase();
  return t === 'at+jwt' || t === 'application/at+jwt';
}

/** The key of the header, only if the header's `alg` is that key's one algorithm (RFC 8725 §3.1). */
function keyFor(header: Record<string, unknown>, keys: TokenKeys): TokenKey | undefined {
  const { kid, alg } = header;
  const key = kid === undefined ? keys.sole : typeof kid === 'string' ? keys.find(kid) : undefined;
  return key !== undefined && alg === key.alg ? key : undefined;
}

const finite = (value: unknown) => typeof value === 'number' && Number.isFinite(value);

/** What jose's refusal means to the client: a broken token, an expired one, or an invalid one. */
function problemOf(error: unknown): JwsProblem {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ERR_JWT_EXPIRED') return 'expired';
  if (code === 'ERR_JWS_INVALID' || code === 'ERR_JWT_INVALID') return 'malformed';
  // A failed signature or claim check, or a signature of the wrong length for the key, say.
  return 'invalid';
}

/**
 * Verifies `token`, a compact JWS already checked for its shape (three base64url parts): a
 * problem at once when a segment is not canonical base64url or its header does not fit a key,
 * else the promise of its verified claims or of a problem. Unknown critical extensions (`crit`)
 * and unencoded payloads (`b64`) are refused (RFC 7515 §4.1.11, RFC 7797 §3). jose then checks
 * the signature with that key and algorithm alone, `typ`, `iss`, `aud`, `exp`, `nbf` and `iat`
 * at `now()`, with `tolerance` seconds of clock difference (RFC 9068 §4).
 */
export function verifyJws(
  token: string,
  keys: TokenKeys,
  expected: JwsExpectations,
  now: () => number,
): JwsProblem | Promise<VerifiedJws | JwsProblem> {
  const first = token.indexOf('.');
  const second = token.indexOf('.', first + 1);
  const header = jsonPart(token.slice(0, first));
  if (header === undefined) return 'malformed';
  if (header.crit !== undefined || header.b64 !== undefined) return 'invalid';
  if (!isAccessTokenType(header.typ)) return 'invalid';
  const key = keyFor(header, keys);
  if (key === undefined) return 'invalid';
  // jose's decoder ignores spare bits; one token has one spelling here (RFC 4648 §3.5).
  if (
    fromBase64Url(token.slice(first + 1, second)) === undefined ||
    fromBase64Url(token.slice(second + 1)) === undefined
  ) {
    return 'malformed';
  }
  return jwtVerify(token, key.verifyKey, {
    algorithms: allowed[key.alg],
    typ: 'at+jwt',
    issuer: expected.issuer,
    audience: expected.audience as string | string[],
    clockTolerance: expected.tolerance,
    currentDate: new Date(now()),
    requiredClaims,
  }).then(({ payload }): VerifiedJws | JwsProblem => {
    const { exp, iat, nbf } = payload;
    // jose takes any number; JSON's 1e999 is Infinity, a token that would never expire.
    if (!finite(exp) || !finite(iat) || (nbf !== undefined && !finite(nbf))) return 'invalid';
    return { payload: payload as Record<string, unknown>, key };
  }, problemOf);
}
