/**
 * One key of a key set, loaded and checked at start-up: its algorithm (given, or read from the
 * JWK), its `kid` (given, the JWK's own, or the RFC 7638 thumbprint) and its WebCrypto keys.
 */
import {
  calculateJwkThumbprint,
  exportJWK,
  importJWK,
  importPKCS8,
  importSPKI,
  type JWK,
} from 'jose';
import { assertKnownKeys } from '../internal/options.ts';
import type { TokenAlgorithm, TokenKey, TokenKeyInput } from './key-types.ts';

const keyKnown = ['kid', 'alg', 'privateKey', 'publicKey', 'secret', 'verifyOnly'];

/** The asymmetric algorithms, each with the key type (and curve) it needs (RFC 7518 §3.1). */
const shapes: Record<Exclude<TokenAlgorithm, 'HS256'>, { kty: string; crv?: string }> = {
  EdDSA: { kty: 'OKP', crv: 'Ed25519' },
  ES256: { kty: 'EC', crv: 'P-256' },
  ES384: { kty: 'EC', crv: 'P-384' },
  RS256: { kty: 'RSA' },
  PS256: { kty: 'RSA' },
};
const asymmetric = Object.keys(shapes) as Exclude<TokenAlgorithm, 'HS256'>[];
const curves: Record<string, TokenAlgorithm> = {
  Ed25519: 'EdDSA',
  'P-256': 'ES256',
  'P-384': 'ES384',
};
const names = "'EdDSA', 'ES256', 'ES384', 'RS256', 'PS256' or 'HS256'";

// The public members of each key type (RFC 7518 §6.2.1, §6.3.1, RFC 8037 §2).
const publicMembers: Record<string, readonly string[]> = {
  OKP: ['kty', 'crv', 'x'],
  EC: ['kty', 'crv', 'x', 'y'],
  RSA: ['kty', 'n', 'e'],
};

function isCryptoKey(value: unknown): value is CryptoKey {
  return typeof value === 'object' && value !== null && 'algorithm' in value && 'type' in value;
}

/** The public members of `jwk` only: never a private part, never its `kid` or `alg`. */
function publicPart(jwk: JWK): JWK {
  const members = publicMembers[jwk.kty ?? ''] ?? ['kty', 'crv', 'x', 'y'];
  const from = jwk as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const m of members) if (from[m] !== undefined) out[m] = from[m];
  return out as JWK;
}

/** The algorithm a key is for: given, else the JWK's own `alg`, else read from its curve. */
function hintOf(input: TokenKeyInput, jwk: JWK | undefined): TokenAlgorithm | undefined {
  if (input.alg !== undefined) return input.alg;
  if (jwk === undefined) return undefined;
  const own = jwk.alg as TokenAlgorithm | undefined;
  if (own !== undefined && (asymmetric as string[]).includes(own)) return own;
  return jwk.crv === undefined ? undefined : curves[jwk.crv];
}

/** Checks that `alg` is one the library knows and fits the key's type and curve. */
function checkAlg(where: string, alg: TokenAlgorithm | undefined, jwk: JWK): TokenAlgorithm {
  if (alg === undefined || !(asymmetric as string[]).includes(alg)) {
    const hint =
      jwk.kty === 'RSA' ? "an RSA key needs alg 'RS256' or 'PS256'" : `alg must be one of ${names}`;
    throw new TypeError(`${where}: ${hint}; got ${String(alg ?? jwk.crv ?? jwk.kty)}.`);
  }
  const shape = shapes[alg as keyof typeof shapes];
  if (shape.kty !== jwk.kty || (shape.crv !== undefined && shape.crv !== jwk.crv)) {
    const fits = jwk.crv === undefined ? undefined : curves[jwk.crv];
    const advice = fits === undefined ? '' : `; use '${fits}'`;
    throw new TypeError(
      `${where}: alg '${alg}' does not fit a ${jwk.crv ?? jwk.kty} key${advice}.`,
    );
  }
  return alg;
}

async function importAny(
  where: string,
  value: JWK | string | CryptoKey,
  alg: TokenAlgorithm | undefined,
  kind: 'private' | 'public',
): Promise<CryptoKey> {
  if (isCryptoKey(value)) return value;
  if (typeof value === 'string') {
    if (alg === undefined || alg === 'HS256') {
      throw new TypeError(`${where}: a PEM key needs alg (${names.replace(" or 'HS256'", '')}).`);
    }
    const load = kind === 'private' ? importPKCS8 : importSPKI;
    return load(value, alg, { extractable: true });
  }
  if (typeof value !== 'object' || value === null || typeof value.kty !== 'string') {
    throw new TypeError(`${where}: ${kind}Key must be a JWK, a PEM string or a CryptoKey.`);
  }
  if (kind === 'private' && value.d === undefined) {
    throw new TypeError(
      `${where}: privateKey is a public JWK (it has no "d"); pass it as publicKey.`,
    );
  }
  const jwk = kind === 'public' ? publicPart(value) : value;
  const key = await importJWK(jwk, checkAlg(where, alg, value), { extractable: true });
  if (!isCryptoKey(key)) throw new TypeError(`${where}: ${kind}Key is not an asymmetric key.`);
  return key;
}

async function loadSecret(where: string, input: TokenKeyInput): Promise<TokenKey> {
  if (input.privateKey !== undefined || input.publicKey !== undefined) {
    throw new TypeError(`${where}: give either a secret (HS256) or a key pair, not both.`);
  }
  if ((input.alg ?? 'HS256') !== 'HS256') {
    throw new TypeError(`${where}: a secret is an HS256 key; set alg to 'HS256' or leave it out.`);
  }
  if (input.kid === undefined) {
    throw new TypeError(`${where}: an HS256 secret needs an explicit kid, such as "hs-2026-01".`);
  }
  const given =
    typeof input.secret === 'string' ? new TextEncoder().encode(input.secret) : input.secret;
  if (!(given instanceof Uint8Array) || given.byteLength < 32) {
    throw new TypeError(`${where}: an HS256 secret must be at least 32 bytes (RFC 7518 §3.2).`);
  }
  // A copy: the caller's array may change later; the key must not.
  const secret = new Uint8Array(given);
  const verifyKey = await crypto.subtle.importKey(
    'raw',
    secret,
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['verify'],
  );
  return {
    kid: input.kid,
    alg: 'HS256',
    verifyKey,
    signKey: input.verifyOnly ? undefined : secret,
    publicJwk: undefined,
    removed: false,
  };
}

/**
 * Loads one key of a set; `where` names it in errors (`createTokenKeys keys[0]`). A JWK keeps
 * its own `kid` and `alg` (an identity provider's JWKS names its keys so); a key without either
 * gets the RFC 7638 thumbprint as its `kid` and the algorithm its curve implies.
 */
export async function loadKey(input: TokenKeyInput, where: string): Promise<TokenKey> {
  assertKnownKeys(where, input, keyKnown);
  if (input.kid !== undefined && (typeof input.kid !== 'string' || input.kid === '')) {
    throw new TypeError(`${where}: kid must be a non-empty string.`);
  }
  if (input.secret !== undefined) return loadSecret(where, input);
  const given = input.privateKey ?? input.publicKey;
  if (given === undefined) throw new TypeError(`${where}: give privateKey, publicKey or secret.`);
  const givenJwk = isCryptoKey(given) || typeof given === 'string' ? undefined : given;
  if (input.alg === 'HS256') throw new TypeError(`${where}: HS256 takes a secret, not a key pair.`);
  const hinted = hintOf(input, givenJwk);
  const privateKey =
    input.privateKey === undefined
      ? undefined
      : await importAny(where, input.privateKey, hinted, 'private');
  let publicJwk: JWK;
  let verifyKey: CryptoKey;
  if (input.publicKey !== undefined) {
    verifyKey = await importAny(where, input.publicKey, hinted, 'public');
    publicJwk = publicPart(await exportJWK(verifyKey));
  } else {
    if (privateKey === undefined || !privateKey.extractable) {
      throw new TypeError(
        `${where}: the private CryptoKey is not extractable; give publicKey too.`,
      );
    }
    publicJwk = publicPart(await exportJWK(privateKey));
    verifyKey = await importAny(where, publicJwk, hinted ?? hintOf({}, publicJwk), 'public');
  }
  const alg = checkAlg(where, hinted ?? hintOf({}, publicJwk), publicJwk);
  const ownKid =
    typeof givenJwk?.kid === 'string' && givenJwk.kid !== '' ? givenJwk.kid : undefined;
  const kid = input.kid ?? ownKid ?? (await calculateJwkThumbprint(publicJwk));
  return {
    kid,
    alg,
    verifyKey,
    signKey: input.verifyOnly ? undefined : privateKey,
    publicJwk: { ...publicJwk, kid, alg, use: 'sig' },
    removed: false,
  };
}
