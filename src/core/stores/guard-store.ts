/** Wraps a store so that keys get a prefix and a failing or hanging store becomes a 503. */
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import { spentBudget, storeUnavailable as unavailable, withinBudget } from './fail-closed.ts';
import type { Counter, HitWindow, RateCheck, RateVerdict, Store } from './store.ts';
import type { StoreBudget, StoreBudgetHolder } from './store-budget.ts';

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
   * with a 503; the calls made for one request (given its `ctx`) share one such bound. A
   * synchronous answer never gets a timer. @default 250
   */
  timeoutMs?: number;
}

/**
 * A {@link Store} whose calls fail closed, from {@link guardStore}. Each method takes, last, the
 * request it is made for (`ctx`, a {@link StoreBudgetHolder}): the calls made for one request
 * then share one bound, its store budget, instead of one bound each.
 *
 * @category Stores
 */
export interface GuardedStore extends Store {
  /** {@link Store.get}, within the store budget of the request `ctx`, when given. */
  get(key: string, ctx?: StoreBudgetHolder): Promise<string | undefined> | string | undefined;
  /** {@link Store.set}, within the store budget of the request `ctx`, when given. */
  set(key: string, value: string, ttlMs?: number, ctx?: StoreBudgetHolder): Promise<void> | void;
  /** {@link Store.delete}, within the store budget of the request `ctx`, when given. */
  delete(key: string, ctx?: StoreBudgetHolder): Promise<boolean> | boolean;
  /** {@link Store.hit}, within the store budget of the request `ctx`, when given. */
  hit(
    windows: readonly HitWindow[],
    by?: number,
    ctx?: StoreBudgetHolder,
  ): Promise<Counter[]> | Counter[];
  /** {@link Store.take}, within the store budget of the request `ctx`, when given. */
  take(key: string, ctx?: StoreBudgetHolder): Promise<string | undefined> | string | undefined;
  /** {@link Store.add}, within the store budget of the request `ctx`, when given. */
  add(
    key: string,
    value: string,
    ttlMs: number,
    ctx?: StoreBudgetHolder,
  ): Promise<boolean> | boolean;
  /** {@link Store.limit}, within the store budget of the request `ctx`, when given. */
  limit?(
    checks: readonly RateCheck[],
    now: number,
    ctx?: StoreBudgetHolder,
  ): Promise<RateVerdict[]> | RateVerdict[];
}

const methods = ['get', 'set', 'delete', 'hit', 'take', 'add'] as const;

const failed = 'A store this request needs failed, so the request was refused; try again later.';

/**
 * Wraps `store` so that every key gets `prefix` and every call fails closed: a call that throws,
 * rejects or does not answer within `timeoutMs` becomes an {@link ApiError} 503 with the code
 * {@link ErrorCode.StoreUnavailable}, the original failure kept as its `cause` for the logs.
 * Nothing is decided without the store: no request passes a limit, and no token is accepted.
 *
 * Give a call the request it is made for (`store.get(key, ctx)`): every store call made for one
 * request then waits out of one budget (its {@link StoreBudget}, `timeoutMs` of waiting in all),
 * so a failing store costs a request one bound, not one per call; once a request has waited all
 * of it, its next call is a 503 without asking the store.
 *
 * A synchronous answer stays synchronous (no promise, no timer); only a pending promise gets a
 * timer, and that timer never keeps the process alive. The guard has no `close`: whoever
 * created the store closes it, since several guards may share one store.
 *
 * @example
 * ```ts
 * import { guardStore, MemoryStore } from 'api-conventions';
 * const store = new MemoryStore();
 * const limits = guardStore(store, { prefix: 'rl:', timeoutMs: 200 });
 * const [perSecond] = await limits.hit([{ key: 'alice:1s', ttlMs: 1000 }]); // key "rl:alice:1s"
 * ```
 *
 * @category Stores
 */
export function guardStore(store: Store, options: GuardStoreOptions = {}): GuardedStore {
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
  const timeoutMs = assertInteger('guardStore timeoutMs', options.timeoutMs ?? 250, 1, 2 ** 31 - 1);
  const failedWith = (error: unknown) => unavailable(error, failed);

  function call<T>(
    method: string,
    ctx: StoreBudgetHolder | undefined,
    run: () => Promise<T> | T,
  ): Promise<T> | T {
    const spent = spentBudget(ctx);
    if (spent !== undefined) throw budgetSpent(method, spent);
    let answer: Promise<T> | T;
    try {
      answer = run();
    } catch (error) {
      throw failedWith(error);
    }
    if (typeof (answer as { then?: unknown } | undefined)?.then !== 'function') return answer;
    return withinBudget(
      answer as Promise<T>,
      timeoutMs,
      ctx,
      (budget) => late(method, budget),
      failedWith,
    );
  }

  function late(method: string, budget: StoreBudget | undefined) {
    const ms = budget === undefined ? timeoutMs : budget.ms;
    const within = budget === undefined ? `${ms} ms` : `the ${ms} ms a request may wait for stores`;
    return unavailable(
      new Error(`guardStore: ${method}() did not answer within ${within}.`),
      `A store this request needs did not answer within ${within}, so the request was ` +
        'refused; try again later.',
    );
  }

  const key = prefix === '' ? (k: string) => k : (k: string) => prefix + k;
  const limit = store.limit?.bind(store);
  const guarded: GuardedStore = {
    get: (k, ctx) => call('get', ctx, () => store.get(key(k))),
    set: (k, value, ttlMs, ctx) => call('set', ctx, () => store.set(key(k), value, ttlMs)),
    delete: (k, ctx) => call('delete', ctx, () => store.delete(key(k))),
    hit: (windows, by, ctx) =>
      call<Counter[]>('hit', ctx, () =>
        store.hit(
          prefix === '' ? windows : windows.map((w) => ({ key: prefix + w.key, ttlMs: w.ttlMs })),
          by,
        ),
      ),
    take: (k, ctx) => call('take', ctx, () => store.take(key(k))),
    add: (k, value, ttlMs, ctx) => call('add', ctx, () => store.add(key(k), value, ttlMs)),
  };
  if (limit !== undefined) {
    guarded.limit = (checks, now, ctx) =>
      call<RateVerdict[]>('limit', ctx, () =>
        limit(prefix === '' ? checks : checks.map((c) => ({ ...c, key: prefix + c.key })), now),
      );
  }
  return guarded;
}

/** The 503 of a call made for a request that already waited its whole store budget. */
function budgetSpent(method: string, budget: StoreBudget) {
  return unavailable(
    new Error(`guardStore: ${method}() not asked: the request already waited ${budget.ms} ms.`),
    `The stores this request needs did not answer within the ${budget.ms} ms a request may ` +
      'wait for them, so the request was refused; try again later.',
  );
}
