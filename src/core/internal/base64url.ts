/**
 * The library's one base64url codec (RFC 4648 §5), and the Basic-credentials base64 (§4):
 * canonical text only, so that one byte string has exactly one spelling. Signatures, JWS
 * segments, cursors, CSRF tokens and secrets are all read through it; plain JavaScript, no host.
 */

const urlAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const stdAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

function lookupOf(alphabet: string): Int8Array {
  const table = new Int8Array(128).fill(-1);
  for (let i = 0; i < alphabet.length; i++) table[alphabet.charCodeAt(i)] = i;
  return table;
}

const urlLookup = lookupOf(urlAlphabet);
const stdLookup = lookupOf(stdAlphabet);

/** Bytes as base64url without padding (RFC 4648 §5, §3.2). */
export function toBase64Url(bytes: Uint8Array): string {
  const a = urlAlphabet;
  let out = '';
  let i = 0;
  for (; i + 2 < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8) | bytes[i + 2]!;
    out += a[n >> 18]! + a[(n >> 12) & 63]! + a[(n >> 6) & 63]! + a[n & 63]!;
  }
  const rest = bytes.length - i;
  if (rest === 1) {
    const n = bytes[i]! << 16;
    out += a[n >> 18]! + a[(n >> 12) & 63]!;
  } else if (rest === 2) {
    const n = (bytes[i]! << 16) | (bytes[i + 1]! << 8);
    out += a[n >> 18]! + a[(n >> 12) & 63]! + a[(n >> 6) & 63]!;
  }
  return out;
}

/**
 * Decodes `length` characters of `text` from `lookup`'s alphabet; `undefined` for a character
 * outside it, a length no encoder writes (1 more than a multiple of 4), or non-zero spare bits.
 */
function decode(
  text: string,
  length: number,
  lookup: Int8Array,
): Uint8Array<ArrayBuffer> | undefined {
  if (length % 4 === 1) return undefined;
  const out = new Uint8Array((length * 3) >> 2);
  let buffer = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i);
    const v = c < 128 ? lookup[c]! : -1;
    if (v < 0) return undefined;
    buffer = ((buffer << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (buffer >> bits) & 0xff;
    }
  }
  // RFC 4648 §3.5: the bits after the last whole byte must be zero, else one byte string would
  // have several spellings (a signature 15 others that verify, a token a blocklist misses).
  if ((buffer & ((1 << bits) - 1)) !== 0) return undefined;
  return out;
}

/**
 * Decodes canonical base64url without padding (RFC 4648 §5); `undefined` for padding or any
 * other character outside the alphabet, a length no encoder writes, or non-zero spare bits.
 */
export function fromBase64Url(text: string): Uint8Array<ArrayBuffer> | undefined {
  return decode(text, text.length, urlLookup);
}

/**
 * Decodes canonical base64 with its padding (RFC 4648 §4, as HTTP Basic credentials are, RFC
 * 7617 §2); `undefined` for a length that is not a multiple of 4, wrong padding, a character
 * outside the alphabet, or non-zero spare bits.
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> | undefined {
  if (text.length % 4 !== 0) return undefined;
  let length = text.length;
  // At most two `=`, at the end; a third is outside the alphabet and refused below.
  if (text.charCodeAt(length - 1) === 0x3d) length--;
  if (text.charCodeAt(length - 1) === 0x3d) length--;
  return decode(text, length, stdLookup);
}
