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
 * What {@link decideRates} reads and writes: live numeric state by key. A store implements it
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

interface Pending {
  key: string;
  value: number;
  expiresAt: number;
}

/** One check's verdict if nothing is counted, its verdict if counted, and the write counting does. */
interface Decision {
  refused: RateVerdict;
  counted: RateVerdict;
  write: Pending;
}

function fixedWindow(view: CounterView, c: RateCheck, now: number): Decision {
  const entry = view.read(c.key);
  const count = entry?.value ?? 0;
  const resetAt = entry?.expiresAt ?? now + c.windowMs;
  const allowed = count + c.cost <= c.limit;
  return {
    refused: {
      allowed,
      remaining: Math.max(0, c.limit - count),
      resetAt,
      retryAfterMs: allowed ? 0 : resetAt - now,
    },
    counted: {
      allowed,
      remaining: Math.max(0, c.limit - count - c.cost),
      resetAt,
      retryAfterMs: 0,
    },
    write: { key: c.key, value: count + c.cost, expiresAt: resetAt },
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
  }
  return {
    refused: {
      allowed,
      remaining: Math.max(0, Math.floor(c.limit - estimate)),
      resetAt,
      retryAfterMs: Math.max(retryAfterMs, allowed ? 0 : 1),
    },
    counted: {
      allowed,
      remaining: Math.max(0, Math.floor(c.limit - estimate - c.cost)),
      resetAt,
      retryAfterMs: 0,
    },
    write: { key: currentKey, value: current + c.cost, expiresAt: start + 2 * c.windowMs },
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
    refused: {
      allowed,
      remaining: left(tat),
      resetAt: Math.ceil(tat),
      retryAfterMs: allowed ? 0 : Math.max(1, next - c.windowMs - now),
    },
    counted: { allowed, remaining: left(next), resetAt: Math.ceil(next), retryAfterMs: 0 },
    write: { key: c.key, value: next, expiresAt: Math.ceil(next) },
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
  const decisions: Decision[] = [];
  let allowed = true;
  for (const check of checks) {
    const decision =
      check.algorithm === 'fixed-window'
        ? fixedWindow(view, check, now)
        : check.algorithm === 'gcra'
          ? gcra(view, check, now)
          : slidingWindow(view, check, now);
    if (!decision.refused.allowed) allowed = false;
    decisions.push(decision);
  }
  if (!allowed) return decisions.map((d) => d.refused);
  for (let i = 0; i < decisions.length; i++) {
    const { write } = decisions[i]!;
    if (checks[i]!.cost > 0) view.write(write.key, write.value, write.expiresAt);
  }
  return decisions.map((d) => d.counted);
}
