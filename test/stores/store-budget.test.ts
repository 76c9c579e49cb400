/**
 * One store budget per request: the store calls made for one request (the guarded stores given
 * its `ctx`, the rate limiter's checks) wait out of one bound together, instead of one bound
 * each, so a failing store costs a request one bound however many calls it makes. Timers and
 * the clock are faked: the budget's arithmetic is checked exactly, no time is measured.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RequestContext } from '../../src/core/kernel/context.ts';
import {
  ApiError,
  createRateLimiter,
  ErrorCode,
  guardStore,
  MemoryStore,
  type Store,
  type StoreBudgetHolder,
} from '../../src/index.ts';

/** A store whose every method answers with `answer()`, counting how often it was asked. */
function countingStore(answer: () => unknown): Store & { asked: number } {
  const store = { asked: 0 } as Store & { asked: number };
  for (const method of ['get', 'set', 'delete', 'hit', 'take', 'add', 'limit']) {
    (store as unknown as Record<string, unknown>)[method] = () => {
      store.asked++;
      return answer();
    };
  }
  return store;
}

const hangs = () => new Promise(() => {});
/** An answer that comes after `ms` (of the faked clock). */
const answersAfter = (ms: number, value: unknown) => () =>
  new Promise((resolve) => setTimeout(() => resolve(value), ms));

/** How a call ended, and whether it has yet: read after advancing the clock. */
function watch(call: () => unknown) {
  const state: { settled: boolean; error?: unknown; value?: unknown } = { settled: false };
  const done = Promise.resolve()
    .then(call)
    .then(
      (value) => Object.assign(state, { settled: true, value }),
      (error: unknown) => Object.assign(state, { settled: true, error }),
    );
  return Object.assign(state, { done });
}

const request = (): StoreBudgetHolder => ({ storeBudget: undefined });

describe('one store budget per request, shared by its store calls', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-01-31T09:00:00Z') });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('refuses a call with the 503 without asking the store once the request waited its whole budget', async () => {
    const store = countingStore(hangs);
    const guarded = guardStore(store, { prefix: 'a:' });
    const ctx = request();
    const first = watch(() => guarded.get('x', ctx));
    await vi.advanceTimersByTimeAsync(250);
    expect(first.error).toMatchObject({ status: 503, code: ErrorCode.StoreUnavailable });
    // The second call of the same request: answered at once, the store never asked.
    const second = watch(() => guarded.take('y', ctx));
    await vi.advanceTimersByTimeAsync(0);
    expect(second.settled).toBe(true);
    expect(second.error).toBeInstanceOf(ApiError);
    expect(second.error).toMatchObject({ status: 503, code: ErrorCode.StoreUnavailable });
    expect((second.error as ApiError).toJSON()).toEqual({
      errors: [{ message: expect.stringMatching(/250 ms a request may wait/), code: 50301 }],
    });
    expect(store.asked).toBe(1);
  });

  it('keeps one bound per call for calls made for no request', async () => {
    const store = countingStore(hangs);
    const guarded = guardStore(store);
    const first = watch(() => guarded.get('x'));
    await vi.advanceTimersByTimeAsync(250);
    expect(first.error).toMatchObject({ status: 503 });
    const second = watch(() => guarded.get('y'));
    await vi.advanceTimersByTimeAsync(249);
    expect(second.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(second.error).toMatchObject({ status: 503 });
    expect(store.asked).toBe(2);
  });

  it('spends the budget only while a call waits, never between calls (the handler’s own work)', async () => {
    let next = answersAfter(100, 'v');
    const guarded = guardStore(countingStore(() => next()));
    const ctx = request();
    const first = watch(() => guarded.get('x', ctx));
    await vi.advanceTimersByTimeAsync(100);
    expect(first.value).toBe('v');
    // A second of the request's own work: no store call is waiting.
    await vi.advanceTimersByTimeAsync(1000);
    next = hangs;
    const second = watch(() => guarded.get('y', ctx));
    await vi.advanceTimersByTimeAsync(149);
    expect(second.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(second.error).toMatchObject({ status: 503 });
  });

  it('counts calls that wait together once', async () => {
    let next = answersAfter(200, 1);
    const guarded = guardStore(countingStore(() => next()));
    const ctx = request();
    const both = [watch(() => guarded.get('x', ctx)), watch(() => guarded.get('y', ctx))];
    await vi.advanceTimersByTimeAsync(200);
    expect(both.map((c) => c.value)).toEqual([1, 1]);
    next = hangs;
    const third = watch(() => guarded.get('z', ctx));
    await vi.advanceTimersByTimeAsync(49);
    expect(third.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(third.error).toMatchObject({ status: 503 });
  });

  it('bounds a guard with a longer timeoutMs by what the request has left', async () => {
    const fast = guardStore(countingStore(answersAfter(200, 'v')));
    const slow = guardStore(countingStore(hangs), { timeoutMs: 5000 });
    const ctx = request();
    const first = watch(() => fast.get('x', ctx));
    await vi.advanceTimersByTimeAsync(200);
    expect(first.value).toBe('v');
    const second = watch(() => slow.get('y', ctx));
    await vi.advanceTimersByTimeAsync(50);
    expect(second.error).toMatchObject({ status: 503 });
  });

  it('makes no budget, and no timer, for a store that answers synchronously', () => {
    const memory = new MemoryStore();
    const guarded = guardStore(memory);
    const ctx = request();
    // The memory store's own sweep timer starts with its first key: count from after it.
    memory.set('warm', '1');
    const timers = vi.getTimerCount();
    guarded.set('x', '1', undefined, ctx);
    expect(guarded.get('x', ctx)).toBe('1');
    expect(ctx.storeBudget).toBeUndefined();
    expect(vi.getTimerCount()).toBe(timers);
    memory.close();
  });

  describe('the rate limiter and the guarded stores of one request', () => {
    const context = () =>
      new RequestContext(
        { method: 'GET', url: '/', headers: new Map(), remoteAddress: '192.0.2.7' } as never,
        '/',
        '',
        () => false,
      );

    it('share the budget: a check that waited it all leaves the request no store call', async () => {
      const counts = countingStore(hangs);
      const limiter = createRateLimiter({
        store: counts,
        onStoreFailure: 'open',
        policies: [{ limit: 10, window: 60 }],
      });
      const jobs = countingStore(hangs);
      const guarded = guardStore(jobs, { prefix: 'job:' });
      const ctx = context();
      const check = watch(() => limiter.check(ctx));
      await vi.advanceTimersByTimeAsync(250);
      // Fails open: the request goes on, uncounted, with its budget spent.
      expect(check).toMatchObject({ settled: true, value: undefined });
      const status = watch(() => guarded.get('id', ctx));
      await vi.advanceTimersByTimeAsync(0);
      expect(status.error).toMatchObject({ status: 503, code: ErrorCode.StoreUnavailable });
      expect(jobs.asked).toBe(0);
    });

    it('share it the other way: a check after a guarded call that waited it all fails at once', async () => {
      const counts = countingStore(hangs);
      const limiter = createRateLimiter({ store: counts, policies: [{ limit: 10, window: 60 }] });
      const guarded = guardStore(countingStore(hangs));
      const ctx = context();
      const first = watch(() => guarded.get('id', ctx));
      await vi.advanceTimersByTimeAsync(250);
      expect(first.error).toMatchObject({ status: 503 });
      const check = watch(() => limiter.check(ctx));
      await vi.advanceTimersByTimeAsync(0);
      expect(check.error).toMatchObject({ status: 503, code: ErrorCode.StoreUnavailable });
      expect(counts.asked).toBe(0);
    });
  });
});
