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

const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const lookup = new Int16Array(128).fill(-1);
for (let i = 0; i < alphabet.length; i++) lookup[alphabet.charCodeAt(i)] = i;

/** Base64url without padding (RFC 4648 §5). */
export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out +=
      alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]! + alphabet[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += alphabet[n >> 18]! + alphabet[(n >> 12) & 63]! + alphabet[(n >> 6) & 63]!;
  }
  return out;
}

/** Decodes canonical base64url without padding; `undefined` for any other character, a length no encoder writes, or non-zero left-over bits. */
export function fromBase64Url(text: string): Uint8Array | undefined {
  if (text.length % 4 === 1) return undefined;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let buffer = 0;
  let o = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? lookup[c]! : -1;
    if (v < 0) return undefined;
    buffer = (buffer << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (buffer >> bits) & 0xff;
    }
  }
  // Canonical text only (RFC 4648 §3.5): left-over bits must be zero, so one byte string has one text.
  if ((buffer & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}
