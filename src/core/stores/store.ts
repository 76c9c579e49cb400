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
  /** Releases timers and connections. */
  close?(): Promise<void> | void;
}
