/**
 * Two test-only stores that answer through a promise after a macrotask, as a networked store
 * does: {@link AsyncStore} does each call in one atomic step, like a Redis command or script;
 * {@link RacyStore} reads, waits, then writes, as a naive client-side implementation would. The
 * contract's concurrency checks must pass on the first and fail on the second.
 */
import type { Counter, HitWindow, RateCheck, RateVerdict, Store } from '../../src/index.ts';
import { MemoryStore, type MemoryStoreOptions } from '../../src/index.ts';

/** One macrotask: the time a network round trip gives other callers to run. */
const hop = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** Runs `step` whole in a later macrotask and answers with its result or its failure. */
async function later<T>(step: () => T): Promise<T> {
  await hop();
  return step();
}

/** A store that answers every call asynchronously, each call one atomic step on a memory store. */
export class AsyncStore implements Store {
  /** The memory store behind it, for tests that look inside. */
  readonly inner: MemoryStore;

  constructor(options: MemoryStoreOptions = {}) {
    this.inner = new MemoryStore(options);
  }

  get(key: string): Promise<string | undefined> {
    return later(() => this.inner.get(key));
  }
  set(key: string, value: string, ttlMs?: number): Promise<void> {
    return later(() => this.inner.set(key, value, ttlMs));
  }
  delete(key: string): Promise<boolean> {
    return later(() => this.inner.delete(key));
  }
  hit(windows: readonly HitWindow[], by?: number): Promise<Counter[]> {
    return later(() => this.inner.hit(windows, by));
  }
  take(key: string): Promise<string | undefined> {
    return later(() => this.inner.take(key));
  }
  add(key: string, value: string, ttlMs: number): Promise<boolean> {
    return later(() => this.inner.add(key, value, ttlMs));
  }
  limit(checks: readonly RateCheck[], now: number): Promise<RateVerdict[]> {
    return later(() => this.inner.limit(checks, now));
  }
  close(): Promise<void> {
    return later(() => this.inner.close());
  }
}

/**
 * A deliberately broken asynchronous store: `hit`, `take` and `add` read in one round trip and
 * write in the next, so concurrent callers all read the same state. Every call alone is right.
 */
export class RacyStore extends AsyncStore {
  override async hit(windows: readonly HitWindow[], by = 1): Promise<Counter[]> {
    const now = Date.now();
    const values = await Promise.all(windows.map((w) => this.get(w.key)));
    return Promise.all(
      windows.map(async (w, i) => {
        const value = Number(values[i] ?? 0) + by;
        await this.set(w.key, String(value), w.ttlMs);
        return { value, expiresAt: now + w.ttlMs };
      }),
    );
  }
  override async take(key: string): Promise<string | undefined> {
    const value = await this.get(key);
    if (value !== undefined) await this.delete(key);
    return value;
  }
  override async add(key: string, value: string, ttlMs: number): Promise<boolean> {
    if ((await this.get(key)) !== undefined) return false;
    await this.set(key, value, ttlMs);
    return true;
  }
}
