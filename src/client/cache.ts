/**
 * The client's memory of what it read: representations by URL with their `ETag`, for
 * conditional GETs (RFC 9110 §13.1.2), and the tag of each resource for `If-Match` on writes
 * (RFC 9110 §13.1.1).
 */

/**
 * One stored representation.
 *
 * @category Client
 */
export interface CachedResponse {
  /** Its `ETag`. */
  readonly etag: string;
  /** The status it was answered with. */
  readonly status: number;
  /** Its headers. */
  readonly headers: Headers;
  /** Its body, as read. */
  readonly body: unknown;
}

/**
 * Where the client keeps the representations it revalidates: a `Map` works, and so does any
 * store with these three methods.
 *
 * @category Client
 */
export interface ResponseCache {
  /** The entry stored under `key`. */
  get(key: string): CachedResponse | undefined;
  /** Stores an entry. */
  set(key: string, value: CachedResponse): unknown;
  /** Forgets an entry. */
  delete(key: string): unknown;
}

/** A cache that keeps the `max` entries used last. */
export class MemoryCache implements ResponseCache {
  readonly #entries = new Map<string, CachedResponse>();

  constructor(private readonly max: number) {}

  get(key: string): CachedResponse | undefined {
    const entry = this.#entries.get(key);
    if (entry !== undefined) {
      this.#entries.delete(key);
      this.#entries.set(key, entry);
    }
    return entry;
  }

  set(key: string, value: CachedResponse): void {
    this.#entries.delete(key);
    this.#entries.set(key, value);
    if (this.#entries.size > this.max) {
      const oldest = this.#entries.keys().next().value;
      if (oldest !== undefined) this.#entries.delete(oldest);
    }
  }

  delete(key: string): void {
    this.#entries.delete(key);
  }
}

/**
 * The last strong tag read of each resource (by its path), sent as `If-Match` by a write to it:
 * a write after someone else's change is then a 412, never a lost update (RFC 9110 §13.1.1).
 */
export class Validators {
  readonly #tags = new Map<string, string>();

  constructor(private readonly max: number) {}

  /** The tag to send when writing `resource`. */
  get(resource: string): string | undefined {
    return this.#tags.get(resource);
  }

  /** Remembers the tag of `resource`; a weak tag cannot be matched by If-Match (RFC 9110 §8.8.3.2). */
  set(resource: string, etag: string | null): void {
    this.#tags.delete(resource);
    if (etag === null || etag.startsWith('W/')) return;
    this.#tags.set(resource, etag);
    if (this.#tags.size > this.max) {
      const oldest = this.#tags.keys().next().value;
      if (oldest !== undefined) this.#tags.delete(oldest);
    }
  }
}
