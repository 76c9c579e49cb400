/**
 * Verification of a compact JWS access token (RFC 7515, RFC 9068 §4) with WebCrypto, following
 * RFC 8725: the header is checked against the key it names before any signature work, and the
 * claims only once the signature holds.
 */
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

const encoder = new TextEncoder();
const decoder = new TextDecoder('utf-8', { fatal: true });
const verifyParams: Record<TokenAlgorithm, AlgorithmIdentifier | EcdsaParams> = {
  EdDSA: { name: 'Ed25519' },
  ES256: { name: 'ECDSA', hash: 'SHA-256' },
  HS256: { name: 'HMAC' },
};

/** A base64url part decoded as a JSON object, or `undefined` when it is not one. */
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

function audienceHolds(aud: unknown, wanted: string | readonly string[]): boolean {
  const has = typeof aud === 'string' ? [aud] : aud;
  if (!Array.isArray(has)) return false;
  if (typeof wanted === 'string') return has.includes(wanted);
  for (const a of wanted) if (has.includes(a)) return true;
  return false;
}

/** RFC 9068 §4 steps 3, 4, 7 and RFC 7519 §4.1: the claims, judged at `nowMs`. */
function claimsProblem(
  payload: Record<string, unknown>,
  expected: JwsExpectations,
  nowMs: number,
): JwsProblem | undefined {
  const { iss, aud, exp, nbf, iat } = payload;
  if (iss !== expected.issuer || !audienceHolds(aud, expected.audience)) return 'invalid';
  if (typeof exp !== 'number' || !Number.isFinite(exp)) return 'invalid';
  if (typeof iat !== 'number' || !Number.isFinite(iat)) return 'invalid';
  if (nbf !== undefined) {
    if (typeof nbf !== 'number' || !Number.isFinite(nbf)) return 'invalid';
    if (nbf * 1000 > nowMs + expected.tolerance * 1000) return 'invalid';
  }
  if (nowMs >= (exp + expected.tolerance) * 1000) return 'expired';
  return undefined;
}

/**
 * Verifies `token`, a compact JWS already checked for its shape (three base64url parts): a
 * problem at once when its header does not fit a key, else the promise of its verified claims
 * or of a problem. Unknown critical extensions (`crit`) and unencoded payloads (`b64`) are
 * refused (RFC 7515 §4.1.11, RFC 7797 §3).
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
  // RFC 4648 §3.5: non-zero spare bits in the last character are refused, so a signature has
  // one spelling and a token string names one token (for the cache and any blocklist).
  const signature = fromBase64Url(token.slice(second + 1));
  if (signature === undefined) return 'malformed';
  const signed = encoder.encode(token.slice(0, second));
  return crypto.subtle.verify(verifyParams[key.alg], key.verifyKey, signature, signed).then(
    (valid): VerifiedJws | JwsProblem => {
      if (!valid) return 'invalid';
      const payload = jsonPart(token.slice(first + 1, second));
      if (payload === undefined) return 'malformed';
      return claimsProblem(payload, expected, now()) ?? { payload, key };
    },
    // A signature of the wrong length for the key, say.
    (): JwsProblem => 'invalid',
  );
}
