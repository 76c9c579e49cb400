/** SHA-256 digests over Web Crypto (any runtime), client-secret hashes and constant-time comparison. */
import { fromBase64Url, toBase64Url } from '../internal/base64url.ts';

const encoder = new TextEncoder();

/** The SHA-256 digest of a string's UTF-8 bytes. */
export async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text)));
}

/** The SHA-256 digest of a string as base64url: how opaque tokens are keyed in the store. */
export async function digestKey(text: string): Promise<string> {
  return toBase64Url(await sha256(text));
}

/**
 * Compares two byte strings in time that depends only on their length, never on where they
 * differ, so a timing attack cannot find a secret one byte at a time (the paging cursors' compare).
 */
export { equalBytes as timingSafeEqual } from '../internal/hmac.ts';

const hashPrefix = 'sha256:';

/**
 * The stored form of a client secret: `sha256:` and the base64url SHA-256 of the secret. Keep
 * this in the configuration instead of the secret itself (`clients[].secretHash`); client
 * secrets are long random strings, so a fast hash is enough (a guessable password would need a
 * slow one, which is why user passwords stay with the service's own `verifyUser`).
 *
 * @example
 * ```ts
 * import { hashClientSecret } from 'api-conventions/oauth';
 * const secretHash = await hashClientSecret('demo-secret'); // "sha256:…"
 * ```
 *
 * @category OAuth server
 */
export async function hashClientSecret(secret: string): Promise<string> {
  if (typeof secret !== 'string' || secret === '') {
    throw new TypeError('hashClientSecret: the secret must be a non-empty string.');
  }
  return hashPrefix + (await digestKey(secret));
}

/** The digest inside a `sha256:` secret hash, or `undefined` when it is not one. */
export function digestOfHash(hash: string): Uint8Array | undefined {
  if (!hash.startsWith(hashPrefix)) return undefined;
  const digest = fromBase64Url(hash.slice(hashPrefix.length));
  return digest?.length === 32 ? digest : undefined;
}
