/** The contract of limit: every rate algorithm, several policies in one atomic call, all or nothing. */
import { describe, expect, it } from 'vitest';
import type { RateAlgorithm, RateCheck, Store } from '../../src/index.ts';
import type { ContractContext } from './contract.ts';

/** How many calls the concurrency check starts at once, against a limit of half as many. */
const callers = 20;

/** Declares the limit tests. */
export function limitContract({ store, key, ttl, now, near, options }: ContractContext): void {
  const check = (
    k: string,
    limit: number,
    algorithm: RateAlgorithm = 'fixed-window',
    windowMs = ttl,
    cost = 1,
  ): RateCheck => ({ key: key(k), algorithm, limit, windowMs, cost });
  const limit = (s: Store, checks: RateCheck[], at = now()) => {
    if (typeof s.limit !== 'function') throw new Error('this store has no limit()');
    return s.limit(checks, at);
  };

  describe('limit', () => {
    it('fixed window: allows the limit, counts remaining down to 0, then refuses until the window ends', async () => {
      const start = now();
      const remaining: number[] = [];
      for (let n = 0; n < 3; n++) {
        const [v] = await limit(store(), [check('fixed', 3)]);
        expect(v?.allowed).toBe(true);
        remaining.push(v!.remaining);
        near(v!.resetAt, start + ttl);
      }
      expect(remaining).toEqual([2, 1, 0]);
      const [refused] = await limit(store(), [check('fixed', 3)]);
      expect(refused).toMatchObject({ allowed: false, remaining: 0 });
      expect(refused!.retryAfterMs).toBeGreaterThan(0);
      expect(refused!.retryAfterMs).toBeLessThanOrEqual(ttl);
      await options.advance(ttl * 1.5);
      const [again] = await limit(store(), [check('fixed', 3)]);
      expect(again).toMatchObject({ allowed: true, remaining: 2 });
    });

    it('counts in every policy only when all allow: a refused request spends nothing', async () => {
      const both = () => [check('burst', 1), check('hourly', 5, 'fixed-window', ttl * 10)];
      const [first] = [await limit(store(), both())];
      expect(first.map((v) => v.allowed)).toEqual([true, true]);
      expect(first[1]?.remaining).toBe(4);
      const second = await limit(store(), both());
      expect(second.map((v) => v.allowed)).toEqual([false, true]);
      expect(second[1]?.remaining).toBe(4);
      expect(await store().get(key('hourly'))).toBe('1');
    });

    it('answers an empty list with an empty list', async () => {
      expect(await limit(store(), [])).toEqual([]);
    });

    it('a cost of 0 reads without counting', async () => {
      await limit(store(), [check('peek', 2)]);
      const [v] = await limit(store(), [check('peek', 2, 'fixed-window', ttl, 0)]);
      expect(v).toMatchObject({ allowed: true, remaining: 1 });
      expect(await store().get(key('peek'))).toBe('1');
    });

    it('gcra: allows a burst of the limit, then one request per emission interval', async () => {
      const at = now();
      for (let n = 0; n < 4; n++) {
        const [v] = await limit(store(), [check('gcra', 4, 'gcra')], at);
        expect(v).toMatchObject({ allowed: true, remaining: 3 - n });
      }
      const [refused] = await limit(store(), [check('gcra', 4, 'gcra')], at);
      expect(refused?.allowed).toBe(false);
      near(refused!.retryAfterMs, ttl / 4);
      const [later] = await limit(store(), [check('gcra', 4, 'gcra')], at + ttl / 4);
      expect(later).toMatchObject({ allowed: true, remaining: 0 });
    });

    it('sliding window: allows the limit within a window and refuses the next', async () => {
      const at = now();
      for (let n = 0; n < 3; n++) {
        const [v] = await limit(store(), [check('slide', 3, 'sliding-window')], at);
        expect(v?.allowed).toBe(true);
      }
      const [refused] = await limit(store(), [check('slide', 3, 'sliding-window')], at);
      expect(refused).toMatchObject({ allowed: false, remaining: 0 });
      expect(refused!.retryAfterMs).toBeGreaterThan(0);
      expect(refused!.retryAfterMs).toBeLessThanOrEqual(2 * ttl);
    });

    it.each<RateAlgorithm>(['fixed-window', 'sliding-window', 'gcra'])(
      '%s: of concurrent calls against a limit of 10, exactly 10 pass',
      async (algorithm) => {
        const at = now();
        const answers = await Promise.all(
          Array.from({ length: callers }, () =>
            limit(store(), [check(`race-${algorithm}`, callers / 2, algorithm, ttl * 10)], at),
          ),
        );
        expect(answers.filter(([v]) => v?.allowed)).toHaveLength(callers / 2);
        expect(answers.every(([v]) => v!.remaining >= 0)).toBe(true);
      },
    );
  });
}
