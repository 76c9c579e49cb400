/**
 * One request's store budget: a call that waited its whole bound spends the budget,
 * whatever the wall clock rounds the wait to, so the request's next store call is refused
 * without asking the store (the Redis Cluster failover test counts this on a real cluster).
 */
import { afterEach, expect, it, vi } from 'vitest';
import { spentBudget, withinBudget } from '../../src/core/stores/fail-closed.ts';
import type { StoreBudgetHolder } from '../../src/core/stores/store-budget.ts';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

it('spends the whole budget when a call times out, even if Date.now() reads a millisecond short', async () => {
  vi.useFakeTimers();
  const start = Date.now();
  const holder: StoreBudgetHolder = { storeBudget: undefined };
  const now = vi.spyOn(Date, 'now').mockReturnValue(start);
  const late = new Error('late');
  const call = withinBudget(new Promise<never>(() => {}), 250, holder, () => late);
  // The timer fires after 250 ms while the wall clock reads 249 ms later.
  now.mockReturnValue(start + 249);
  vi.advanceTimersByTime(250);
  await expect(call).rejects.toBe(late);
  expect(spentBudget(holder)).toBe(holder.storeBudget);
});

it('keeps what is left when a call answers before its bound', async () => {
  vi.useFakeTimers();
  const start = Date.now();
  const holder: StoreBudgetHolder = { storeBudget: undefined };
  const now = vi.spyOn(Date, 'now').mockReturnValue(start);
  let answer!: (value: number) => void;
  const call = withinBudget(new Promise<number>((r) => (answer = r)), 250, holder, () => 'late');
  now.mockReturnValue(start + 100);
  answer(7);
  await expect(call).resolves.toBe(7);
  expect(spentBudget(holder)).toBeUndefined();
  // The next call may wait the 150 ms left, and no more.
  const next = withinBudget(new Promise<never>(() => {}), 250, holder, () => 'late');
  now.mockReturnValue(start + 249);
  vi.advanceTimersByTime(149);
  expect(spentBudget(holder)).toBeUndefined();
  now.mockReturnValue(start + 250);
  vi.advanceTimersByTime(1);
  await expect(next).rejects.toBe('late');
  expect(spentBudget(holder)).toBe(holder.storeBudget);
});
