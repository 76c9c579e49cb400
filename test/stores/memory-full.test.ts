/** MemoryStore at maxKeys: expired keys make room, then new keys are refused, live keys stay. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorCode, guardStore, isApiError, MemoryStore } from '../../src/index.ts';

describe('MemoryStore at maxKeys', () => {
  let store: MemoryStore;

  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-01-31T09:00:00Z') });
    store = new MemoryStore({ maxKeys: 2, now: () => Date.now() });
  });

  afterEach(() => {
    store.close();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('keeps other callers’ counters under a flood of new keys (regression: the oldest key was evicted, so limits failed open)', () => {
    store.hit([{ key: 'alice', ttlMs: 60_000 }]);
    store.hit([{ key: 'bob', ttlMs: 60_000 }]);
    for (let i = 0; i < 100; i++) {
      expect(() => store.hit([{ key: `flood-${i}`, ttlMs: 60_000 }])).toThrow(
        /MemoryStore is full/,
      );
    }
    expect(store.size).toBe(2);
    expect(store.hit([{ key: 'alice', ttlMs: 60_000 }])).toEqual([
      { value: 2, expiresAt: Date.now() + 60_000 },
    ]);
    expect(store.get('bob')).toBe('1');
  });

  it.each([
    ['set', (s: MemoryStore) => s.set('new', 'v', 1000)],
    ['set without ttl', (s: MemoryStore) => s.set('new', 'v')],
    ['hit', (s: MemoryStore) => s.hit([{ key: 'new', ttlMs: 1000 }])],
    ['add', (s: MemoryStore) => s.add('new', 'v', 1000)],
  ])('refuses a new key by %s when every key is live, and writes nothing', (_, write) => {
    store.set('a', '1');
    store.set('b', '2', 1000);
    expect(() => write(store)).toThrow(
      new Error(
        'MemoryStore is full: its 2 keys (maxKeys) are all live, so a new key was refused and ' +
          'the existing keys were kept. Raise maxKeys or use a shared store.',
      ),
    );
    expect(store.get('new')).toBeUndefined();
    expect([store.get('a'), store.get('b')]).toEqual(['1', '2']);
  });

  it('keeps every existing key working when full: get, set, hit, add, take and delete', () => {
    store.set('a', '1');
    store.hit([{ key: 'n', ttlMs: 1000 }]);
    store.set('a', 'again', 1000);
    expect(store.get('a')).toBe('again');
    expect(store.hit([{ key: 'n', ttlMs: 1000 }])[0]?.value).toBe(2);
    expect(store.add('a', 'other', 1000)).toBe(false);
    expect(store.take('a')).toBe('again');
    expect(store.add('a', 'back', 1000)).toBe(true);
    expect(store.delete('n')).toBe(true);
  });

  it('drops expired keys to make room for a new key', () => {
    store.set('short', '1', 100);
    store.set('live', '2');
    vi.advanceTimersByTime(100);
    expect(store.size).toBe(2);
    store.set('new', '3');
    expect(store.get('new')).toBe('3');
    expect(store.get('live')).toBe('2');
    expect(store.size).toBe(2);
  });

  it('counts in none of the windows of a hit it refuses', () => {
    store.hit([{ key: 'second', ttlMs: 1000 }]);
    expect(() =>
      store.hit([
        { key: 'second', ttlMs: 1000 },
        { key: 'minute', ttlMs: 60_000 },
        { key: 'hour', ttlMs: 3_600_000 },
      ]),
    ).toThrow(/MemoryStore is full/);
    expect(store.get('second')).toBe('1');
    expect(store.get('minute')).toBeUndefined();
  });

  it('sweeps for a refused key only once a key can have expired, not on every refusal', () => {
    store.set('a', '1', 1000);
    store.set('b', '2', 5000);
    const sweep = vi.spyOn(store, 'sweep');
    for (let i = 0; i < 50; i++) expect(() => store.set(`new-${i}`, 'v')).toThrow();
    expect(sweep).not.toHaveBeenCalled();
    vi.setSystemTime(Date.now() + 1000);
    store.set('new', 'v');
    expect(sweep).toHaveBeenCalledOnce();
    expect([store.get('a'), store.get('b'), store.get('new')]).toEqual([undefined, '2', 'v']);
    for (let i = 0; i < 50; i++) expect(() => store.set(`more-${i}`, 'v')).toThrow();
    expect(sweep).toHaveBeenCalledOnce();
  });

  it('becomes a 503 StoreUnavailable through guardStore, with the refusal as cause', () => {
    store.set('a', '1');
    store.set('b', '2');
    const guarded = guardStore(store, { prefix: 'rl:' });
    let thrown: unknown;
    try {
      guarded.hit([{ key: 'new', ttlMs: 1000 }]);
    } catch (error) {
      thrown = error;
    }
    expect(isApiError(thrown)).toBe(true);
    expect(thrown).toMatchObject({ status: 503, code: ErrorCode.StoreUnavailable });
    expect((thrown as Error).cause).toEqual(
      expect.objectContaining({ message: expect.stringMatching(/MemoryStore is full/) }),
    );
    expect(guarded.get('a')).toBeUndefined();
    expect(store.get('a')).toBe('1');
  });
});

describe("MemoryStore at maxKeys with whenFull: 'evict'", () => {
  it('drops the oldest keys for new ones, so a flood of new keys stays bounded and never refused', () => {
    const store = new MemoryStore({ maxKeys: 3, whenFull: 'evict', now: () => 1_000 });
    for (const key of ['a', 'b', 'c']) store.hit([{ key, ttlMs: 60_000 }]);
    for (let i = 0; i < 100; i++) {
      expect(() => store.hit([{ key: `flood-${i}`, ttlMs: 60_000 }])).not.toThrow();
      expect(store.size).toBeLessThanOrEqual(3);
    }
    expect(store.get('a')).toBeUndefined();
    expect(store.get('flood-99')).toBe('1');
    expect(
      store.limit(
        [{ key: 'n', algorithm: 'fixed-window', limit: 1, windowMs: 1000, cost: 1 }],
        1_000,
      ),
    ).toHaveLength(1);
    expect(store.size).toBeLessThanOrEqual(3);
    store.close();
  });

  it("refuses a whenFull other than 'refuse' or 'evict'", () => {
    expect(() => new MemoryStore({ whenFull: 'drop' as never })).toThrow(/whenFull/);
  });
});
