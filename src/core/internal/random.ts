/** Random opaque tokens from the platform's CSPRNG (Web Crypto `getRandomValues`, any runtime). */
import { toBase64Url } from './base64url.ts';

/** A fresh opaque token of `bytes` random bytes (256 bits by default), base64url without padding. */
export function randomToken(bytes = 32): string {
  return toBase64Url(globalThis.crypto.getRandomValues(new Uint8Array(bytes)));
}
