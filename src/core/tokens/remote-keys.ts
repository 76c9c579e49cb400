/**
 * An identity provider's JWK set, fetched so that no token can make the service hammer the
 * provider: one fetch per cooldown whatever its outcome, shared by every request that needs it,
 * each bounded in time and bytes. jose picks and imports the keys (`createLocalJWKSet`).
 */
import { createLocalJWKSet, type FlattenedJWSInput, type JWSHeaderParameters } from 'jose';
import { type FetchBounds, fetchKeySet, KeySetUnavailableError } from './fetch-key-set.ts';

/** How the set is fetched and kept, resolved from the bearer options. */
interface RemoteKeySettings extends FetchBounds {
  /** The least time between two fetches, whatever their outcome, in milliseconds. */
  cooldownMs: number;
  /** How long a fetched set is used before it is fetched again (at least `cooldownMs`). */
  maxAgeMs: number;
  /** The clock, in milliseconds. */
  now: () => number;
}

/**
 * What the verified-token cache watches of the keys that verified a token: the provider's keys
 * under one `kid` as one fetch gave them. A later fetch that drops them, or gives other keys
 * under that `kid`, marks them removed, and the cache stops vouching for their tokens.
 */
class RemoteKeyState {
  removed = false;
  constructor(readonly print: string) {}
}

type LocalSet = ReturnType<typeof createLocalJWKSet>;

/** One fetched set: jose's local set, and the state of each `kid` it holds. */
interface Generation {
  readonly local: LocalSet;
  /** When the fetch that gave it started. */
  readonly fetchedAt: number;
  readonly kids: ReadonlyMap<string, RemoteKeyState>;
  /** For a token without a `kid`: any change of the set counts as its key's removal. */
  readonly whole: RemoteKeyState;
}

/** A JWK's text with its members in one order, so that a refetch compares keys, not spellings. */
function printOf(jwk: unknown): string {
  return typeof jwk === 'object' && jwk !== null
    ? JSON.stringify(jwk, Object.keys(jwk).sort())
    : JSON.stringify(jwk);
}

const codeOf = (error: unknown) => (error as { code?: unknown } | null)?.code;

/** The JWK set of `jwksUri`, fetched within {@link RemoteKeySettings}. */
export class RemoteKeySet {
  private current: Generation | undefined;
  /** When the last fetch started, whatever became of it. */
  private attemptedAt = Number.NEGATIVE_INFINITY;
  /** Why the last finished fetch failed; `undefined` when it gave a set. */
  private failure: string | undefined;
  private pending: Promise<Generation> | undefined;

  constructor(
    private readonly url: string,
    private readonly s: RemoteKeySettings,
  ) {}

  /**
   * The key of `header` for jose's `jwtVerify`, `note` told the state of the keys it came from.
   * A set older than `maxAgeMs` is fetched again; a `kid` the set lacks makes it fetch again
   * (a rotation). Either waits for a fetch under way, starts one if the cooldown allows, or
   * else answers at once: a {@link KeySetUnavailableError} (503) when the last fetch failed,
   * jose's no-matching-key (401) when it succeeded.
   */
  async getKey(
    header: JWSHeaderParameters,
    token: FlattenedJWSInput,
    note: (state: RemoteKeyState) => void,
  ): Promise<CryptoKey> {
    let set = this.current;
    if (set === undefined || this.s.now() >= set.fetchedAt + this.s.maxAgeMs) {
      set = await this.fetchOrRefuse();
    }
    try {
      return await this.keyOf(set, header, token, note);
    } catch (error) {
      if (codeOf(error) !== 'ERR_JWKS_NO_MATCHING_KEY') throw error;
      // A set fetched meanwhile by another request may hold it already.
      if (this.current !== set && this.current !== undefined) set = this.current;
      else {
        const next = this.fetchOnce();
        if (next === undefined) {
          if (this.failure !== undefined) throw this.coolingDown();
          throw error;
        }
        set = await next;
      }
      return this.keyOf(set, header, token, note);
    }
  }

  private async keyOf(
    set: Generation,
    header: JWSHeaderParameters,
    token: FlattenedJWSInput,
    note: (state: RemoteKeyState) => void,
  ): Promise<CryptoKey> {
    const { kid } = header;
    const key = await set.local(header, token);
    note(typeof kid === 'string' ? (set.kids.get(kid) ?? set.whole) : set.whole);
    return key;
  }

  private fetchOrRefuse(): Promise<Generation> {
    return this.fetchOnce() ?? Promise.reject(this.coolingDown());
  }

  private coolingDown(): KeySetUnavailableError {
    const wait = Math.max(0, this.attemptedAt + this.s.cooldownMs - this.s.now());
    return new KeySetUnavailableError(
      `the last fetch failed (${this.failure ?? 'the set is too old'}); the next one is allowed in ${Math.ceil(wait / 1000)} s (jwksCooldownMs)`,
    );
  }

  /**
   * The fetch under way, or a new one when the cooldown allows it; `undefined` when it does not.
   * Every request that needs the set while a fetch runs waits for that one.
   */
  private fetchOnce(): Promise<Generation> | undefined {
    if (this.pending !== undefined) return this.pending;
    const now = this.s.now();
    if (now - this.attemptedAt < this.s.cooldownMs) return undefined;
    this.attemptedAt = now;
    this.pending = this.fetch(now);
    return this.pending;
  }

  private async fetch(startedAt: number): Promise<Generation> {
    try {
      const json = await fetchKeySet(this.url, this.s);
      let local: LocalSet;
      try {
        local = createLocalJWKSet(json as Parameters<typeof createLocalJWKSet>[0]);
      } catch {
        throw new KeySetUnavailableError('the answer is not a JWK set (RFC 7517 §5)');
      }
      this.failure = undefined;
      return this.adopt(local, json as { keys: readonly unknown[] }, startedAt);
    } catch (error) {
      this.failure = error instanceof Error ? error.message : String(error);
      throw error instanceof KeySetUnavailableError
        ? error
        : new KeySetUnavailableError(this.failure);
    } finally {
      this.pending = undefined;
    }
  }

  /** Makes `local` the current set; the keys the previous one held and this one lacks are removed. */
  private adopt(
    local: LocalSet,
    json: { keys: readonly unknown[] },
    fetchedAt: number,
  ): Generation {
    const prints = new Map<string, string[]>();
    for (const jwk of json.keys) {
      const kid = (jwk as { kid?: unknown }).kid;
      if (typeof kid !== 'string') continue;
      const list = prints.get(kid) ?? [];
      list.push(printOf(jwk));
      prints.set(kid, list);
    }
    const before = this.current;
    const kids = new Map<string, RemoteKeyState>();
    for (const [kid, list] of prints) {
      const print = list.sort().join('\n');
      const kept = before?.kids.get(kid);
      kids.set(kid, kept?.print === print ? kept : new RemoteKeyState(print));
    }
    const all = json.keys.map(printOf).sort().join('\n');
    const whole = before?.whole.print === all ? before.whole : new RemoteKeyState(all);
    if (before !== undefined) {
      for (const [kid, state] of before.kids) if (kids.get(kid) !== state) state.removed = true;
      if (before.whole !== whole) before.whole.removed = true;
    }
    const next: Generation = { local, fetchedAt, kids, whole };
    this.current = next;
    return next;
  }
}
