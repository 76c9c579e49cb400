/** The contract of hit: atomic fixed-window counters, several windows per call. */
import { describe, expect, it } from 'vitest';
import { checkConcurrentHits, checkIncrementFirst } from './_atomicity.ts';
import { attempt, type ContractContext } from './contract.ts';

/** Declares the hit tests. */
export function hitContract({ store, key, ttl, now, near, options }: ContractContext): void {
  const one = (k: string, ttlMs = ttl) => [{ key: key(k), ttlMs }];

  describe('hit', () => {
    it('starts a new counter at 1, expiring ttl after it started', async () => {
      const before = now();
      const [counter] = await store().hit(one('hits'));
      expect(counter?.value).toBe(1);
      expect(counter?.expiresAt).toBeGreaterThanOrEqual(before + ttl - (options.slackMs ?? 0));
      expect(counter?.expiresAt).toBeLessThanOrEqual(now() + ttl + (options.slackMs ?? 0));
    });

    it.each([5, 0])('adds by = %i when given', async (by) => {
      expect((await store().hit(one('hits'), by))[0]?.value).toBe(by);
      expect((await store().hit(one('hits'), by))[0]?.value).toBe(by * 2);
      expect((await store().hit(one('hits')))[0]?.value).toBe(by * 2 + 1);
    });

    it('takes a count back with a negative by and leaves the window where it was', async () => {
      // How a login attempt counted before its password was checked is given back on success.
      const [first] = await store().hit(one('hits'), 3);
      const [back] = await store().hit(one('hits', 1), -1);
      expect(back?.value).toBe(2);
      near(back!.expiresAt, first!.expiresAt);
    });

    it('lets a count given back to an expired counter live only its own short ttl', async () => {
      const [back] = await store().hit(one('gone', 1), -1);
      expect(back?.value).toBe(-1);
      await options.advance(Math.max(10, (options.slackMs ?? 0) / 10));
      expect((await store().hit(one('gone')))[0]?.value).toBe(1);
    });

    it('admits exactly limit of many concurrent increment-first checks (a login limit)', async () => {
      await checkIncrementFirst(store(), key('logins'), ttl);
    });

    it('counts in every window of one call and answers in the order given', async () => {
      await store().hit(one('second'));
      const counters = await store().hit([
        { key: key('second'), ttlMs: ttl },
        { key: key('hour'), ttlMs: ttl * 10 },
      ]);
      expect(counters.map((c) => c.value)).toEqual([2, 1]);
      near(counters[1]!.expiresAt - counters[0]!.expiresAt, ttl * 9);
    });

    it('answers an empty list of windows with an empty list', async () => {
      expect(await store().hit([])).toEqual([]);
    });

    it('keeps a fixed window: a later hit does not move the expiry', async () => {
      const [first] = await store().hit(one('hits'));
      await options.advance(ttl / 2);
      const [second] = await store().hit(one('hits', ttl * 10));
      expect(second?.value).toBe(2);
      near(second!.expiresAt, first!.expiresAt);
      await options.advance(ttl);
      expect(await store().get(key('hits'))).toBeUndefined();
    });

    it('restarts a short window after it expires while a long one counts on', async () => {
      const windows = [
        { key: key('second'), ttlMs: ttl },
        { key: key('hour'), ttlMs: ttl * 10 },
      ];
      const [first] = await store().hit(windows);
      await store().hit(windows);
      await options.advance(ttl * 1.5);
      const before = now();
      const [short, long] = await store().hit(windows);
      expect([short?.value, long?.value]).toEqual([1, 3]);
      expect(short!.expiresAt).toBeGreaterThan(first!.expiresAt);
      expect(short!.expiresAt).toBeGreaterThanOrEqual(before + ttl - (options.slackMs ?? 0));
    });

    it('keeps counters per key', async () => {
      await store().hit(one('alice'));
      await store().hit(one('alice'));
      expect((await store().hit(one('bob')))[0]?.value).toBe(1);
      expect((await store().hit(one('alice')))[0]?.value).toBe(3);
    });

    it('counts concurrent hits atomically: each caller sees its own count in every window', async () => {
      await checkConcurrentHits(store(), [key('second'), key('hour')], ttl);
    });

    it('reads a counter back with get as its decimal string', async () => {
      await store().hit(one('hits'), 2);
      await store().hit(one('hits'), 3);
      expect(await store().get(key('hits'))).toBe('5');
    });

    it('removes a counter with delete, so the next hit starts again', async () => {
      await store().hit(one('hits'), 4);
      expect(await store().delete(key('hits'))).toBe(true);
      expect((await store().hit(one('hits')))[0]?.value).toBe(1);
    });

    it('counts on from a whole number written with set, like INCRBY', async () => {
      await store().set(key('hits'), '41', ttl);
      expect((await store().hit(one('hits')))[0]?.value).toBe(42);
    });

    it('fails on a value that is not a whole number, like INCRBY', async () => {
      await store().set(key('text'), 'not a number', ttl);
      await expect(attempt(() => store().hit(one('text')))).rejects.toThrow();
      expect(await store().get(key('text'))).toBe('not a number');
    });
  });
}
