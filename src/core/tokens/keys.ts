/** Signing and verification keys of access tokens: import, rotation by `kid`, the public JWK set. */
import { generateKeyPair, type JWK } from 'jose';
import { consoleLogger, type Logger, resolveLogger } from '../errors/logger.ts';
import { assertKnownKeys } from '../internal/options.ts';
import { isProduction } from '../internal/platform.ts';
import { loadKey } from './key-input.ts';
import type { JwkSet, TokenKey, TokenKeyInput, TokenKeysOptions } from './key-types.ts';

export type {
  JwkSet,
  TokenAlgorithm,
  TokenKey,
  TokenKeyInput,
  TokenKeysOptions,
} from './key-types.ts';

const known = ['keys', 'signWith', 'algorithm', 'development', 'logger'];

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
  private signer: TokenKey | undefined;
  /**
   * The development-key warning not yet logged: the first service whose bearer check uses these
   * keys logs it through its logger ({@link TokenKeys.reportTo}); keys that sign before any
   * service took them log it to the console.
   */
  private warning: string | undefined;

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
    this.signer = signWith === undefined ? this.firstSigner() : this.pick(signWith);
  }

  private firstSigner(): TokenKey | undefined {
    for (const key of this.byKid.values()) if (key.signKey !== undefined) return key;
    return undefined;
  }

  private pick(kid: string): TokenKey {
    const key = this.byKid.get(kid);
    if (key?.signKey === undefined) {
      throw new TypeError(
        `TokenKeys: no key with kid "${kid}" can sign; give its private key (or secret) without verifyOnly.`,
      );
    }
    return key;
  }

  /** @internal Keeps `message` until a service's logger (or the first signature) takes it. */
  warnLater(message: string): void {
    this.warning = message;
  }

  /** @internal Logs the pending development-key warning through `logger`, once. */
  reportTo(logger: Pick<Logger, 'warn'>): void {
    const message = this.warning;
    if (message === undefined) return;
    this.warning = undefined;
    logger.warn?.(message);
  }

  /** Whether a key of the set can sign: `false` for a set that only verifies. */
  get canSign(): boolean {
    return this.signer !== undefined;
  }

  /**
   * The key that signs new tokens; a `TypeError` for a set that only verifies (public keys
   * only, as from an identity provider), which cannot issue tokens.
   */
  get signing(): TokenKey {
    if (this.warning !== undefined) this.reportTo(consoleLogger);
    if (this.signer === undefined) {
      throw new TypeError(
        'TokenKeys: this key set only verifies (it holds public keys only), so it cannot issue tokens; give createTokenKeys a privateKey or secret to issue.',
      );
    }
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
    const key = await loadKey(input, `TokenKeys.add`);
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

const developmentWarning =
  '!!! DEVELOPMENT TOKEN KEY !!! No token keys were configured, so a signing key was generated ' +
  'for this process. Tokens it signs stop working when the process ends, and other instances ' +
  'refuse them. Configure createTokenKeys({ keys: [{ privateKey }] }) before going to production.';

/**
 * Loads the signing and verification keys of access tokens, checked once at start-up. Without
 * keys, in development, it generates one key for the process and warns loudly, through the
 * `logger` of the service whose `bearer()` uses the keys (or the `logger` option): tokens then
 * die with the process and other processes do not accept them.
 *
 * @example
 * ```ts
 * import { createTokenKeys } from 'api-conventions';
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
  // Checked now; without one, the warning waits for the logger of the service that uses the keys.
  const logger = options.logger === undefined ? undefined : resolveLogger(options.logger);
  let inputs = options.keys ?? [];
  if (!Array.isArray(inputs)) throw new TypeError('createTokenKeys: keys must be an array.');
  const generated = inputs.length === 0;
  if (generated) {
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
  }
  const loaded = await Promise.all(
    inputs.map((input, i) => loadKey(input, `createTokenKeys keys[${i}]`)),
  );
  const keys = new TokenKeys(loaded, options.signWith);
  if (generated) {
    keys.warnLater(developmentWarning);
    if (logger !== undefined) keys.reportTo(logger);
  }
  return keys;
}
