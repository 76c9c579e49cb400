/**
 * Staying under a known rate limit (spec 8.3): calls wait while the requests left in the window
 * are taken by calls in flight, and go once the window resets, so that a client that knows its
 * limit is rarely answered 429.
 */
import type { LimitState } from './headers.ts';
import { sleep } from './sleep.ts';

/** The rate budget of one origin, shared by every call of a client. */
export class RateGate {
  #remaining: number | undefined;
  #limit: number | undefined;
  #resetAt: number | undefined;
  #inFlight = 0;
  #waiters: (() => void)[] = [];
  readonly #now: () => number;

  constructor(now: () => number = Date.now) {
    this.#now = now;
  }

  /** How long a call must wait before it may go (0: now, -1: until a call returns), and takes its place when it may. */
  #tryTake(): number {
    const now = this.#now();
    if (this.#resetAt !== undefined && now >= this.#resetAt) {
      // A new window: as many calls as the limit, when it is known.
      this.#remaining = this.#limit;
      this.#resetAt = undefined;
    }
    // Until a response came back, one call goes first and learns the budget.
    if (!this.#learned && this.#inFlight > 0) return -1;
    if (this.#remaining === undefined || this.#remaining - this.#inFlight > 0) {
      this.#inFlight++;
      return 0;
    }
    if (this.#resetAt !== undefined) return Math.max(1, this.#resetAt - now);
    // Spent, and no reset known: the calls in flight will tell; with none, the server will.
    if (this.#inFlight > 0) return -1;
    this.#inFlight++;
    return 0;
  }

  /** Whether any response came back yet. */
  #learned = false;

  /**
   * Waits until a call may go without passing the known limit; a wait past `maxWait` rejects at
   * once with what `refuse` makes of it (a reset far ahead must not hold calls for ever).
   */
  async acquire(
    signal: AbortSignal | undefined,
    maxWait: number,
    refuse: (wait: number) => Error,
  ): Promise<void> {
    for (;;) {
      const wait = this.#tryTake();
      if (wait === 0) return;
      if (wait > maxWait) throw refuse(wait);
      if (wait < 0) await new Promise<void>((resolve) => this.#waiters.push(resolve));
      else await sleep(wait, signal);
      signal?.throwIfAborted();
    }
  }

  /** Gives back a call's place, with what its response said of the limit. */
  release(state: LimitState | undefined): void {
    this.#inFlight--;
    this.#learned = true;
    if (state?.remaining !== undefined) {
      if (state.limit !== undefined) this.#limit = state.limit;
      const sameWindow =
        this.#resetAt !== undefined &&
        state.resetAt !== undefined &&
        Math.abs(state.resetAt - this.#resetAt) < 1000;
      // Responses come back in any order: within a window the smallest count is the latest.
      this.#remaining =
        sameWindow && this.#remaining !== undefined
          ? Math.min(this.#remaining, state.remaining)
          : state.remaining;
      if (state.resetAt !== undefined) {
        this.#resetAt = sameWindow ? Math.max(this.#resetAt ?? 0, state.resetAt) : state.resetAt;
      }
    }
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const wake of waiters) wake();
  }

  /** A 429 or 503 said to wait `ms`: no call goes before then. */
  holdFor(ms: number): void {
    this.#remaining = 0;
    this.#resetAt = Math.max(this.#resetAt ?? 0, this.#now() + ms);
  }
}
