/** Failed logins counted per username and per client in the store; past the limit, 429. */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import type { Store } from '../stores/store.ts';
import { digestKey } from './secrets.ts';

/** The compiled limits: failures per username and per client within one fixed window. */
export interface FailureLimits {
  readonly maxFailures: number;
  readonly maxClientFailures: number;
  readonly windowMs: number;
}

/** The counter key of a username: hashed, so a long or odd name never makes a long key. */
export async function userKey(username: string): Promise<string> {
  return `bf:u:${await digestKey(username.normalize('NFC').toLowerCase())}`;
}

/** The counter key of a client id. */
export async function clientKey(clientId: string): Promise<string> {
  return `bf:c:${await digestKey(clientId)}`;
}

function tooMany(windowMs: number): ApiError {
  const wait = Math.ceil(windowMs / 1000);
  return new ApiError(
    429,
    ErrorCode.TooManyRequests,
    `Too many failed attempts; try again in ${wait} seconds.`,
    {
      headers: { 'retry-after': String(wait) },
      extra: {
        error: 'invalid_request',
        error_description: `Too many failed attempts; try again in ${wait} seconds.`,
      },
    },
  );
}

/**
 * A bounded counter of failed logins: the store's own key bound and each counter's window keep
 * it small. `check` refuses with 429 once a key reached its limit (the right password then waits
 * too, which is what stops guessing); `fail` counts one failure.
 */
export class FailureCounter {
  constructor(
    private readonly store: Store,
    private readonly limits: FailureLimits,
  ) {}

  /** Throws the 429 when the key is at its limit. */
  async check(key: string, kind: 'user' | 'client'): Promise<void> {
    const value = await this.store.get(key);
    const max = kind === 'user' ? this.limits.maxFailures : this.limits.maxClientFailures;
    if (value !== undefined && Number(value) >= max) throw tooMany(this.limits.windowMs);
  }

  /**
   * Counts one failure for every key given. One call per key: a username's and a client's
   * counters live in different Redis Cluster slots, and one script may only touch one slot
   * (`CROSSSLOT`).
   */
  async fail(keys: readonly string[]): Promise<void> {
    await Promise.all(keys.map((key) => this.store.hit([{ key, ttlMs: this.limits.windowMs }], 1)));
  }
}
