/** guardStore on its own: sync stays sync, timers only for pending calls, options checked once. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  ErrorCode,
  type GuardStoreOptions,
  guardStore,
  MemoryStore,
  type Store,
} from '../../src/index.ts';

/** A store whose every method answers with `answer()`. */
const storeAnswering = (answer: () => unknown): Store =>
  Object.fromEntries(
    ['get', 'set', 'delete', 'hit', 'take', 'add'].map((m) => [m, answer]),
  ) as unknown as Store;

/** The value `run` throws synchronously. */
function thrownBy(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a synchronous throw');
}

describe('guardStore', () => {
  let memory: MemoryStore;

  beforeEach(() => {
    vi.useFakeTimers({ now: new Date('2026-01-31T09:00:00Z') });
    memory = new MemoryStore({ now: () => Date.now() });
  });

  afterEach(() => {
    memory.close();
    vi.useRealTimers();
    vi.restoreAllMocks();
  });

  it('answers a synchronous store synchronously and starts no timer', () => {
    const guarded = guardStore(memory, { prefix: 'p:' });
    // The memory store starts its own sweep timer with its first key: count from after it, so
    // only a timer of the guard's would show.
    memory.set('warm', '1');
    const timers = vi.getTimerCount();
    expect(guarded.set('a', '1')).toBeUndefined();
    expect(guarded.get('a')).toBe('1');
    expect(guarded.hit([{ key: 'n', ttlMs: 1000 }])).toEqual([
      { value: 1, expiresAt: Date.now() + 1000 },
    ]);
    expect(guarded.add('b', '2', 1000)).toBe(true);
    expect(guarded.take('b')).toBe('2');
    expect(guarded.delete('a')).toBe(true);
    expect(vi.getTimerCount()).toBe(timers);
  });

  it('throws the 503 synchronously when a synchronous store throws, keeping the failure as cause', () => {
    const failure = new Error('disk on fire');
    const error = thrownBy(() =>
      guardStore(
        storeAnswering(() => {
          throw failure;
        }),
      ).get('a'),
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: ErrorCode.StoreUnavailable });
    expect((error as ApiError).cause).toBe(failure);
  });

  it('never puts the failure’s own message in the body', async () => {
    const failure = new Error('connect ECONNREFUSED 10.0.0.5:6379');
    const guarded = guardStore(storeAnswering(() => Promise.reject(failure)));
    const error = (await Promise.resolve(guarded.get('a')).catch((e: unknown) => e)) as ApiError;
    expect(error.cause).toBe(failure);
    expect(error.toJSON()).toEqual({
      errors: [
        {
          message:
            'A store this request needs failed, so the request was refused; try again later.',
          code: 50301,
        },
      ],
    });
  });

  it('wraps any other error in the 503, an ApiError of another status included', async () => {
    const failure = new ApiError(400, ErrorCode.BadRequest, 'odd');
    const error = await Promise.resolve(
      guardStore(storeAnswering(() => Promise.reject(failure))).take('a'),
    ).catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503, code: ErrorCode.StoreUnavailable, cause: failure });
  });

  it('passes a 503 from a guard inside it through unchanged', async () => {
    const inner = guardStore(
      storeAnswering(() => new Promise(() => {})),
      { timeoutMs: 50 },
    );
    const outer = guardStore(inner, { timeoutMs: 100 });
    const answer = Promise.resolve(outer.get('a')).catch((e: unknown) => e);
    vi.advanceTimersByTime(50);
    const error = (await answer) as ApiError;
    expect(error.message).toMatch(/within 50 ms/);
    expect(error.cause).toBeInstanceOf(Error);
    expect(error.cause).not.toBeInstanceOf(ApiError);
  });

  it('fails a pending call after 250 ms by default (the store bound of docs/redis.md), not before', async () => {
    let settled = false;
    const answer = Promise.resolve(guardStore(storeAnswering(() => new Promise(() => {}))).get('a'))
      .catch((e: unknown) => e)
      .finally(() => {
        settled = true;
      });
    await vi.advanceTimersByTimeAsync(249);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await answer).toMatchObject({ status: 503, message: expect.stringMatching(/250 ms/) });
  });

  it('clears the timer of a call once it answers', async () => {
    const guarded = guardStore(storeAnswering(() => Promise.resolve('v')));
    const timers = vi.getTimerCount();
    const answer = guarded.get('a');
    expect(vi.getTimerCount()).toBe(timers + 1);
    expect(await answer).toBe('v');
    expect(vi.getTimerCount()).toBe(timers);
  });

  it('unrefs the timer of a pending call, so it never keeps the process alive', async () => {
    vi.useRealTimers();
    const setTimeout = vi.spyOn(globalThis, 'setTimeout');
    await guardStore(storeAnswering(() => Promise.resolve(true))).add('a', 'v', 1000);
    const timer = setTimeout.mock.results.at(-1)?.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
  });

  it('has no close, since the store belongs to whoever created it', () => {
    expect(guardStore(memory).close).toBeUndefined();
  });

  it.each([
    [{ prefx: 'a:' }, 'guardStore: unknown option `prefx`. Did you mean `prefix`?'],
    [{ timeout: 10 }, 'guardStore: unknown option `timeout`. Did you mean `timeoutMs`?'],
    [{ prefix: 1 }, 'guardStore: prefix must be a string such as "rl:"; got number.'],
    [{ timeoutMs: 0 }, 'guardStore timeoutMs must be a whole number from 1 to 2147483647; got 0.'],
    [
      { timeoutMs: 2 ** 31 },
      'guardStore timeoutMs must be a whole number from 1 to 2147483647; got 2147483648.',
    ],
  ])('throws a TypeError for the options %j', (options, message) => {
    expect(() => guardStore(memory, options as GuardStoreOptions)).toThrow(new TypeError(message));
  });

  it('throws a TypeError naming the first missing method of a store from before hit, take and add', () => {
    const v1 = { get() {}, set() {}, delete: () => false, increment() {} } as unknown as Store;
    expect(() => guardStore(v1)).toThrow(
      new TypeError(
        'guardStore: the store has no hit() method; pass a Store with get, set, delete, hit, ' +
          'take and add (a MemoryStore, say).',
      ),
    );
  });
});
