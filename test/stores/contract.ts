/**
 * One store contract, run on every store (STYLE.md rule 15): the memory store with fake timers
 * today, a real Redis tomorrow with one more `storeContract(...)` line.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../src/index.ts';

/** How the contract drives a store's clock. */
export interface StoreClock {
  /** Moves the store's clock on by `ms`: fake timers for memory, a real wait for Redis. */
  advance(ms: number): void | Promise<void>;
  /** The store's current time in milliseconds since the epoch. @default Date.now */
  now?(): number;
  /**
   * The time to live the tests use, in milliseconds: long enough that two calls in a row never
   * cross it, short enough to wait out on a real server. @default 1000
   */
  ttlMs?: number;
  /** How far an `expiresAt` may stray from the expected value (clock skew, rounding). @default 0 */
  slackMs?: number;
  /** Runs before each test, before `makeStore` (e.g. `vi.useFakeTimers()`). */
  setup?(): void | Promise<void>;
  /** Runs after each test, after the store is closed. */
  teardown?(): void | Promise<void>;
}

let unique = 0;

/**
 * Declares the store contract for one store. Every key a test uses is prefixed with a fresh
 * namespace, so runs on a shared server never see each other's keys.
 *
 * @example
 * ```ts
 * storeContract('MemoryStore', () => new MemoryStore({ now: () => Date.now() }), {
 *   setup: () => void vi.useFakeTimers(),
 *   teardown: () => void vi.useRealTimers(),
 *   advance: (ms) => void vi.advanceTimersByTime(ms),
 * });
 * ```
 */
export function storeContract(
  name: string,
  makeStore: () => Store | Promise<Store>,
  clock: StoreClock,
): void {
  const ttl = clock.ttlMs ?? 1000;
  const slack = clock.slackMs ?? 0;
  const now = () => (clock.now ? clock.now() : Date.now());

  describe(`Store contract: ${name}`, () => {
    let store: Store;
    let prefix: string;
    const key = (k: string) => `${prefix}:${k}`;

    /** Asserts that `actual` is `expected` give or take the slack. */
    const near = (actual: number, expected: number) => {
      expect(actual).toBeGreaterThanOrEqual(expected - slack);
      expect(actual).toBeLessThanOrEqual(expected + slack);
    };

    beforeEach(async () => {
      await clock.setup?.();
      prefix = `contract:${process.pid}:${Date.now()}:${++unique}`;
      store = await makeStore();
    });

    afterEach(async () => {
      await store.close?.();
      await clock.teardown?.();
    });

    describe('get and set', () => {
      it('returns undefined for a key never set', async () => {
        expect(await store.get(key('missing'))).toBeUndefined();
      });

      it('returns the value set', async () => {
        await store.set(key('a'), 'one');
        expect(await store.get(key('a'))).toBe('one');
      });

      it('keeps the value exactly, empty and non-ASCII strings included', async () => {
        await store.set(key('empty'), '');
        await store.set(key('text'), 'café 😀 {"a":1}');
        expect(await store.get(key('empty'))).toBe('');
        expect(await store.get(key('text'))).toBe('café 😀 {"a":1}');
      });

      it('replaces the value of a key set again', async () => {
        await store.set(key('a'), 'one');
        await store.set(key('a'), 'two');
        expect(await store.get(key('a'))).toBe('two');
      });

      it('keeps keys apart', async () => {
        await store.set(key('a'), 'one');
        await store.set(key('b'), 'two');
        expect(await store.get(key('a'))).toBe('one');
        expect(await store.get(key('b'))).toBe('two');
      });

      it('keeps a key until its ttl and drops it after', async () => {
        await store.set(key('a'), 'one', ttl);
        await clock.advance(ttl / 2);
        expect(await store.get(key('a'))).toBe('one');
        await clock.advance(ttl);
        expect(await store.get(key('a'))).toBeUndefined();
      });

      it('keeps a key without ttl', async () => {
        await store.set(key('a'), 'one');
        await clock.advance(ttl * 3);
        expect(await store.get(key('a'))).toBe('one');
      });

      it('drops the expiry of a key set again without ttl', async () => {
        await store.set(key('a'), 'one', ttl);
        await store.set(key('a'), 'two');
        await clock.advance(ttl * 1.5);
        expect(await store.get(key('a'))).toBe('two');
      });

      it('gives a key set again with a ttl that ttl', async () => {
        await store.set(key('a'), 'one');
        await store.set(key('a'), 'two', ttl);
        await clock.advance(ttl * 1.5);
        expect(await store.get(key('a'))).toBeUndefined();
      });
    });

    describe('delete', () => {
      it('returns true and removes a key that was there', async () => {
        await store.set(key('a'), 'one');
        expect(await store.delete(key('a'))).toBe(true);
        expect(await store.get(key('a'))).toBeUndefined();
      });

      it('returns false for a key that was not there', async () => {
        expect(await store.delete(key('missing'))).toBe(false);
      });

      it('returns false for a key that has expired', async () => {
        await store.set(key('a'), 'one', ttl);
        await clock.advance(ttl * 1.5);
        expect(await store.delete(key('a'))).toBe(false);
      });

      it('returns true to only one of two deletes of one key, so one caller consumes a value', async () => {
        await store.set(key('code'), 'one-time');
        const results = await Promise.all([store.delete(key('code')), store.delete(key('code'))]);
        expect(results.filter(Boolean)).toHaveLength(1);
      });

      it('leaves other keys alone', async () => {
        await store.set(key('a'), 'one');
        await store.set(key('b'), 'two');
        await store.delete(key('a'));
        expect(await store.get(key('b'))).toBe('two');
      });
    });

    describe('increment', () => {
      it.each([1, 5])('starts a new counter at by = %i, expiring after ttl', async (by) => {
        const before = now();
        const counter = await store.increment(key('hits'), by, ttl);
        expect(counter.value).toBe(by);
        expect(counter.expiresAt).toBeGreaterThanOrEqual(before + ttl - slack);
        expect(counter.expiresAt).toBeLessThanOrEqual(now() + ttl + slack);
      });

      it('adds by to a running counter', async () => {
        expect((await store.increment(key('hits'), 1, ttl)).value).toBe(1);
        expect((await store.increment(key('hits'), 1, ttl)).value).toBe(2);
        expect((await store.increment(key('hits'), 3, ttl)).value).toBe(5);
      });

      it('keeps a fixed window: a later increment does not move the expiry', async () => {
        const first = await store.increment(key('hits'), 1, ttl);
        await clock.advance(ttl / 2);
        const second = await store.increment(key('hits'), 1, ttl * 10);
        expect(second.value).toBe(2);
        near(second.expiresAt, first.expiresAt);
        await clock.advance(ttl);
        expect(await store.get(key('hits'))).toBeUndefined();
      });

      it('restarts at by after the window expires, with a new expiry', async () => {
        const first = await store.increment(key('hits'), 1, ttl);
        await store.increment(key('hits'), 1, ttl);
        await clock.advance(ttl * 1.5);
        const before = now();
        const restarted = await store.increment(key('hits'), 1, ttl);
        expect(restarted.value).toBe(1);
        expect(restarted.expiresAt).toBeGreaterThan(first.expiresAt);
        expect(restarted.expiresAt).toBeGreaterThanOrEqual(before + ttl - slack);
      });

      it('keeps counters per key', async () => {
        await store.increment(key('alice'), 1, ttl);
        await store.increment(key('alice'), 1, ttl);
        expect((await store.increment(key('bob'), 1, ttl)).value).toBe(1);
        expect((await store.increment(key('alice'), 1, ttl)).value).toBe(3);
      });

      it('counts concurrent increments atomically: each caller sees a different value', async () => {
        const counters = await Promise.all(
          Array.from({ length: 20 }, () => store.increment(key('hits'), 1, ttl)),
        );
        expect(counters.map((c) => c.value).sort((a, b) => a - b)).toEqual(
          Array.from({ length: 20 }, (_, i) => i + 1),
        );
      });

      it('reads a counter back with get as its decimal string', async () => {
        await store.increment(key('hits'), 2, ttl);
        await store.increment(key('hits'), 3, ttl);
        expect(await store.get(key('hits'))).toBe('5');
      });

      it('removes a counter with delete, so the next increment starts again', async () => {
        await store.increment(key('hits'), 4, ttl);
        expect(await store.delete(key('hits'))).toBe(true);
        expect((await store.increment(key('hits'), 1, ttl)).value).toBe(1);
      });
    });
  });
}
