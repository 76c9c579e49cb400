/**
 * HMAC-SHA-256 (RFC 2104, FIPS 180-4), synchronous, for short values such as cursors: through
 * `node:crypto` where the runtime has it, else through @noble/hashes (audited, no dependencies).
 * No hash is written here.
 */
import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { type NodeCrypto, nodeCrypto } from './platform.ts';

/** A key prepared once, to MAC many messages. */
export interface HmacKey {
  /** The HMAC-SHA-256 of `message` under this key, 32 bytes. */
  readonly mac: (message: Uint8Array) => Uint8Array;
}

/**
 * Prepares an HMAC-SHA-256 key once. `native` is the runtime's `node:crypto` (found at load);
 * without it, @noble/hashes hashes the padded key blocks once and each MAC starts from a copy of
 * that state (RFC 2104 §4).
 */
export function hmacKey(secret: Uint8Array, native: NodeCrypto | undefined = nodeCrypto): HmacKey {
  // A copy: the caller's array may change later; the key must not.
  const key = new Uint8Array(secret);
  if (native !== undefined) {
    return { mac: (message) => native.createHmac('sha256', key).update(message).digest() };
  }
  const prepared = hmac.create(sha256, key);
  return { mac: (message) => prepared.clone().update(message).digest() };
}

/** HMAC-SHA-256 of `message` under a prepared key. */
export function hmacSha256(key: HmacKey, message: Uint8Array): Uint8Array {
  return key.mac(message);
}

/** Compares two byte strings in time that depends only on their length. */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}
