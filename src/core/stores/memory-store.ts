/** The default in-process store: a bounded map with expiry and an unref'd sweep timer. */
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import { type CounterView, decideRates } from './rate-algorithms.ts';
import type { Counter, HitWindow, RateCheck, RateVerdict, Store } from './store.ts';

/**
 * Options of {@link MemoryStore}.
 *
 * @category Stores
 */
export interface MemoryStoreOptions {
  /**
   * The most keys held. When a new key would pass it, expired keys are dropped first; if every
   * key is still live, what happens is `whenFull`'s choice.
   * @default 100000
   */
  maxKeys?: number;
  /**
   * What a full store does with a new key when every key is live: `'refuse'` throws (a 503
   * through {@link guardStore}) and keeps every live key, right for single-use tokens;
   * `'evict'` drops the oldest keys to make room, right for rate counters, where a flood of new
   * identities must neither exhaust memory nor lock out new callers (an evicted counter starts
   * again from zero). @default 'refuse'
   */
  whenFull?: 'refuse' | 'evict';
  /**
   * How often expired keys are swept, in milliseconds, by a timer that starts with the first
   * key stored. @default 60000
   */
  sweepIntervalMs?: number;
  /** The clock, for tests. @default Date.now */
  now?: () => number;
}

interface Entry {
  // A counter stays a number so that a hit costs no parsing; get() gives its decimal string.
  value: string | number;
  expiresAt: number;
}

/** A counter's number, or `undefined` when a string is not a whole number in decimal. */
function count(value: string | number): number | undefined {
  if (typeof value === 'number') return value;
  const n = Number(value);
  return /^-?\d{1,16}$/.test(value) && Number.isSafeInteger(n) ? n : undefined;
}

/**
 * A {@link Store} in this process's memory: right for one instance; use the Redis store when
 * several instances share limits or tokens. Every method answers synchronously, and its sweep
 * timer, started with the first key (never at construction, which a Workers global scope
 * forbids), never keeps the process alive.
 *
 * When full, it refuses new keys rather than evict live ones: under a flood of new keys
 * (an attacker cycling identities, say), evicting would wipe other callers' counters and
 * tokens, so limits would fail open. Refusing makes the flood's own new keys fail (a 503
 * through {@link guardStore}) while every existing key keeps working.
 *
 * @example
 * ```ts
 * import { conventions, csrf, MemoryStore, rateLimit } from 'api-conventions';
 *
 * // One store for the features of one instance; RedisStore (api-conventions/redis) for several.
 * const store = new MemoryStore();
 * const api = conventions({
 *   plugins: [
 *     rateLimit({ store, policies: [{ limit: 100, window: 60 }] }),
 *     csrf({ secret: process.env.CSRF_SECRET!, store }),
 *   ],
 * });
 * ```
 *
 * @category Stores
 */
export class MemoryStore implements Store {
  private readonly entries = new Map<string, Entry>();
  private readonly maxKeys: number;
  private readonly now: () => number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private readonly interval: number;
  // No entry expires before this time (a lower bound), so a full store sweeps only when a
  // sweep can free something, not on every refused key.
  private nextExpiry = Number.POSITIVE_INFINITY;
  private readonly evict: boolean;
  private readonly view: CounterView;
  // The time of the running limit() call, read by its view.
  private clock = 0;

  constructor(options: MemoryStoreOptions = {}) {
    assertKnownKeys('MemoryStore', options, ['maxKeys', 'whenFull', 'sweepIntervalMs', 'now']);
    this.maxKeys = assertInteger('MemoryStore maxKeys', options.maxKeys ?? 100_000, 1, 2 ** 31);
    this.interval = assertInteger(
      'MemoryStore sweepIntervalMs',
      options.sweepIntervalMs ?? 60_000,
      10,
      2 ** 31 - 1, // the longest delay setInterval supports
    );
    this.now = options.now ?? Date.now;
    const whenFull = options.whenFull ?? 'refuse';
    if (whenFull !== 'refuse' && whenFull !== 'evict') {
      throw new TypeError(
        `MemoryStore whenFull must be 'refuse' or 'evict'; got ${String(options.whenFull)}.`,
      );
    }
    this.evict = whenFull === 'evict';
    this.view = {
      read: (key) => {
        const entry = this.live(key, this.clock);
        if (entry === undefined) return undefined;
        // A number already: the entry itself serves as the state, with no copy.
        if (typeof entry.value === 'number') return entry as { value: number; expiresAt: number };
        const value = count(entry.value) ?? Number(entry.value);
        if (!Number.isFinite(value)) {
          throw new TypeError(`MemoryStore: the value at "${key}" is not a number.`);
        }
        return { value, expiresAt: entry.expiresAt };
      },
      write: (key, value, expiresAt) => {
        const entry = this.entries.get(key);
        if (entry === undefined) {
          this.reserve(1, this.clock);
          this.write(key, value, expiresAt);
        } else {
          entry.value = value;
          entry.expiresAt = expiresAt;
          if (expiresAt < this.nextExpiry) this.nextExpiry = expiresAt;
        }
      },
    };
  }

  // The sweep timer starts with the first key, not in the constructor: a Workers global scope
  // forbids timers, and the documented pattern builds the store (through rateLimit() or the
  // OAuth server) at module scope.
  private startSweeping(): void {
    this.timer = setInterval(() => this.sweep(), this.interval);
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** What this store does with a new key when full (its `whenFull` option). */
  get whenFull(): 'refuse' | 'evict' {
    return this.evict ? 'evict' : 'refuse';
  }

  /** How many keys are held, expired ones not yet swept included. */
  get size(): number {
    return this.entries.size;
  }

  private live(key: string, now: number): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= now) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** Makes room for `count` new keys or throws, before anything is written. */
  private reserve(count: number, now: number): void {
    if (this.entries.size + count <= this.maxKeys) return;
    if (this.nextExpiry <= now) this.sweep();
    if (this.entries.size + count <= this.maxKeys) return;
    if (this.evict) {
      // A Map iterates in insertion order: the first keys are the oldest.
      for (const key of this.entries.keys()) {
        this.entries.delete(key);
        if (this.entries.size + count <= this.maxKeys) return;
      }
    }
    throw new Error(
      `MemoryStore is full: its ${this.maxKeys} keys (maxKeys) are all live, so a new key was ` +
        'refused and the existing keys were kept. Raise maxKeys or use a shared store.',
    );
  }

  private write(key: string, value: string | number, expiresAt: number): Entry {
    const entry = { value, expiresAt };
    if (this.timer === undefined) this.startSweeping();
    this.entries.set(key, entry);
    if (expiresAt < this.nextExpiry) this.nextExpiry = expiresAt;
    return entry;
  }

  get(key: string): string | undefined {
    const value = this.live(key, this.now())?.value;
    return typeof value === 'number' ? String(value) : value;
  }

  set(key: string, value: string, ttlMs?: number): void {
    const now = this.now();
    if (!this.entries.has(key)) this.reserve(1, now);
    this.write(key, value, ttlMs === undefined ? Number.POSITIVE_INFINITY : now + ttlMs);
  }

  delete(key: string): boolean {
    return this.live(key, this.now()) !== undefined && this.entries.delete(key);
  }

  hit(windows: readonly HitWindow[], by = 1): Counter[] {
    const now = this.now();
    // Check every window before counting in any, so a refused or failed hit counts nothing.
    let fresh = 0;
    for (const { key } of windows) {
      const entry = this.live(key, now);
      if (entry === undefined) fresh++;
      else if (count(entry.value) === undefined) {
        // Like Redis INCRBY, which refuses a value that is not a whole number.
        throw new TypeError(`MemoryStore: the value at "${key}" is not a whole number.`);
      }
    }
    if (fresh > 0) this.reserve(fresh, now);
    return windows.map(({ key, ttlMs }) => {
      const entry = this.live(key, now) ?? this.write(key, 0, now + ttlMs);
      entry.value = count(entry.value)! + by;
      return { value: entry.value, expiresAt: entry.expiresAt };
    });
  }

  limit(checks: readonly RateCheck[], now: number = this.now()): RateVerdict[] {
    this.clock = now;
    return decideRates(this.view, checks, now);
  }

  take(key: string): string | undefined {
    const value = this.get(key);
    if (value !== undefined) this.entries.delete(key);
    return value;
  }

  add(key: string, value: string, ttlMs: number): boolean {
    const now = this.now();
    if (this.live(key, now) !== undefined) return false;
    this.reserve(1, now);
    this.write(key, value, now + ttlMs);
    return true;
  }

  /** Drops every expired key now. */
  sweep(): void {
    const now = this.now();
    let next = Number.POSITIVE_INFINITY;
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt <= now) this.entries.delete(key);
      else if (entry.expiresAt < next) next = entry.expiresAt;
    }
    this.nextExpiry = next;
  }

  close(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.entries.clear();
    this.nextExpiry = Number.POSITIVE_INFINITY;
  }
}
