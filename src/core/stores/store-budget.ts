/**
 * One request's store budget: the time the request may spend waiting for stores, shared by every
 * bounded store call made for it, so that a request waits one bound however many calls it makes.
 */

/**
 * What carries a request's {@link StoreBudget}: the request context (`ctx`) does. Hand it to a
 * {@link GuardedStore}'s calls (`store.get(key, ctx)`) and to a rate limiter's checks, and every
 * store call made for the request waits out of one budget.
 *
 * @category Stores
 */
export interface StoreBudgetHolder {
  /** The budget, made by the first bounded call that has to wait; `undefined` until then. */
  storeBudget: StoreBudget | undefined;
}

/**
 * The time one request may still spend waiting for stores. Only waiting counts: the clock runs
 * while at least one of the request's store calls is pending (calls in parallel wait together),
 * never between them, so a handler's own work does not spend it. Made at a request's first
 * store call that answers with a promise, with that call's bound (`timeoutMs`, 250 ms by
 * default); a store that answers synchronously never makes one.
 *
 * @category Stores
 */
export class StoreBudget {
  /** The whole budget, in milliseconds. */
  readonly ms: number;
  /** What is left, in milliseconds, as of `since` while calls are pending, else now. */
  private left: number;
  private pending = 0;
  private since = 0;
  /** The latest end of a call pending since `since`: the wait ends at the last of them. */
  private until = 0;

  /** @param ms - the whole budget, in milliseconds */
  constructor(ms: number) {
    this.ms = ms;
    this.left = ms;
  }

  /** Whether the request already waited its whole budget: it asks no store again. */
  spent(now: number): boolean {
    return (this.pending === 0 ? this.left : this.left - (now - this.since)) <= 0;
  }

  /** Starts a call at `now`; answers how long it may wait, in milliseconds (0 or less: none). */
  start(now: number): number {
    if (this.pending++ === 0) {
      this.since = now;
      this.until = now;
      return this.left;
    }
    return this.left - (now - this.since);
  }

  /**
   * Ends a call {@link StoreBudget.start} started, once, at `now`. A call that waited all it was
   * allowed passes the end of that wait, even when the wall clock reads a millisecond less (a
   * timer and `Date.now()` round apart), so a request that waited its whole budget has spent it.
   */
  end(now: number): void {
    if (now > this.until) this.until = now;
    if (--this.pending === 0) this.left -= this.until - this.since;
  }
}
