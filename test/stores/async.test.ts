/**
 * The contract on a store that answers through a promise after a macrotask, so its concurrency
 * checks meet real interleaving; and proof that those checks catch a read-then-write store.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AsyncStore, RacyStore } from './_async-stores.ts';
import {
  checkConcurrentAdds,
  checkConcurrentHits,
  checkConcurrentTakes,
  checkIncrementFirst,
} from './_atomicity.ts';
import { storeContract } from './contract.ts';

// setImmediate stays real: it is the store's round trip; the clock and timeouts are faked.
const fakeTimers = () =>
  vi.useFakeTimers({
    now: new Date('2026-01-31T09:00:00Z'),
    toFake: ['Date', 'setTimeout', 'clearTimeout', 'setInterval', 'clearInterval'],
  });

storeContract(
  'AsyncStore (test-only, one macrotask per call)',
  () => new AsyncStore({ now: () => Date.now() }),
  {
    setup: () => {
      fakeTimers();
    },
    teardown: () => {
      vi.useRealTimers();
    },
    advance: (ms) => {
      vi.advanceTimersByTime(ms);
    },
    makeFailingStore: async () => {
      const store = new AsyncStore({ maxKeys: 1, now: () => Date.now() });
      await store.set('occupant', 'live');
      return store;
    },
  },
);

describe('the contract’s concurrency checks', () => {
  let racy: RacyStore;

  beforeEach(() => {
    fakeTimers();
    racy = new RacyStore({ now: () => Date.now() });
  });

  afterEach(async () => {
    await racy.close();
    vi.useRealTimers();
  });

  it('pass on a racy store called one call at a time, so they fail only for the race', async () => {
    expect((await racy.hit([{ key: 'k', ttlMs: 1000 }]))[0]?.value).toBe(1);
    expect((await racy.hit([{ key: 'k', ttlMs: 1000 }]))[0]?.value).toBe(2);
    await racy.set('t', 'v');
    expect([await racy.take('t'), await racy.take('t')]).toEqual(['v', undefined]);
    expect([await racy.add('a', '1', 1000), await racy.add('a', '2', 1000)]).toEqual([true, false]);
  });

  it('catch a hit that reads, then writes', async () => {
    await expect(checkConcurrentHits(racy, ['second', 'hour'], 1000)).rejects.toThrow();
  });

  it('catch a login limit over a hit that reads, then writes', async () => {
    await expect(checkIncrementFirst(racy, 'logins', 1000)).rejects.toThrow();
  });

  it('catch a take that gets, then deletes', async () => {
    await expect(checkConcurrentTakes(racy, 'token')).rejects.toThrow();
  });

  it('catch an add that gets, then sets', async () => {
    await expect(checkConcurrentAdds(racy, 'lock', 1000)).rejects.toThrow();
  });
});
