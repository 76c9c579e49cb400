/**
 * The one bounded cache of the core: a map that never holds more than `bound` entries, so that
 * keys chosen by clients (an `Accept` value, a `fields` selection, a token) cannot grow memory.
 */

/**
 * A map of at most `bound` entries that forgets the oldest insertion first (FIFO: a read does
 * not refresh an entry, so a hit costs one `Map` lookup and nothing else). A bound of 0 keeps
 * nothing, which turns a cache off.
 */
export class BoundedCache<K, V> {
  /** The most entries kept. */
  readonly bound: number;
  private readonly map = new Map<K, V>();

  constructor(bound: number) {
    if (!Number.isInteger(bound) || bound < 0) {
      throw new TypeError(`BoundedCache: the bound must be a whole number ≥ 0; got ${bound}.`);
    }
    this.bound = bound;
  }

  /** The value kept for `key`, or `undefined`. */
  get(key: K): V | undefined {
    return this.map.get(key);
  }

  /** Whether a value is kept for `key`. */
  has(key: K): boolean {
    return this.map.has(key);
  }

  /** Keeps `value` for `key`; when the cache is full, the oldest entry goes first. */
  set(key: K, value: V): void {
    const { map } = this;
    if (map.size >= this.bound && !map.has(key)) {
      if (this.bound === 0) return;
      // A Map iterates in insertion order: its first key is the oldest.
      map.delete(map.keys().next().value as K);
    }
    map.set(key, value);
  }

  /** Forgets `key`; whether it was kept. */
  delete(key: K): boolean {
    return this.map.delete(key);
  }

  /** How many entries are kept. */
  get size(): number {
    return this.map.size;
  }

  /** The entries, oldest first; deleting the current one while iterating is safe. */
  entries(): IterableIterator<[K, V]> {
    return this.map.entries();
  }
}
