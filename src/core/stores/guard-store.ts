/** Wraps a store so that keys get a prefix and a failing or hanging store becomes a 503. */
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import { storeUnavailable as unavailable, withTimeout } from './fail-closed.ts';
import type { Counter, HitWindow, RateCheck, RateVerdict, Store } from './store.ts';

/**
 * Options of {@link guardStore}.
 *
 * @category Stores
 */
export interface GuardStoreOptions {
  /**
   * Put before every key, so that features sharing one store never meet (`rl:`, `csrf:`).
   * @default ''
   */
  prefix?: string;
  /**
   * How long a call that answers with a promise may take, in milliseconds, before it fails
   * with a 503. A synchronous answer never gets a timer. @default 1000
   */
  timeoutMs?: number;
}

const methods = ['get', 'set', 'delete', 'hit', 'take', 'add'] as const;

const failed = 'A store this request needs failed, so the request was refused; try again later.';

/**
 * Wraps `store` so that every key gets `prefix` and every call fails closed: a call that throws,
 * rejects or does not answer within `timeoutMs` becomes an {@link ApiError} 503 with the code
 * {@link ErrorCode.StoreUnavailable}, the original failure kept as its `cause` for the logs.
 * Nothing is decided without the store: no request passes a limit, and no token is accepted.
 *
 * A synchronous answer stays synchronous (no promise, no timer); only a pending promise gets a
 * timer, and that timer never keeps the process alive. The guard has no `close`: whoever
 * created the store closes it, since several guards may share one store.
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * const limits = guardStore(store, { prefix: 'rl:', timeoutMs: 200 });
 * const [perSecond] = await limits.hit([{ key: 'alice:1s', ttlMs: 1000 }]); // key "rl:alice:1s"
 * ```
 *
 * @category Stores
 */
export function guardStore(store: Store, options: GuardStoreOptions = {}): Store {
  assertKnownKeys('guardStore', options, ['prefix', 'timeoutMs']);
  for (const method of methods) {
    if (typeof store?.[method] !== 'function') {
      throw new TypeError(
        `guardStore: the store has no ${method}() method; pass a Store with get, set, delete, ` +
          'hit, take and add (a MemoryStore, say).',
      );
    }
  }
  const prefix = options.prefix ?? '';
  if (typeof prefix !== 'string') {
    throw new TypeError(`guardStore: prefix must be a string such as "rl:"; got ${typeof prefix}.`);
  }
  // The longest delay setTimeout supports.
  const timeoutMs = assertInteger(
    'guardStore timeoutMs',
    options.timeoutMs ?? 1000,
    1,
    2 ** 31 - 1,
  );

  function call<T>(method: string, run: () => Promise<T> | T): Promise<T> | T {
    let answer: Promise<T> | T;
    try {
      answer = run();
    } catch (error) {
      throw unavailable(error, failed);
    }
    if (typeof (answer as { then?: unknown } | undefined)?.then !== 'function') return answer;
    return withTimeout(
      answer as Promise<T>,
      timeoutMs,
      () =>
        unavailable(
          new Error(`guardStore: ${method}() did not answer within ${timeoutMs} ms.`),
          `A store this request needs did not answer within ${timeoutMs} ms, so the request ` +
            'was refused; try again later.',
        ),
      (error) => unavailable(error, failed),
    );
  }

  const key = prefix === '' ? (k: string) => k : (k: string) => prefix + k;
  const limit = store.limit?.bind(store);
  const guarded: Store = {
    get: (k) => call('get', () => store.get(key(k))),
    set: (k, value, ttlMs) => call('set', () => store.set(key(k), value, ttlMs)),
    delete: (k) => call('delete', () => store.delete(key(k))),
    hit: (windows: readonly HitWindow[], by?: number) =>
      call<Counter[]>('hit', () =>
        store.hit(
          prefix === '' ? windows : windows.map((w) => ({ key: prefix + w.key, ttlMs: w.ttlMs })),
          by,
        ),
      ),
    take: (k) => call('take', () => store.take(key(k))),
    add: (k, value, ttlMs) => call('add', () => store.add(key(k), value, ttlMs)),
  };
  if (limit !== undefined) {
    guarded.limit = (checks: readonly RateCheck[], now: number) =>
      call<RateVerdict[]>('limit', () =>
        limit(prefix === '' ? checks : checks.map((c) => ({ ...c, key: prefix + c.key })), now),
      );
  }
  return guarded;
}
