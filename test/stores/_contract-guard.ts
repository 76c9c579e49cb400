/** The contract of a store behind guardStore: prefixed keys, and 503s for failures and hangs. */
import { describe, expect, it } from 'vitest';
import { ErrorCode, guardStore, isApiError, type Store } from '../../src/index.ts';
import { attempt, type ContractContext } from './contract.ts';

/** Expects `run` to throw or reject with the store's 503, keeping a cause. */
async function expect503(run: () => unknown, message = /store this request needs failed/) {
  const error = await attempt(run).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(isApiError(error), `expected an ApiError, got ${String(error)}`).toBe(true);
  expect(error).toMatchObject({ status: 503, code: ErrorCode.StoreUnavailable });
  expect((error as Error).message).toMatch(message);
  expect((error as Error).cause).toBeInstanceOf(Error);
}

/**
 * `store` with every answer held back until `release()`: the store does the work at once, as a
 * server that answered too late would, and the caller hears of it only after the release.
 */
function heldBack(store: Store): { store: Store; release(): void } {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => {
    release = resolve;
  });
  const hold = <T>(answer: T | Promise<T>) => gate.then(() => answer);
  return {
    release,
    store: {
      get: (k) => hold(store.get(k)),
      set: (k, v, ttl) => hold(store.set(k, v, ttl)),
      delete: (k) => hold(store.delete(k)),
      hit: (windows, by) => hold(store.hit(windows, by)),
      take: (k) => hold(store.take(k)),
      add: (k, v, ttl) => hold(store.add(k, v, ttl)),
    },
  };
}

/** Declares the tests of the store behind guardStore. */
export function guardContract({ store, key, ttl, options }: ContractContext): void {
  describe('behind guardStore', () => {
    it('puts the prefix before the key of every method', async () => {
      const guarded = guardStore(store(), { prefix: key('feature:') });
      await guarded.set('a', 'one');
      expect(await store().get(key('feature:a'))).toBe('one');
      expect(await guarded.get('a')).toBe('one');
      expect(await guarded.take('a')).toBe('one');
      expect(await guarded.add('b', 'two', ttl)).toBe(true);
      expect(await store().get(key('feature:b'))).toBe('two');
      expect(await guarded.delete('b')).toBe(true);
      const [counter] = await guarded.hit([{ key: 'hits', ttlMs: ttl }], 3);
      expect(counter?.value).toBe(3);
      expect(await store().get(key('feature:hits'))).toBe('3');
      expect(await store().get(key('hits'))).toBeUndefined();
    });

    it('keeps features with different prefixes apart on one store', async () => {
      const limits = guardStore(store(), { prefix: key('rl:') });
      const tokens = guardStore(store(), { prefix: key('csrf:') });
      await limits.set('alice', 'limit');
      expect(await tokens.get('alice')).toBeUndefined();
      expect(await tokens.add('alice', 'token', ttl)).toBe(true);
      expect(await limits.take('alice')).toBe('limit');
      expect(await tokens.get('alice')).toBe('token');
    });

    it('turns a failure of the store into a 503 StoreUnavailable with the failure as cause', async () => {
      const failing = await options.makeFailingStore();
      try {
        const guarded = guardStore(failing, { prefix: key('') });
        await expect503(() => guarded.set('new', 'value', ttl));
        await expect503(() => guarded.hit([{ key: 'new', ttlMs: ttl }]));
        await expect503(() => guarded.add('new', 'value', ttl));
      } finally {
        await failing.close?.();
      }
    });

    it('turns a call that does not answer within timeoutMs into a 503, and ignores the late answer', async () => {
      const timeoutMs = Math.max(1, Math.floor(ttl / 10));
      const slow = heldBack(store());
      const guarded = guardStore(slow.store, { timeoutMs });
      const answers = [
        attempt(() => guarded.add(key('late'), 'value', ttl)),
        attempt(() => guarded.hit([{ key: key('hits'), ttlMs: ttl }])),
      ];
      const failures = answers.map((answer) =>
        answer.then(
          () => undefined,
          (e: unknown) => e,
        ),
      );
      await options.advance(timeoutMs);
      for (const failure of failures) {
        await expect503(
          async () => {
            throw await failure;
          },
          new RegExp(`did not answer within ${timeoutMs} ms`),
        );
      }
      slow.release();
      // The store did the work; only the caller was told it failed, as with a slow server.
      expect(await store().get(key('late'))).toBe('value');
    });
  });
}
