/** The one store interface every stateful feature shares (rate limits, tokens, CSRF). */

/**
 * A counter's value after a hit, and when its window ends.
 *
 * @category Stores
 */
export interface Counter {
  /** The count after this hit. */
  value: number;
  /** When the counter expires, in milliseconds since the epoch. */
  expiresAt: number;
}

/**
 * One fixed window that a {@link Store.hit} counts in: its counter's key and its length.
 *
 * @category Stores
 */
export interface HitWindow {
  /** The key of this window's counter, e.g. `rl:alice:1s`. */
  key: string;
  /** How long a new counter lives, in milliseconds (a whole number above 0). */
  ttlMs: number;
}

/**
 * How a rate policy counts: `fixed-window` (a counter per window that starts at the first
 * request, so `X-RateLimit-Reset` is exact), `sliding-window` (the current and the previous
 * clock-aligned window, the previous one weighted by how much of it still overlaps), or `gcra`
 * (the generic cell rate algorithm: requests spread evenly, `limit` of them at once at most).
 *
 * @category Stores
 */
export type RateAlgorithm = 'fixed-window' | 'sliding-window' | 'gcra';

/**
 * One policy's check in a {@link Store.limit} call.
 *
 * @category Stores
 */
export interface RateCheck {
  /**
   * The key of this policy's state for one identity. On Redis Cluster every key of one call
   * carries the same hash tag (`rl:{ip:10.0.0.1}:hourly`), so one script serves them all.
   */
  key: string;
  /** How the policy counts. */
  algorithm: RateAlgorithm;
  /** Requests allowed per window, a whole number above 0. */
  limit: number;
  /** The window in milliseconds, a whole number above 0. */
  windowMs: number;
  /** What this request costs, a whole number from 0. */
  cost: number;
}

/**
 * What a {@link Store.limit} call decided for one policy.
 *
 * @category Stores
 */
export interface RateVerdict {
  /** Whether this policy lets the request through. */
  allowed: boolean;
  /**
   * Requests still allowed by this policy after this one (counted only when every policy of the
   * call allowed it); never negative.
   */
  remaining: number;
  /** When this policy's count is back to zero (a fixed window's end), in ms since the epoch. */
  resetAt: number;
  /** When refused, how long until a request of the same cost would pass, in ms; else 0. */
  retryAfterMs: number;
}

/**
 * A small key-value store with expiry and atomic counters. Every method may answer synchronously
 * or with a promise, so a memory store costs no asynchronous hop, and every method is one atomic
 * step, so a Redis store answers each call in one round trip (one command or one Lua script).
 *
 * A store that cannot answer throws or rejects; wrap it with {@link guardStore} so that the
 * failure, or a call that hangs, becomes a 503 and no feature decides anything without it.
 *
 * Keys are plain strings; give each feature its own prefix (see {@link GuardStoreOptions.prefix}).
 *
 * @category Stores
 */
export interface Store {
  /** The value of `key`, or `undefined` when absent or expired. */
  get(key: string): Promise<string | undefined> | string | undefined;
  /**
   * Sets `key` to `value`, expiring after `ttlMs` milliseconds when given, never otherwise; a
   * key set again takes the new value and the new expiry (or none).
   */
  set(key: string, value: string, ttlMs?: number): Promise<void> | void;
  /** Removes `key`; tells whether it was there, so that exactly one caller can consume a value. */
  delete(key: string): Promise<boolean> | boolean;
  /**
   * Counts one request (or `by`) in every window at once, atomically, and returns each window's
   * counter in the order given. A new counter starts at `by` and expires `ttlMs` after it
   * started; the expiry of a running counter does not move (a fixed window). A counter reads back
   * with {@link Store.get} as its decimal string. The keys of one call are distinct.
   *
   * One call covers every window of a policy (10 per second and 1000 per hour, say), so a
   * request is counted in all of them or in none. On Redis: one script of `INCRBY` and, for a
   * new counter, `PEXPIRE` per key. A single counter is `hit([{ key, ttlMs }], by)[0]`.
   *
   * @param by - The amount to add, a whole number. @default 1
   */
  hit(windows: readonly HitWindow[], by?: number): Promise<Counter[]> | Counter[];
  /**
   * Reads and removes `key` in one step (`GETDEL`): of concurrent takes of one key, exactly one
   * gets the value and the others `undefined`, so a single-use token is used once.
   */
  take(key: string): Promise<string | undefined> | string | undefined;
  /**
   * Sets `key` only when it is absent or expired (`SET key value NX PX ttlMs`) and tells whether
   * it did: of concurrent adds of one key, exactly one gets `true`.
   */
  add(key: string, value: string, ttlMs: number): Promise<boolean> | boolean;
  /**
   * Checks a request against every rate policy of one call at once, atomically, and counts it
   * in all of them only when all of them allow it: a request refused by a 10-per-second policy
   * spends nothing of its 1000-per-hour budget. `now` is the limiter's clock, in milliseconds
   * since the epoch; the store reads no clock of its own here. On Redis: one Lua script.
   *
   * Optional, so that a store written for other features still works; the rate limiter needs it
   * and says so at start-up.
   */
  limit?(checks: readonly RateCheck[], now: number): Promise<RateVerdict[]> | RateVerdict[];
  /** Releases timers and connections. */
  close?(): Promise<void> | void;
}
