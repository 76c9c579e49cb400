/** Signing and verification keys of access tokens: import, rotation by `kid`, the public JWK set. */
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  importPKCS8,
  importSPKI,
  type JWK,
} from 'jose';
import { type Logger, resolveLogger } from '../errors/to-response.ts';
import { assertKnownKeys } from '../internal/options.ts';
import { isProduction } from '../internal/platform.ts';

/**
 * The signature algorithms of access tokens: EdDSA (Ed25519) and ES256 (P-256) are asymmetric,
 * so other services verify with the public JWK set alone; HS256 shares one secret.
 *
 * @category Tokens
 */
export type TokenAlgorithm = 'EdDSA' | 'ES256' | 'HS256';

/**
 * One key of {@link TokenKeysOptions.keys}: an asymmetric key (a private key signs and verifies;
 * a public key alone only verifies, e.g. the previous key during a rotation), or an HS256 secret.
 *
 * @category Tokens
 */
export interface TokenKeyInput {
  /**
   * The key id sent in each token's header (`kid`). @default the RFC 7638 thumbprint of the
   * public key; required for HS256, whose thumbprint would be a hash of the secret
   */
  kid?: string;
  /**
   * The algorithm this key is used with, and the only one a token signed with it may name
   * (RFC 8725 §3.1). @default read from the key: Ed25519 → `EdDSA`, P-256 → `ES256`
   */
  alg?: TokenAlgorithm;
  /** A private key: a JWK (with `d`), a PKCS #8 PEM string, or a `CryptoKey`. It signs and verifies. */
  privateKey?: JWK | string | CryptoKey;
  /** A public key: a JWK, an SPKI PEM string, or a `CryptoKey`. Alone, it only verifies. */
  publicKey?: JWK | string | CryptoKey;
  /** The HS256 secret, at least 32 bytes (RFC 7518 §3.2); a string is taken as UTF-8. */
  secret?: string | Uint8Array;
  /** Whether this key only verifies, though it could sign (a retiring key). @default false */
  verifyOnly?: boolean;
}

/**
 * Options of {@link createTokenKeys}.
 *
 * @category Tokens
 */
export interface TokenKeysOptions {
  /**
   * The keys. The first that can sign signs new tokens (see `signWith`); every one verifies.
   * Instances given the same keys issue and accept each other's tokens. @default none: a
   * development key generated at start-up, with a warning (see `development`)
   */
  keys?: readonly TokenKeyInput[];
  /** The `kid` of the key that signs, when it is not the first that can. @default the first */
  signWith?: string;
  /** The algorithm of the generated development key. @default 'EdDSA' */
  algorithm?: 'EdDSA' | 'ES256';
  /**
   * Whether a development key may be generated when `keys` is empty. Off in production, where
   * no keys is a `TypeError`. @default true unless `NODE_ENV` is `production`
   */
  development?: boolean;
  /** Where the development-key warning goes. @default console */
  logger?: Logger;
}

/**
 * A key as the verifier holds it. `removed` turns true when the key leaves the set, so that
 * what the verified-token cache remembers of its tokens stops counting at once.
 *
 * @category Tokens
 */
export interface TokenKey {
  /** The key id. */
  readonly kid: string;
  /** The one algorithm this key accepts. */
  readonly alg: TokenAlgorithm;
  /** The key that verifies (a WebCrypto key; an HS256 secret is imported as an HMAC key). */
  readonly verifyKey: CryptoKey;
  /** The key that signs; absent for a key that only verifies. */
  readonly signKey: CryptoKey | Uint8Array | undefined;
  /** The public JWK (with `kid`, `alg`, `use`); absent for HS256 secrets, which are never published. */
  readonly publicJwk: JWK | undefined;
  /** Whether the key was removed from its set. */
  removed: boolean;
}

/**
 * An RFC 7517 JWK set: what a JWKS endpoint serves.
 *
 * @category Tokens
 */
export interface JwkSet {
  /** The public keys. */
  keys: JWK[];
}

const known = ['keys', 'signWith', 'algorithm', 'development', 'logger'];
const keyKnown = ['kid', 'alg', 'privateKey', 'publicKey', 'secret', 'verifyOnly'];
const algorithms: readonly TokenAlgorithm[] = ['EdDSA', 'ES256', 'HS256'];
const curves: Record<string, TokenAlgorithm> = { Ed25519: 'EdDSA', 'P-256': 'ES256' };
// The public members of each key type (RFC 7518 §6.2.1, RFC 8037 §2).
const publicMembers: Record<string, readonly string[]> = {
  OKP: ['kty', 'crv', 'x'],
  EC: ['kty', 'crv', 'x', 'y'],
};

function isCryptoKey(value: unknown): value is CryptoKey {
  return typeof value === 'object' && value !== null && 'algorithm' in value && 'type' in value;
}

function algOf(where: string, input: TokenKeyInput, jwk: JWK | undefined): TokenAlgorithm {
  const fromKey = jwk?.crv === undefined ? undefined : curves[jwk.crv];
  const alg = input.alg ?? fromKey;
  if (alg === undefined || !algorithms.includes(alg)) {
    throw new TypeError(
      `${where}: alg must be 'EdDSA', 'ES256' or 'HS256'; got ${String(input.alg ?? jwk?.crv)}.`,
    );
  }
  if (alg !== 'HS256' && fromKey !== undefined && fromKey !== alg) {
    throw new TypeError(`${where}: alg '${alg}' does not fit a ${jwk?.crv} key; use '${fromKey}'.`);
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
    if (alg === undefined)
      throw new TypeError(`${where}: a PEM key needs alg ('EdDSA' or 'ES256').`);
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
  const key = await importJWK(
    kind === 'public' ? publicPart(value) : value,
    alg ?? curves[value.crv ?? ''],
    { extractable: true },
  );
  if (!isCryptoKey(key)) throw new TypeError(`${where}: ${kind}Key is not an asymmetric key.`);
  return key;
}

function publicPart(jwk: JWK): JWK {
  const members = publicMembers[jwk.kty ?? ''] ?? ['kty', 'crv', 'x', 'y'];
  const from = jwk as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  for (const m of members) if (from[m] !== undefined) out[m] = from[m];
  return out as JWK;
}

async function loadKey(input: TokenKeyInput, index: number): Promise<TokenKey> {
  const where = `createTokenKeys keys[${index}]`;
  assertKnownKeys(where, input, keyKnown);
  if (input.kid !== undefined && (typeof input.kid !== 'string' || input.kid === '')) {
    throw new TypeError(`${where}: kid must be a non-empty string.`);
  }
  if (input.secret !== undefined) {
    if (input.privateKey !== undefined || input.publicKey !== undefined) {
      throw new TypeError(`${where}: give either a secret (HS256) or a key pair, not both.`);
    }
    if ((input.alg ?? 'HS256') !== 'HS256') {
      throw new TypeError(
        `${where}: a secret is an HS256 key; set alg to 'HS256' or leave it out.`,
      );
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
    const signKey = input.verifyOnly ? undefined : secret;
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
      signKey,
      publicJwk: undefined,
      removed: false,
    };
  }
  const given = input.privateKey ?? input.publicKey;
  if (given === undefined) {
    throw new TypeError(`${where}: give privateKey, publicKey or secret.`);
  }
  const givenJwk = isCryptoKey(given) || typeof given === 'string' ? undefined : given;
  const hinted = input.alg ?? (givenJwk?.crv ? curves[givenJwk.crv] : undefined);
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
    verifyKey = await importAny(where, publicJwk, hinted ?? curves[publicJwk.crv ?? ''], 'public');
  }
  const alg = algOf(where, input, publicJwk);
  if (alg === 'HS256') throw new TypeError(`${where}: HS256 takes a secret, not a key pair.`);
  const kid = input.kid ?? (await calculateJwkThumbprint(publicJwk));
  const signKey = input.verifyOnly ? undefined : privateKey;
  return {
    kid,
    alg,
    verifyKey,
    signKey,
    publicJwk: { ...publicJwk, kid, alg, use: 'sig' },
    removed: false,
  };
}

// One development key per algorithm and process: every instance of this process that runs
// without configured keys shares it, so tokens one issues the others accept.
const developmentKeys = new Map<string, Promise<TokenKeyInput>>();

function developmentKey(alg: 'EdDSA' | 'ES256'): Promise<TokenKeyInput> {
  let key = developmentKeys.get(alg);
  if (key === undefined) {
    key = generateKeyPair(alg, { extractable: true }).then(({ privateKey }) => ({
      privateKey,
      alg,
    }));
    developmentKeys.set(alg, key);
  }
  return key;
}

/**
 * The keys of one service: the key that signs, every key that verifies, and the public JWK set.
 * Made by {@link createTokenKeys}; rotate with {@link TokenKeys.add}, {@link TokenKeys.signWith}
 * and {@link TokenKeys.remove}.
 *
 * @category Tokens
 */
export class TokenKeys {
  private readonly byKid = new Map<string, TokenKey>();
  private signer: TokenKey;

  /** @internal Use {@link createTokenKeys}. */
  constructor(keys: readonly TokenKey[], signWith: string | undefined) {
    for (const key of keys) {
      if (this.byKid.has(key.kid)) {
        throw new TypeError(
          `createTokenKeys: two keys have the kid "${key.kid}"; kids must be unique.`,
        );
      }
      this.byKid.set(key.kid, key);
    }
    this.signer = this.pick(signWith);
  }

  private pick(kid: string | undefined): TokenKey {
    if (kid !== undefined) {
      const key = this.byKid.get(kid);
      if (key?.signKey === undefined) {
        throw new TypeError(
          `TokenKeys: no key with kid "${kid}" can sign; give its private key (or secret) without verifyOnly.`,
        );
      }
      return key;
    }
    for (const key of this.byKid.values()) if (key.signKey !== undefined) return key;
    throw new TypeError(
      'createTokenKeys: no key can sign; give at least one privateKey or secret without verifyOnly.',
    );
  }

  /** The key that signs new tokens. */
  get signing(): TokenKey {
    return this.signer;
  }

  /** The key ids that verify, in the order given. */
  get kids(): string[] {
    return [...this.byKid.keys()];
  }

  /** The verification key of `kid`, or `undefined` when the set has none. */
  find(kid: string): TokenKey | undefined {
    return this.byKid.get(kid);
  }

  /** The only key, when the set has exactly one (for tokens from other issuers without a `kid`). */
  get sole(): TokenKey | undefined {
    if (this.byKid.size !== 1) return undefined;
    return this.byKid.values().next().value;
  }

  /**
   * The public JWK set (RFC 7517 §5) for a JWKS endpoint: every asymmetric key that verifies,
   * with its `kid`, `alg` and `use`. HS256 secrets are never in it.
   */
  jwks(): JwkSet {
    const keys: JWK[] = [];
    for (const key of this.byKid.values()) if (key.publicJwk) keys.push({ ...key.publicJwk });
    return { keys };
  }

  /** Adds a key (a new one before it signs, say); returns its `kid`. */
  async add(input: TokenKeyInput): Promise<string> {
    const key = await loadKey(input, this.byKid.size);
    if (this.byKid.has(key.kid)) {
      throw new TypeError(`TokenKeys.add: a key with kid "${key.kid}" is already in the set.`);
    }
    this.byKid.set(key.kid, key);
    return key.kid;
  }

  /** Makes the key `kid` the one that signs new tokens; the previous one still verifies. */
  signWith(kid: string): void {
    this.signer = this.pick(kid);
  }

  /**
   * Removes the key `kid`: tokens it signed are refused from now on, cached ones included.
   * The signing key cannot be removed; call {@link TokenKeys.signWith} first.
   */
  remove(kid: string): boolean {
    const key = this.byKid.get(kid);
    if (key === undefined) return false;
    if (key === this.signer) {
      throw new TypeError(
        `TokenKeys.remove: "${kid}" signs new tokens; signWith() another key first.`,
      );
    }
    key.removed = true;
    this.byKid.delete(kid);
    return true;
  }
}

/**
 * Loads the signing and verification keys of access tokens, checked once at start-up. Without
 * keys, in development, it generates one key for the process and warns loudly: tokens then
 * die with the process and other processes do not accept them.
 *
 * @example
 * ```ts
 * const keys = await createTokenKeys({
 *   keys: [{ privateKey: JSON.parse(process.env.TOKEN_KEY ?? '{}') }],
 * });
 * keys.jwks(); // { keys: [{ kty: 'OKP', crv: 'Ed25519', x: '…', kid: '…', alg: 'EdDSA', use: 'sig' }] }
 * ```
 *
 * @category Tokens
 */
export async function createTokenKeys(options: TokenKeysOptions = {}): Promise<TokenKeys> {
  assertKnownKeys('createTokenKeys', options, known);
  const logger = resolveLogger(options.logger);
  let inputs = options.keys ?? [];
  if (!Array.isArray(inputs)) throw new TypeError('createTokenKeys: keys must be an array.');
  if (inputs.length === 0) {
    const development = options.development ?? !isProduction();
    if (!development) {
      throw new TypeError(
        'createTokenKeys: no keys in production; pass keys: [{ privateKey }] (a JWK or PEM that every instance shares).',
      );
    }
    const alg = options.algorithm ?? 'EdDSA';
    if (alg !== 'EdDSA' && alg !== 'ES256') {
      throw new TypeError(
        `createTokenKeys: algorithm must be 'EdDSA' or 'ES256'; got ${String(alg)}.`,
      );
    }
    inputs = [await developmentKey(alg)];
    logger.warn(
      '!!! DEVELOPMENT TOKEN KEY !!! No token keys were configured, so a signing key was generated ' +
        'for this process. Tokens it signs stop working when the process ends, and other instances ' +
        'refuse them. Configure createTokenKeys({ keys: [{ privateKey }] }) before going to production.',
    );
  }
  const loaded = await Promise.all(inputs.map((input, i) => loadKey(input, i)));
  return new TokenKeys(loaded, options.signWith);
}
