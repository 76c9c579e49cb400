/** The types of signing and verification keys: algorithms, key inputs, loaded keys, JWK sets. */
import type { JWK } from 'jose';
import type { Logger } from '../errors/logger.ts';

/**
 * The signature algorithms of access tokens. EdDSA (Ed25519), ES256 (P-256), ES384 (P-384),
 * RS256 and PS256 (RSA, 2048 bits or more) are asymmetric, so other services verify with the
 * public JWK set alone; HS256 shares one secret. `none` is never accepted (RFC 8725 §3.2).
 *
 * @category Tokens
 */
export type TokenAlgorithm = 'EdDSA' | 'ES256' | 'ES384' | 'RS256' | 'PS256' | 'HS256';

/**
 * One key of {@link TokenKeysOptions.keys}: an asymmetric key (a private key signs and verifies;
 * a public key alone only verifies, e.g. the previous key during a rotation), or an HS256 secret.
 *
 * @category Tokens
 */
export interface TokenKeyInput {
  /**
   * The key id sent in each token's header (`kid`). @default the JWK's own `kid`, else the
   * RFC 7638 thumbprint of the public key; required for HS256, whose thumbprint would be a hash
   * of the secret
   */
  kid?: string;
  /**
   * The algorithm this key is used with, and the only one a token signed with it may name
   * (RFC 8725 §3.1). @default the JWK's own `alg`, else read from the curve: Ed25519 →
   * `EdDSA`, P-256 → `ES256`, P-384 → `ES384`; an RSA key has no default (`RS256` or `PS256`)
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
   * Instances given the same keys issue and accept each other's tokens. A set of public keys
   * only (an identity provider's JWKS, say) verifies and cannot issue. @default none: a
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
  /**
   * Where the development-key warning goes, at once. @default the `logger` of the service whose
   * `bearer()` uses the keys, when it is built (the console if the keys sign before that)
   */
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
