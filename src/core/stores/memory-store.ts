/** The default in-process store: a bounded map with expiry and an unref'd sweep timer. */
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import type { Counter, Store } from './store.ts';

/** Options of {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /** The most keys kept; past it the oldest are dropped first. @default 100000 */
  maxKeys?: number;
  /** How often expired keys are swept, in milliseconds. @default 60000 */
  sweepIntervalMs?: number;
  /** The clock, for tests. @default Date.now */
  now?: () => number;
}

interface Entry {
  value: string;
  expiresAt: number;
}

/**
 * A {@link Store} in this process's memory: right for one instance; use the Redis store when
 * several instances share limits or tokens. Its timer never keeps the process alive.
 */
export class MemoryStore implements Store {
  private readonly entries = new Map<string, Entry>();
  private readonly maxKeys: number;
  private readonly now: () => number;
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(options: MemoryStoreOptions = {}) {
    assertKnownKeys('MemoryStore', options, ['maxKeys', 'sweepIntervalMs', 'now']);
    this.maxKeys = assertInteger('MemoryStore maxKeys', options.maxKeys ?? 100_000, 1, 2 ** 31);
    const interval = assertInteger(
      'MemoryStore sweepIntervalMs',
      options.sweepIntervalMs ?? 60_000,
      10,
      2 ** 31 - 1, // the longest delay setInterval supports
    );
    this.now = options.now ?? Date.now;
    this.timer = setInterval(() => this.sweep(), interval);
    (this.timer as { unref?: () => void }).unref?.();
  }

  /** How many keys are held, expired ones not yet swept included. */
  get size(): number {
    return this.entries.size;
  }

  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry === undefined) return undefined;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  private put(key: string, entry: Entry): void {
    this.entries.delete(key);
    this.entries.set(key, entry);
    if (this.entries.size > this.maxKeys) {
      // Map keeps insertion order, so the first key is the oldest written.
      this.entries.delete(this.entries.keys().next().value!);
    }
  }

  get(key: string): string | undefined {
    return this.live(key)?.value;
  }

  set(key: string, value: string, ttlMs?: number): void {
    const expiresAt = ttlMs === undefined ? Number.POSITIVE_INFINITY : this.now() + ttlMs;
    this.put(key, { value, expiresAt });
  }

  delete(key: string): boolean {
    return this.live(key) !== undefined && this.entries.delete(key);
  }

  increment(key: string, by: number, ttlMs: number): Counter {
    const entry = this.live(key);
    if (entry) {
      // Like Redis INCRBY, a value written with set() counts on from its number.
      const current = Number(entry.value);
      if (!Number.isSafeInteger(current)) {
        throw new TypeError(`MemoryStore: the value at "${key}" is not a whole number.`);
      }
      entry.value = String(current + by);
      return { value: current + by, expiresAt: entry.expiresAt };
    }
    const fresh = { value: String(by), expiresAt: this.now() + ttlMs };
    this.put(key, fresh);
    return { value: by, expiresAt: fresh.expiresAt };
  }

  /** Drops every expired key now. */
  sweep(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
  }

  close(): void {
    if (this.timer !== undefined) clearInterval(this.timer);
    this.timer = undefined;
    this.entries.clear();
  }
}
