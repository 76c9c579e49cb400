/**
 * The contract's concurrency checks, as plain functions that throw when a store is not atomic,
 * so a test can show that they catch a read-then-write store (see racy.test.ts).
 */
import { expect } from 'vitest';
import type { Store } from '../../src/index.ts';

/** How many calls each check starts at once. */
const callers = 20;

const oneToN = Array.from({ length: callers }, (_, i) => i + 1);

/**
 * Starts concurrent hits on two new windows: each window must count every hit once (values 1 to
 * n, each seen by one caller) and each caller must see the same count in both windows.
 */
export async function checkConcurrentHits(store: Store, keys: [string, string], ttlMs: number) {
  const windows = keys.map((key, i) => ({ key, ttlMs: ttlMs * (i + 1) }));
  const answers = await Promise.all(Array.from({ length: callers }, () => store.hit(windows)));
  for (const w of [0, 1]) {
    const values = answers.map((counters) => counters[w]?.value);
    expect(values.sort((a = 0, b = 0) => a - b)).toEqual(oneToN);
  }
  for (const [first, second] of answers) expect(first?.value).toBe(second?.value);
  expect(await store.get(keys[0])).toBe(String(callers));
}

/** Starts concurrent takes of one value: exactly one caller must get it. */
export async function checkConcurrentTakes(store: Store, key: string) {
  await store.set(key, 'single-use');
  const values = await Promise.all(Array.from({ length: callers }, () => store.take(key)));
  expect(values.filter((v) => v !== undefined)).toEqual(['single-use']);
  expect(await store.get(key)).toBeUndefined();
}

/** Starts concurrent adds of one key with different values: exactly one must win and stay. */
export async function checkConcurrentAdds(store: Store, key: string, ttlMs: number) {
  const results = await Promise.all(oneToN.map((n) => store.add(key, `caller ${n}`, ttlMs)));
  expect(results.filter(Boolean)).toHaveLength(1);
  expect(await store.get(key)).toBe(`caller ${results.indexOf(true) + 1}`);
}

/** Starts concurrent deletes of one key: exactly one must be told the key was there. */
export async function checkConcurrentDeletes(store: Store, key: string) {
  await store.set(key, 'one-time');
  const results = await Promise.all(Array.from({ length: callers }, () => store.delete(key)));
  expect(results.filter(Boolean)).toHaveLength(1);
}

/**
 * Starts 200 concurrent "increment, then compare with the limit" checks on one counter, as the
 * OAuth failure counter makes them: exactly `limit` must be admitted, each with its own count.
 */
export async function checkIncrementFirst(store: Store, key: string, ttlMs: number) {
  const limit = 10;
  const answers = await Promise.all(
    Array.from({ length: 200 }, () => store.hit([{ key, ttlMs }], 1)),
  );
  const admitted = answers.map(([c]) => c!.value).filter((v) => v <= limit);
  expect(admitted.sort((a, b) => a - b)).toEqual(Array.from({ length: limit }, (_, i) => i + 1));
}
