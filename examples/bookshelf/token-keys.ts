/**
 * The bookshelf's signing keys: from `TOKEN_KEYS` (a JWK set, as JSON or the path of a file
 * holding it), else, with a shared store (`REDIS_URL`), one development key shared through it so
 * that every instance on that Redis accepts the others' tokens (refused under
 * NODE_ENV=production); else none (a key per process).
 */
import { readFileSync } from 'node:fs';
import { createTokenKeys, type Store, type TokenKeyInput, type TokenKeys } from 'api-conventions';
import { exportJWK, generateKeyPair, type JWK } from 'jose';

/** Where shared development values live in the store, and for how long (a year). */
export const sharedKeyName = 'bookshelf:dev:token-key';
export const sharedIssuerName = 'bookshelf:dev:issuer';
export const sharedTtlMs = 365 * 24 * 3600 * 1000;

/** Reads `TOKEN_KEYS`: the JWK set itself (text starting with `{`) or the path of a file with it. */
function readJwkSet(value: string): JWK[] {
  let text = value;
  if (!value.trimStart().startsWith('{')) {
    try {
      text = readFileSync(value, 'utf8');
    } catch (error) {
      throw new Error(`TOKEN_KEYS: cannot read the file ${value}: ${(error as Error).message}`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new Error('TOKEN_KEYS: not JSON; give a JWK set such as {"keys":[{ "kty": "OKP", … }]}.');
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys) || keys.length === 0) {
    throw new Error('TOKEN_KEYS: a JWK set needs a non-empty "keys" array (RFC 7517 §5).');
  }
  return keys as JWK[];
}

/** A private JWK (with `d`) signs and verifies; a public one only verifies (a retiring key). */
const inputOf = (jwk: JWK): TokenKeyInput =>
  jwk.d === undefined ? { publicKey: jwk } : { privateKey: jwk };

/**
 * The keys `TOKEN_KEYS` names, the development key shared through `store`, or `undefined`
 * (the bookshelf then makes a key of its own for this process). Throws an `Error` that says
 * what is wrong with `TOKEN_KEYS`.
 */
export async function bookshelfTokenKeys(
  tokenKeys: string | undefined,
  store: Store | undefined,
  warn: (message: string) => void = console.warn,
): Promise<TokenKeys | undefined> {
  if (tokenKeys !== undefined && tokenKeys !== '') {
    const keys = await createTokenKeys({ keys: readJwkSet(tokenKeys).map(inputOf) }).catch(
      (error: Error) => {
        throw new Error(`TOKEN_KEYS: ${error.message}`);
      },
    );
    if (!keys.canSign) {
      throw new Error('TOKEN_KEYS: no private key (a JWK with "d"); the bookshelf issues tokens.');
    }
    return keys;
  }
  if (store === undefined) return undefined;
  // Anyone who can read that Redis could sign tokens with a key kept there in plain form: fit for
  // a demonstration, never for production, where the start stops before any key is stored.
  if (process.env.NODE_ENV === 'production') {
    throw new Error(
      'TOKEN_KEYS is not set: under NODE_ENV=production the bookshelf does not share a development signing key through Redis (REDIS_URL), where anyone who can read that Redis could sign tokens. Set TOKEN_KEYS to a JWK set that every instance shares (docs/redis.md#the-bookshelf).',
    );
  }
  // The first instance on this Redis stores its key (SET NX); every instance uses the stored one.
  const { privateKey } = await generateKeyPair('EdDSA', { extractable: true });
  await store.add(sharedKeyName, JSON.stringify(await exportJWK(privateKey)), sharedTtlMs);
  const stored = await store.get(sharedKeyName);
  if (stored === undefined)
    throw new Error('REDIS_URL: the shared development key could not be stored.');
  warn(
    `!!! DEVELOPMENT TOKEN KEY !!! No TOKEN_KEYS were configured, so a development signing key is shared through Redis ("${sharedKeyName}"): every instance on this Redis accepts the others' tokens, and anyone who can read the Redis can sign tokens. Configure TOKEN_KEYS (a JWK set) before going to production.`,
  );
  return createTokenKeys({ keys: [{ privateKey: JSON.parse(stored) as JWK }] });
}
