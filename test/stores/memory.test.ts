import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryStore, type MemoryStoreOptions } from '../../src/index.ts';
import { storeContract } from './contract.ts';

const start = new Date('2026-01-31T09:00:00Z');

/** A memory store on the fake clock. */
const fakeClockStore = (options: MemoryStoreOptions = {}) =>
  new MemoryStore({ now: () => Date.now(), ...options });

/** A memory store whose only room is taken by a live key, so every new key is refused. */
const fullStore = () => {
  const store = fakeClockStore({ maxKeys: 1 });
  store.set('occupant', 'live');
  return store;
};

storeContract('MemoryStore', () => fakeClockStore(), {
  makeFailingStore: fullStore,
  setup: () => {
    vi.useFakeTimers({ now: start });
  },
  teardown: () => {
    vi.useRealTimers();
  },
  advance: (ms) => {
    vi.advanceTimersByTime(ms);
  },
});

describe('MemoryStore', () => {
  let store: MemoryStore | undefined;

  beforeEach(() => {
    vi.useFakeTimers({ now: start });
  });

  afterEach(() => {
    store?.close();
    store = undefined;
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('reads time through its now option', () => {
    let clock = 1_000;
    store = new MemoryStore({ now: () => clock });
    expect(store.hit([{ key: 'k', ttlMs: 500 }])).toEqual([{ value: 1, expiresAt: 1_500 }]);
    clock = 1_499;
    expect(store.get('k')).toBe('1');
    clock = 1_500;
    expect(store.get('k')).toBeUndefined();
  });

  it('answers every method synchronously, with no promise', () => {
    store = fakeClockStore();
    const answers = [
      store.set('a', '1'),
      store.get('a'),
      store.hit([{ key: 'n', ttlMs: 10 }]),
      store.add('b', '2', 10),
      store.take('b'),
      store.delete('a'),
    ];
    for (const answer of answers) expect(answer).not.toBeInstanceOf(Promise);
  });

  it('drops an expired key when it is read', () => {
    store = fakeClockStore();
    store.set('a', '1', 100);
    vi.advanceTimersByTime(100);
    expect(store.size).toBe(1);
    expect(store.get('a')).toBeUndefined();
    expect(store.size).toBe(0);
  });

  it('sweep() drops every expired key and keeps the others', () => {
    store = fakeClockStore();
    store.set('short', '1', 100);
    store.set('long', '2', 1000);
    store.set('forever', '3');
    store.hit([{ key: 'counter', ttlMs: 100 }]);
    vi.advanceTimersByTime(500);
    expect(store.size).toBe(4);
    store.sweep();
    expect(store.size).toBe(2);
    expect(store.get('long')).toBe('2');
    expect(store.get('forever')).toBe('3');
  });

  it('sweeps on its own every sweepIntervalMs', () => {
    store = fakeClockStore({ sweepIntervalMs: 1000 });
    store.set('a', '1', 10);
    vi.advanceTimersByTime(999);
    expect(store.size).toBe(1);
    vi.advanceTimersByTime(1);
    expect(store.size).toBe(0);
  });

  it('sweeps every 60 seconds by default', () => {
    store = fakeClockStore();
    store.set('a', '1', 10);
    vi.advanceTimersByTime(59_999);
    expect(store.size).toBe(1);
    vi.advanceTimersByTime(1);
    expect(store.size).toBe(0);
  });

  it('close() clears the keys and stops the timer', () => {
    store = fakeClockStore();
    const sweep = vi.spyOn(store, 'sweep');
    store.set('a', '1');
    expect(vi.getTimerCount()).toBe(1);
    store.close();
    expect(store.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(600_000);
    expect(sweep).not.toHaveBeenCalled();
  });

  it('close() may be called twice', () => {
    store = fakeClockStore();
    store.close();
    expect(() => store?.close()).not.toThrow();
  });

  it('starts no timer when constructed, which a Workers global scope forbids', () => {
    store = fakeClockStore();
    expect(vi.getTimerCount()).toBe(0);
    store.get('a');
    expect(vi.getTimerCount()).toBe(0);
    store.set('a', '1', 10);
    expect(vi.getTimerCount()).toBe(1);
    store.hit([{ key: 'n', ttlMs: 10 }]);
    expect(vi.getTimerCount()).toBe(1);
  });

  it('unrefs its timer, so it never keeps the process alive', () => {
    vi.useRealTimers();
    const setInterval = vi.spyOn(globalThis, 'setInterval');
    store = new MemoryStore({ sweepIntervalMs: 1000 });
    expect(setInterval).not.toHaveBeenCalled();
    store.set('a', '1');
    expect(setInterval).toHaveBeenCalledOnce();
    const timer = setInterval.mock.results[0]?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    expect((store as unknown as { timer: NodeJS.Timeout }).timer).toBe(timer);
  });

  it('rejects a sweepIntervalMs above 2^31 − 1, which setInterval would turn into 1 ms', () => {
    expect(() => new MemoryStore({ sweepIntervalMs: 2 ** 31 - 1 }).close()).not.toThrow();
    expect(() => new MemoryStore({ sweepIntervalMs: 2 ** 31 })).toThrow(TypeError);
  });

  it.each([
    [{ maxKey: 10 }, 'MemoryStore: unknown option `maxKey`. Did you mean `maxKeys`?'],
    [
      { sweepInterval: 10 },
      'MemoryStore: unknown option `sweepInterval`. Did you mean `sweepIntervalMs`?',
    ],
    [{ maxKeys: 0 }, 'MemoryStore maxKeys must be a whole number from 1 to 2147483648; got 0.'],
    [{ maxKeys: 1.5 }, 'MemoryStore maxKeys must be a whole number from 1 to 2147483648; got 1.5.'],
    [
      { sweepIntervalMs: 5 },
      'MemoryStore sweepIntervalMs must be a whole number from 10 to 2147483647; got 5.',
    ],
  ])('throws a TypeError for the options %j', (options, message) => {
    expect(() => new MemoryStore(options as MemoryStoreOptions)).toThrow(new TypeError(message));
    expect(vi.getTimerCount()).toBe(0);
  });
});
