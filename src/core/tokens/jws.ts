/**
 * Verification of a compact JWS access token (RFC 7515, RFC 9068 §4) through jose's `jwtVerify`,
 * with the rules of RFC 8725 around it: every segment canonical base64url, the header checked
 * against the key it names before any signature work, and the claims only once the signature holds.
 */
import { type JWTVerifyGetKey, jwtVerify } from 'jose';
import { fromBase64Url } from '../internal/base64url.ts';
import { type TokenAlgorithm, type TokenKey, TokenKeys } from './keys.ts';
import type { RemoteKeySet } from './remote-keys.ts';

/** Why a token is refused, before the cache or the store are asked. */
type JwsProblem = 'malformed' | 'invalid' | 'expired' | 'unavailable';

/**
 * A refusal: the problem the client is told (401, or 503 when the provider's keys could not be
 * fetched) and why, in words for a development log (never the token).
 */
export interface Refusal {
  readonly problem: JwsProblem;
  readonly why: string;
}

/** The keys of an identity provider, fetched from its JWKS within bounds (remote-keys.ts). */
export interface RemoteKeys {
  readonly remote: RemoteKeySet;
}

/** What a token must name, and the clock to judge it by. */
export interface JwsExpectations {
  /** The one accepted issuer. */
  issuer: string;
  /** The accepted audiences: the token's `aud` must hold at least one; `null`: not checked. */
  audience: string | readonly string[] | null;
  /** Seconds of tolerated clock difference. */
  tolerance: number;
  /** `at+jwt` (RFC 9068 §2.1), or `jwt`: `JWT`, no `typ` or `at+jwt`, as providers issue them. */
  typ: 'at+jwt' | 'jwt';
  /** The algorithms accepted; with local keys, each key's own algorithm among them. */
  algorithms: readonly TokenAlgorithm[];
  /**
   * The longest life of a token in seconds (`exp - iat`), `iat` not ahead of the clock beyond
   * `tolerance`; `undefined`: neither is checked.
   */
  maxTokenAge?: number | undefined;
}

/** What the verified-token cache watches of the key that verified a token. */
export interface KeyState {
  /**
   * Whether the key left its set (`TokenKeys.remove`, or a provider's refetched set without
   * it): its tokens stop counting at once.
   */
  readonly removed: boolean;
}

/** A token whose signature and claims hold. */
interface VerifiedJws {
  /** The claims. */
  payload: Record<string, unknown>;
  /** The key that verified it. */
  key: KeyState;
}

const decoder = new TextDecoder('utf-8', { fatal: true });
// RFC 9068 §2.2 (RFC 7519 §4.1.4, §4.1.6): jose checks presence and type, these must be numbers.
const requiredClaims = ['exp', 'iat'];

const refuse = (problem: JwsProblem, why: string): Refusal => ({ problem, why });

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

/**
 * Whether the header's `typ` is accepted (RFC 8725 §3.11), in any case, with or without
 * `application/`: `at+jwt` (RFC 9068 §4 step 1), or under `jwt` also `JWT` and no `typ`.
 */
function typeAccepted(typ: unknown, wanted: 'at+jwt' | 'jwt'): boolean {
  if (typ === undefined) return wanted === 'jwt';
  if (typeof typ !== 'string') return false;
  let t = typ.toLowerCase();
  if (t.startsWith('application/')) t = t.slice(12);
  return t === 'at+jwt' || (wanted === 'jwt' && t === 'jwt');
}

/** The key of the header, only if the header's `alg` is that key's one algorithm (RFC 8725 §3.1). */
function keyFor(header: Record<string, unknown>, keys: TokenKeys): TokenKey | Refusal {
  const { kid, alg } = header;
  const key = kid === undefined ? keys.sole : typeof kid === 'string' ? keys.find(kid) : undefined;
  if (key === undefined) {
    return refuse(
      'invalid',
      kid === undefined ? 'no kid, and several keys' : `unknown key "${String(kid)}"`,
    );
  }
  if (alg !== key.alg)
    return refuse('invalid', `alg "${String(alg)}" is not the key's (${key.alg})`);
  return key;
}

const finite = (value: unknown) => typeof value === 'number' && Number.isFinite(value);

// The codes that mean the provider's key set could not be had: the service's fault (503).
const unavailableCodes = new Set([
  'ERR_KEY_SET_UNAVAILABLE',
  'ERR_JWKS_TIMEOUT',
  'ERR_JWKS_INVALID',
  'ERR_JOSE_GENERIC',
]);

/** What jose's refusal means to the client, and why in words. */
function refusalOf(error: unknown): Refusal {
  const e = error as { code?: unknown; claim?: unknown; message?: unknown } | null;
  const code = e?.code;
  const message = typeof e?.message === 'string' ? e.message : 'unknown';
  if (typeof code !== 'string' || unavailableCodes.has(code)) {
    // A failed fetch of the key set (network, timeout, not 200, not a JWK set).
    return refuse('unavailable', `the key set could not be fetched: ${message}`);
  }
  if (code === 'ERR_JWT_EXPIRED') return refuse('expired', 'expired (exp)');
  if (code === 'ERR_JWS_INVALID' || code === 'ERR_JWT_INVALID') return refuse('malformed', message);
  if (code === 'ERR_JWKS_NO_MATCHING_KEY')
    return refuse('invalid', 'no key of the set matches its kid and alg');
  if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') return refuse('invalid', 'bad signature');
  if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') {
    return refuse('invalid', `claim "${String(e?.claim)}": ${message}`);
  }
  // A disallowed algorithm, or a signature of the wrong length for the key, say.
  return refuse('invalid', message);
}

/**
 * A refusal when `maxTokenAge` is set and the token lives longer (`exp - iat`, an `exp` of 10^15
 * say) or was issued ahead of the clock (`iat` beyond `tolerance`). Its age now (`now - iat`)
 * is then bounded too, since `exp` has not passed. `iat` counts whole seconds: a token of the
 * current second is not ahead.
 */
function ageRefusal(
  exp: number,
  iat: number,
  expected: JwsExpectations,
  now: () => number,
): Refusal | undefined {
  const { maxTokenAge, tolerance } = expected;
  if (maxTokenAge === undefined) return undefined;
  if (exp - iat > maxTokenAge) {
    return refuse(
      'invalid',
      `it lives ${exp - iat} s (exp - iat), over maxTokenAge (${maxTokenAge} s)`,
    );
  }
  if (iat > Math.ceil(now() / 1000) + tolerance) return refuse('invalid', 'iat is in the future');
  return undefined;
}

/**
 * Verifies `token`, a compact JWS already checked for its shape (three base64url parts): a
 * refusal at once when a segment is not canonical base64url or its header does not fit,
 * else the promise of its verified claims or of a refusal. Unknown critical extensions (`crit`)
 * and unencoded payloads (`b64`) are refused (RFC 7515 §4.1.11, RFC 7797 §3). With local keys,
 * the header's key and its one algorithm (RFC 8725 §3.1); with a provider's keys, jose picks the
 * key by `kid` and `alg` from the fetched set, refetched on an unknown `kid`. jose then checks
 * the signature, `iss`, `aud`, `exp`, `nbf` and `iat` at `now()`, with `tolerance` seconds of
 * clock difference (RFC 9068 §4); `maxTokenAge` bounds the token's life (RFC 8725 §3.10: the
 * claims are received input). HMAC is never accepted from a provider's keys (RFC 8725 §2.1).
 */
export function verifyJws(
  token: string,
  keys: TokenKeys | RemoteKeys,
  expected: JwsExpectations,
  now: () => number,
): Refusal | Promise<VerifiedJws | Refusal> {
  const first = token.indexOf('.');
  const second = token.indexOf('.', first + 1);
  const header = jsonPart(token.slice(0, first));
  if (header === undefined)
    return refuse('malformed', 'the header is not canonical base64url JSON');
  if (header.crit !== undefined || header.b64 !== undefined) {
    return refuse('invalid', 'crit or b64 in the header');
  }
  if (!typeAccepted(header.typ, expected.typ)) {
    return refuse(
      'invalid',
      `typ "${String(header.typ)}" (expected ${expected.typ === 'jwt' ? 'JWT or at+jwt' : 'at+jwt'})`,
    );
  }
  const alg = header.alg;
  if (typeof alg !== 'string' || !(expected.algorithms as readonly string[]).includes(alg)) {
    return refuse(
      'invalid',
      `alg "${String(alg)}" is not accepted (${expected.algorithms.join(', ')})`,
    );
  }
  let key: KeyState | undefined;
  let verifyWith: CryptoKey | JWTVerifyGetKey;
  if (keys instanceof TokenKeys) {
    const found = keyFor(header, keys);
    if (!('verifyKey' in found)) return found;
    key = found;
    verifyWith = found.verifyKey;
  } else {
    // The provider's keys that verify it, so that the cache drops it when a refetch drops them.
    const { remote } = keys;
    verifyWith = (h, t) =>
      remote.getKey(h, t, (state) => {
        key = state;
      });
  }
  // jose's decoder ignores spare bits; one token has one spelling here (RFC 4648 §3.5).
  if (
    fromBase64Url(token.slice(first + 1, second)) === undefined ||
    fromBase64Url(token.slice(second + 1)) === undefined
  ) {
    return refuse('malformed', 'a segment is not canonical base64url');
  }
  return jwtVerify(token, verifyWith as CryptoKey, {
    algorithms: [alg],
    issuer: expected.issuer,
    ...(expected.audience === null ? {} : { audience: expected.audience as string | string[] }),
    clockTolerance: expected.tolerance,
    currentDate: new Date(now()),
    requiredClaims,
  }).then(({ payload }): VerifiedJws | Refusal => {
    const { exp, iat, nbf } = payload;
    // jose takes any number; JSON's 1e999 is Infinity, a token that would never expire.
    if (!finite(exp) || !finite(iat) || (nbf !== undefined && !finite(nbf))) {
      return refuse('invalid', 'exp, iat or nbf is not a finite number');
    }
    const old = ageRefusal(exp as number, iat as number, expected, now);
    if (old !== undefined) return old;
    // Set by the key function jose called before the signature held.
    if (key === undefined) return refuse('invalid', 'no key verified it');
    return { payload: payload as Record<string, unknown>, key };
  }, refusalOf);
}
