/** The rate algorithms of `Store.limit`, once, over any counter view: the memory store runs them, the Redis script mirrors them. */
import type { RateCheck, RateVerdict } from './store.ts';

/**
 * A live numeric value and when it expires, as a {@link CounterView} reads it.
 *
 * @category Stores
 */
export interface CounterState {
  /** The number held (a count, or a GCRA's theoretical arrival time). */
  value: number;
  /** When it expires, in ms since the epoch. */
  expiresAt: number;
}

/**
 * What the rate decision (`decideRates`) reads and writes: live numeric state by key. A store implements it
 * over its own storage inside one atomic step.
 *
 * @category Stores
 */
export interface CounterView {
  /** The live value and expiry of `key`, or `undefined` when absent or expired. */
  read(key: string): CounterState | undefined;
  /** Sets `key` to `value`, expiring at `expiresAt` (ms since the epoch). */
  write(key: string, value: number, expiresAt: number): void;
}

// A sliver of a millisecond: the sums of a GCRA's emission intervals may stray by rounding.
const epsilon = 1e-6;

/**
 * The keys a sliding window keeps for `key` at `now`: the current clock-aligned window's and
 * the previous one's. The Redis store sends both as script keys, so they share the hash tag.
 *
 * @category Stores
 */
export function slidingKeys(key: string, now: number, windowMs: number): [string, string] {
  const index = Math.floor(now / windowMs);
  return [`${key}:${index}`, `${key}:${index - 1}`];
}

/**
 * One check's decision: its verdict before and after counting, and the write counting does.
 * One flat object per check, so a check allocates little on the hot path.
 */
interface Decision {
  allowed: boolean;
  /** Remaining and reset if nothing is counted. */
  before: number;
  resetBefore: number;
  /** Remaining and reset once counted. */
  after: number;
  resetAfter: number;
  retryAfterMs: number;
  key: string;
  value: number;
  expiresAt: number;
}

function fixedWindow(view: CounterView, c: RateCheck, now: number): Decision {
  const entry = view.read(c.key);
  const count = entry === undefined ? 0 : entry.value;
  const resetAt = entry === undefined ? now + c.windowMs : entry.expiresAt;
  const allowed = count + c.cost <= c.limit;
  return {
    allowed,
    before: Math.max(0, c.limit - count),
    resetBefore: resetAt,
    after: Math.max(0, c.limit - count - c.cost),
    resetAfter: resetAt,
    retryAfterMs: allowed ? 0 : resetAt - now,
    key: c.key,
    value: count + c.cost,
    expiresAt: resetAt,
  };
}

function slidingWindow(view: CounterView, c: RateCheck, now: number): Decision {
  const [currentKey, previousKey] = slidingKeys(c.key, now, c.windowMs);
  const start = Math.floor(now / c.windowMs) * c.windowMs;
  const current = view.read(currentKey)?.value ?? 0;
  const previous = view.read(previousKey)?.value ?? 0;
  const estimate = previous * ((start + c.windowMs - now) / c.windowMs) + current;
  const allowed = estimate + c.cost <= c.limit;
  const resetAt = start + c.windowMs;
  let retryAfterMs = 0;
  if (!allowed) {
    const room = c.limit - current - c.cost;
    if (room >= 0 && previous > 0) {
      // previous × (1 − e / W) + current + cost ≤ limit, for the elapsed part e of this window.
      retryAfterMs = start + c.windowMs * (1 - room / previous) - now;
    } else if (c.limit >= c.cost && current > 0) {
      // The next window, where this one's count is the weighted previous.
      retryAfterMs = resetAt + c.windowMs * (1 - (c.limit - c.cost) / current) - now;
    } else {
      retryAfterMs = resetAt + c.windowMs - now;
    }
    retryAfterMs = Math.max(retryAfterMs, 1);
  }
  return {
    allowed,
    before: Math.max(0, Math.floor(c.limit - estimate)),
    resetBefore: resetAt,
    after: Math.max(0, Math.floor(c.limit - estimate - c.cost)),
    resetAfter: resetAt,
    retryAfterMs,
    key: currentKey,
    value: current + c.cost,
    expiresAt: start + 2 * c.windowMs,
  };
}

function gcra(view: CounterView, c: RateCheck, now: number): Decision {
  const interval = c.windowMs / c.limit;
  const stored = view.read(c.key)?.value;
  const tat = stored === undefined || stored < now ? now : stored;
  const next = tat + interval * c.cost;
  const allowed = next - now <= c.windowMs + epsilon;
  const left = (arrival: number) =>
    Math.max(0, Math.floor((c.windowMs - (arrival - now)) / interval + epsilon));
  return {
    allowed,
    before: left(tat),
    resetBefore: Math.ceil(tat),
    after: left(next),
    resetAfter: Math.ceil(next),
    retryAfterMs: allowed ? 0 : Math.max(1, next - c.windowMs - now),
    key: c.key,
    value: next,
    expiresAt: Math.ceil(next),
  };
}

function decide(view: CounterView, check: RateCheck, now: number): Decision {
  return check.algorithm === 'fixed-window'
    ? fixedWindow(view, check, now)
    : check.algorithm === 'gcra'
      ? gcra(view, check, now)
      : slidingWindow(view, check, now);
}

/** The verdict of a decision, counted or not. */
function verdict(d: Decision, counted: boolean): RateVerdict {
  return counted
    ? { allowed: true, remaining: d.after, resetAt: d.resetAfter, retryAfterMs: 0 }
    : {
        allowed: d.allowed,
        remaining: d.before,
        resetAt: d.resetBefore,
        retryAfterMs: d.retryAfterMs,
      };
}

/**
 * Decides every check of one {@link Store.limit} call and, when all of them allow the request,
 * writes the counts. Pure apart from `view`; run it inside one atomic step of the store.
 *
 * @category Stores
 */
export function decideRates(
  view: CounterView,
  checks: readonly RateCheck[],
  now: number,
): RateVerdict[] {
  if (checks.length === 1) {
    // One policy, the common case: no list of decisions.
    const check = checks[0]!;
    const d = decide(view, check, now);
    if (d.allowed && check.cost > 0) view.write(d.key, d.value, d.expiresAt);
    return [verdict(d, d.allowed)];
  }
  const decisions: Decision[] = [];
  let allowed = true;
  for (const check of checks) {
    const d = decide(view, check, now);
    if (!d.allowed) allowed = false;
    decisions.push(d);
  }
  if (allowed) {
    for (let i = 0; i < decisions.length; i++) {
      const d = decisions[i]!;
      if (checks[i]!.cost > 0) view.write(d.key, d.value, d.expiresAt);
    }
  }
  return decisions.map((d) => verdict(d, allowed));
}
