/** The one store interface every stateful feature shares (rate limits, tokens, CSRF). */

/** A counter's value after an increment, and when its window ends. */
export interface Counter {
  /** The count after this increment. */
  value: number;
  /** When the counter expires, in milliseconds since the epoch. */
  expiresAt: number;
}

/**
 * A small key-value store with expiry. Every method may answer synchronously or with a promise,
 * so a memory store costs no asynchronous hop and a Redis store can be used as it is. A store
 * that cannot answer rejects (or throws); features then fail closed with a 503.
 */
export interface Store {
  /** The value of `key`, or `undefined` when absent or expired. */
  get(key: string): Promise<string | undefined> | string | undefined;
  /** Sets `key`, expiring after `ttlMs` milliseconds when given. */
  set(key: string, value: string, ttlMs?: number): Promise<void> | void;
  /** Removes `key`; tells whether it was there, so that exactly one caller can consume a value. */
  delete(key: string): Promise<boolean> | boolean;
  /**
   * Adds `by` to the counter at `key` atomically. A new counter starts at `by` and expires after
   * `ttlMs`; the expiry of a running counter does not move (a fixed window).
   */
  increment(key: string, by: number, ttlMs: number): Promise<Counter> | Counter;
  /** Releases timers and connections. */
  close?(): Promise<void> | void;
}
