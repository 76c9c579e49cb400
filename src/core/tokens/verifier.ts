/** JWT access-token verification (RFC 9068, RFC 8725) behind a bounded verified-token cache. */
import { BoundedCache } from '../internal/bounded-cache.ts';
import type { Identity } from '../kernel/identity.ts';
import { andThen, isPromise, type Step } from '../kernel/steps.ts';
import type { GuardedStore } from '../stores/guard-store.ts';
import type { StoreBudgetHolder } from '../stores/store-budget.ts';
import type { Challenges } from './challenge.ts';
import { audienceOk, type ClaimRules, identityFromClaims } from './claims.ts';
import {
  type JwsExpectations,
  type KeyState,
  type Refusal,
  type RemoteKeys,
  verifyJws,
} from './jws.ts';
import type { TokenKeys } from './keys.ts';

/**
 * What a token must name to be accepted here.
 *
 * @category Tokens
 */
export interface Expected {
  /** The one accepted issuer. */
  issuer: string;
  /**
   * The accepted audiences: the token's `aud` must hold at least one; `null` when `aud` is not
   * checked (a provider whose access tokens carry none, with `clientIds` checked instead).
   */
  audience: string | readonly string[] | null;
}

/** The verifier's settings, resolved by the bearer plugin. */
interface VerifierSettings {
  /** The keys, or their promise (requests that need them wait for it once), or a provider's JWKS. */
  keys: TokenKeys | Promise<TokenKeys> | RemoteKeys;
  claims: ClaimRules;
  /** Called with why a token was refused (a development log), never with the token. */
  logRefusal: ((why: string, ctx: StoreBudgetHolder | undefined) => void) | undefined;
  challenges: Challenges;
  /** A guarded store, keys prefixed. */
  store: GuardedStore;
  cacheSize: number;
  maxTokenLength: number;
  revocationCheckMs: number;
  clockTolerance: number;
  /** The longest life of a token (`exp - iat`) in seconds, or `undefined` for no bound. */
  maxTokenAge: number | undefined;
  now: (() => number) | undefined;
}

/** One verified token, as the cache keeps it. */
interface Entry {
  readonly identity: Identity;
  readonly iss: string;
  readonly aud: readonly string[];
  /** `exp` in milliseconds, clock tolerance included: the entry is dead from this instant. */
  readonly expMs: number;
  readonly key: KeyState;
  /** The token's id, or `''` for a provider's token without one (it cannot be revoked here). */
  readonly jti: string;
  /** When the shared store is asked again whether the token was revoked elsewhere. */
  recheckAt: number;
}

// RFC 7515 §7.1: three base64url parts. An unsecured JWT (`alg: none`) has an empty third part
// and stops here, before any decoding.
const compact = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/;

// A bearer token is a few hundred characters, and every request brings it as a new string: a
// `Map` lookup hashes all of them each time. So the tokens seen last sit in a small table whose
// slot is chosen from the token's length and its last characters (the signature's, which differ
// from token to token), and a hit costs one string comparison. The table only ever holds
// entries the cache holds too: whatever leaves the cache leaves the table.
const recentBits = 6;
const recentMask = (1 << recentBits) - 1;

/** The table slot of a token: its length and four of its last characters, mixed. */
function recentSlot(token: string): number {
  const n = token.length;
  if (n < 4) return n & recentMask;
  const mixed =
    n ^
    token.charCodeAt(n - 1) ^
    (token.charCodeAt(n - 2) << 7) ^
    (token.charCodeAt(n - 3) << 14) ^
    (token.charCodeAt(n - 4) << 21);
  return Math.imul(mixed, 0x9e3779b1) >>> (32 - recentBits);
}

/**
 * Verifies access tokens and remembers the verified ones. See [Access tokens](../../../docs/tokens.md) for why the cache
 * is safe and for its bounds.
 */
export class TokenVerifier {
  private readonly cache: BoundedCache<string, Entry>;
  private readonly recentTokens: string[] = new Array<string>(1 << recentBits).fill('');
  private readonly recentEntries: (Entry | undefined)[] = new Array<Entry | undefined>(
    1 << recentBits,
  ).fill(undefined);
  // jti → exp (ms) of tokens revoked through this instance, so that a verification that read
  // the store before a revocation cannot cache the token after it. At least 1000 of them.
  private readonly revoked: BoundedCache<string, number>;
  private readonly s: VerifierSettings;
  private keys: TokenKeys | RemoteKeys | undefined;
  private readonly ready: Promise<TokenKeys | RemoteKeys>;
  private readonly expectations: Omit<JwsExpectations, 'issuer' | 'audience'>;

  constructor(settings: VerifierSettings) {
    this.s = settings;
    this.cache = new BoundedCache(settings.cacheSize);
    this.revoked = new BoundedCache(Math.max(settings.cacheSize, 1000));
    this.expectations = {
      tolerance: settings.clockTolerance,
      typ: settings.claims.typ,
      algorithms: settings.claims.algorithms,
      maxTokenAge: settings.maxTokenAge,
    };
    if (isPromise<TokenKeys>(settings.keys)) {
      this.ready = settings.keys.then((keys) => {
        this.keys = keys;
        return keys;
      });
      // A failure is reported to the requests that wait for the keys, never as unhandled.
      this.ready.catch(() => {});
    } else {
      this.keys = settings.keys;
      this.ready = Promise.resolve(settings.keys);
    }
  }

  private now(): number {
    return this.s.now === undefined ? Date.now() : this.s.now();
  }

  private readonly clock = (): number => this.now();

  /** The cache's entry for `token`, from the table of recent tokens when it is there. */
  private cached(token: string): Entry | undefined {
    const slot = recentSlot(token);
    if (this.recentTokens[slot] === token) return this.recentEntries[slot];
    const entry = this.cache.get(token);
    if (entry !== undefined) {
      this.recentTokens[slot] = token;
      this.recentEntries[slot] = entry;
    }
    return entry;
  }

  /** Forgets `token`, in the cache and in the table of recent tokens. */
  private forget(token: string): void {
    this.cache.delete(token);
    const slot = recentSlot(token);
    if (this.recentTokens[slot] === token) this.clearSlot(slot);
  }

  private clearSlot(slot: number): void {
    this.recentTokens[slot] = '';
    this.recentEntries[slot] = undefined;
  }

  /** Keeps a verified token; a full cache forgets its oldest, so the table is cleared then. */
  private remember(token: string, entry: Entry): void {
    const { cache } = this;
    if (cache.size >= cache.bound) {
      for (let slot = 0; slot <= recentMask; slot++) this.clearSlot(slot);
    } else {
      const slot = recentSlot(token);
      if (this.recentTokens[slot] === token) this.clearSlot(slot);
    }
    cache.set(token, entry);
  }

  /**
   * The identity `token` stands for, or a thrown 401 `invalid_token`; its revocation check waits
   * out of the store budget of the request `ctx`, when given.
   */
  check(token: string, expected: Expected, ctx?: StoreBudgetHolder): Step<Identity> {
    const entry = this.cached(token);
    if (entry !== undefined) {
      const now = this.now();
      if (now < entry.expMs && !entry.key.removed) {
        if (entry.iss !== expected.issuer || !audienceOk(entry.aud, expected.audience)) {
          throw this.s.challenges.invalid('invalid');
        }
        if (now < entry.recheckAt) return entry.identity;
        return this.recheck(token, entry, now, ctx);
      }
      this.forget(token);
      if (now >= entry.expMs && !entry.key.removed) throw this.s.challenges.invalid('expired');
    }
    return this.firstSeen(token, expected, ctx);
  }

  /**
   * The identity of `token` when the cache vouches for it without any further work (no crypto,
   * no store), else `undefined`; never throws. For the pre-routing phase, where limits count a
   * known caller by its subject and anything else by its address, before any crypto is spent.
   */
  peek(token: string, expected: Expected): Identity | undefined {
    const entry = this.cached(token);
    if (entry === undefined) return undefined;
    const now = this.now();
    if (now >= entry.expMs || now >= entry.recheckAt || entry.key.removed) return undefined;
    if (entry.iss !== expected.issuer || !audienceOk(entry.aud, expected.audience))
      return undefined;
    return entry.identity;
  }

  private recheck(
    token: string,
    entry: Entry,
    now: number,
    ctx: StoreBudgetHolder | undefined,
  ): Step<Identity> {
    return andThen(this.s.store.get(entry.jti, ctx), (mark) => {
      if (mark !== undefined) {
        this.forget(token);
        throw this.s.challenges.invalid('revoked');
      }
      entry.recheckAt = now + this.s.revocationCheckMs;
      return entry.identity;
    });
  }

  /** The keys, once loaded. */
  whenReady(): Promise<TokenKeys | RemoteKeys> {
    return this.ready;
  }

  private firstSeen(
    token: string,
    expected: Expected,
    ctx: StoreBudgetHolder | undefined,
  ): Promise<Identity> {
    const { challenges, maxTokenLength } = this.s;
    const keys = this.keys;
    if (keys === undefined) return this.ready.then(() => this.firstSeen(token, expected, ctx));
    // RFC 8725 §3.10: received input is not trusted; bound the work it can cause before any crypto.
    if (token.length > maxTokenLength) return Promise.reject(challenges.invalid('tooLong'));
    if (!compact.test(token)) return Promise.reject(challenges.invalid('malformed'));
    const judged = verifyJws(
      token,
      keys,
      { ...this.expectations, issuer: expected.issuer, audience: expected.audience },
      this.clock,
    );
    if (!isPromise(judged)) return Promise.reject(this.refused(judged, ctx));
    return judged.then((verified) => {
      if (!('payload' in verified)) throw this.refused(verified, ctx);
      return this.accept(token, verified.payload, verified.key, ctx);
    });
  }

  /** The answer to a refusal (401, or 503 when the keys could not be had), logged when asked. */
  private refused(refusal: Refusal, ctx: StoreBudgetHolder | undefined): unknown {
    this.s.logRefusal?.(refusal.why, ctx);
    if (refusal.problem === 'unavailable') return this.s.challenges.keySetUnavailable(refusal.why);
    return this.s.challenges.invalid(refusal.problem);
  }

  private accept(
    token: string,
    payload: Record<string, unknown>,
    key: KeyState,
    ctx: StoreBudgetHolder | undefined,
  ): Step<Identity> {
    const { challenges } = this.s;
    const identity = identityFromClaims(payload, this.s.claims);
    if (identity === undefined) {
      this.s.logRefusal?.('sub, the client or the scopes are missing or of the wrong type', ctx);
      throw challenges.invalid('invalid');
    }
    const jti = typeof payload.jti === 'string' ? payload.jti : '';
    const mark = jti === '' ? undefined : this.s.store.get(jti, ctx);
    return andThen(mark, (mark) => {
      if (mark !== undefined || this.revoked.has(jti)) throw challenges.invalid('revoked');
      const now = this.now();
      const expMs = ((payload.exp as number) + this.s.clockTolerance) * 1000;
      if (now >= expMs) throw challenges.invalid('expired');
      this.remember(token, {
        identity,
        iss: payload.iss as string,
        aud: typeof payload.aud === 'string' ? [payload.aud] : ((payload.aud as string[]) ?? []),
        expMs,
        key,
        jti,
        recheckAt: now + this.s.revocationCheckMs,
      });
      return identity;
    });
  }

  /**
   * Refuses the token `jti` from now on: at once here, and on other instances once they next
   * ask the shared store (within `revocationCheckMs`). `expiresAt` is its `exp` in seconds.
   */
  revoke(jti: string, expiresAt: number): Step<void> {
    const now = this.now();
    const expMs = (expiresAt + this.s.clockTolerance) * 1000;
    for (const [token, entry] of this.cache.entries()) if (entry.jti === jti) this.forget(token);
    const ttl = Math.ceil(expMs - now);
    if (ttl <= 0) return;
    this.markRevoked(jti, expMs, now);
    return this.s.store.set(jti, '1', ttl);
  }

  private markRevoked(jti: string, expMs: number, now: number): void {
    const { revoked } = this;
    if (revoked.size >= revoked.bound) {
      for (const [id, until] of revoked.entries()) if (until <= now) revoked.delete(id);
    }
    // Still full: the oldest goes; the shared store keeps the revocation anyway.
    revoked.set(jti, expMs);
  }

  /** How many verified tokens the cache holds (for tests and metrics). */
  get size(): number {
    return this.cache.size;
  }
}
