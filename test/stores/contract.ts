/**
 * One store contract, run on every store: the memory store, an asynchronous test store, a real
 * redis-server and a real Redis Cluster (redis.test.ts, redis-cluster.test.ts). Each part lives
 * in its own file.
 */
import { afterEach, beforeEach, describe, expect } from 'vitest';
import type { Store } from '../../src/index.ts';
import { basicContract } from './_contract-basic.ts';
import { guardContract } from './_contract-guard.ts';
import { hitContract } from './_contract-hit.ts';
import { limitContract } from './_contract-limit.ts';
import { tokenContract } from './_contract-tokens.ts';

/** How the contract drives a store: its clock, and how to get one that fails. */
export interface StoreContractOptions {
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
  /**
   * A store of this kind that fails every write of a new key (a Redis client on a closed port,
   * a full memory store), to check that its failures become 503s through the guard.
   */
  makeFailingStore(): Store | Promise<Store>;
  /** Runs before each test, before the store is made (e.g. `vi.useFakeTimers()`). */
  setup?(): void | Promise<void>;
  /** Runs after each test, after the store is closed. */
  teardown?(): void | Promise<void>;
}

/** What every part of the contract gets: the store of the running test and helpers. */
export interface ContractContext {
  /** The store of the running test. */
  store(): Store;
  /**
   * `k` in the running test's own namespace, so runs on a shared server never meet. The
   * namespace is a hash tag, so every key of a test lives in one Redis Cluster slot and one
   * call may use several.
   */
  key(k: string): string;
  /** The time to live the tests use. */
  ttl: number;
  /** The store's clock. */
  now(): number;
  /** Asserts that `actual` is `expected` give or take the slack. */
  near(actual: number, expected: number): void;
  /** The options the contract was declared with. */
  options: StoreContractOptions;
}

/** Calls `run` and gives its answer or failure as a promise, whether it throws or rejects. */
export const attempt = <T>(run: () => T | Promise<T>): Promise<T> =>
  new Promise<T>((resolve) => resolve(run()));

let unique = 0;

/**
 * Declares the store contract for one store.
 *
 * @example
 * ```ts
 * storeContract('MemoryStore', () => new MemoryStore({ now: () => Date.now() }), {
 *   setup: () => void vi.useFakeTimers(),
 *   teardown: () => void vi.useRealTimers(),
 *   advance: (ms) => void vi.advanceTimersByTime(ms),
 *   makeFailingStore: () => fullMemoryStore(),
 * });
 * ```
 */
export function storeContract(
  name: string,
  makeStore: () => Store | Promise<Store>,
  options: StoreContractOptions,
): void {
  const slack = options.slackMs ?? 0;
  let store: Store | undefined;
  let namespace = '';
  const context: ContractContext = {
    store: () => {
      if (store === undefined) throw new Error('The contract store is made in beforeEach.');
      return store;
    },
    key: (k) => `{${namespace}}:${k}`,
    ttl: options.ttlMs ?? 1000,
    now: () => (options.now ? options.now() : Date.now()),
    near: (actual, expected) => {
      expect(actual).toBeGreaterThanOrEqual(expected - slack);
      expect(actual).toBeLessThanOrEqual(expected + slack);
    },
    options,
  };

  describe(`Store contract: ${name}`, () => {
    beforeEach(async () => {
      await options.setup?.();
      namespace = `contract:${process.pid}:${Date.now()}:${++unique}`;
      store = await makeStore();
    });

    afterEach(async () => {
      await store?.close?.();
      store = undefined;
      await options.teardown?.();
    });

    basicContract(context);
    hitContract(context);
    limitContract(context);
    tokenContract(context);
    guardContract(context);
  });
}
