/**
 * The library's base64url (RFC 4648 §5) and the Basic-credentials base64 (§4): jose's codec and
 * the platform's `atob`/`btoa`, behind a check that takes canonical text only, so that one byte
 * string has exactly one spelling. Signatures, JWS segments, cursors, CSRF tokens and secrets
 * are all read through it; plain JavaScript, no host.
 */
import { decode, encode } from 'jose/base64url';

// Alphabet only, no padding, and never 4n + 1 characters (no encoder writes that length), so
// jose's decoder has nothing to forgive. Linear: one pass, no backtracking.
const urlText = /^(?:[\w-]{4})*(?:[\w-]{2,3})?$/;
const stdText = /^(?:[A-Za-z\d+/]{4})*(?:[A-Za-z\d+/]{2}==|[A-Za-z\d+/]{3}=)?$/;

/** Bytes as base64url without padding (RFC 4648 §5, §3.2). */
export const toBase64Url: (bytes: Uint8Array) => string = encode;

/**
 * Decodes canonical base64url without padding (RFC 4648 §5); `undefined` for padding or any
 * other character outside the alphabet, a length no encoder writes, or non-zero spare bits.
 */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!urlText.test(text)) return undefined;
  const bytes = decode(text) as Uint8Array<ArrayBuffer>;
  // RFC 4648 §3.5: the bits after the last whole byte must be zero, else one byte string would
  // have several spellings (a signature 15 others that verify, a token a blocklist misses).
  // Decoders ignore them; the text that encodes the bytes back is the one canonical spelling.
  return encode(bytes) === text ? bytes : undefined;
}

/**
 * Decodes canonical base64 with its padding (RFC 4648 §4, as HTTP Basic credentials are, RFC
 * 7617 §2); `undefined` for a length that is not a multiple of 4, wrong padding, a character
 * outside the alphabet, or non-zero spare bits.
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (!stdText.test(text)) return undefined;
  const binary = atob(text);
  // RFC 4648 §3.5, as above.
  if (btoa(binary) !== text) return undefined;
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}
