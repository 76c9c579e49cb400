/** {@link BruteForceOptions} checked and compiled once, at start-up (CONTRIBUTING.md rule 6). */
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import type { Store } from '../stores/store.ts';
import type { BruteForceOptions } from './options.ts';

/** The compiled limits (see {@link BruteForceOptions} for what each one means). */
export interface FailureLimits {
  readonly maxFailures: number;
  readonly maxClientFailures: number;
  readonly windowMs: number;
  readonly maxClientTotalFailures: number;
  readonly clientWindowMs: number;
  readonly ipv6Prefix: number;
  /** The counters' own store, when one was given. */
  readonly store: Store | undefined;
}

const where = 'oauthServer';
const methods = ['get', 'set', 'delete', 'hit', 'take', 'add'] as const;
const name = (option: string) => `${where}: \`bruteForce.${option}\``;

/** Checks and compiles `bruteForce`; `undefined` when counting is off. */
export function resolveBruteForce(
  options: BruteForceOptions | false | undefined,
): FailureLimits | undefined {
  if (options === false) return undefined;
  const bf = options ?? {};
  assertKnownKeys(`${where}: bruteForce`, bf, [
    'maxFailures',
    'maxClientFailures',
    'windowSeconds',
    'maxClientTotalFailures',
    'clientWindowSeconds',
    'ipv6Prefix',
    'store',
  ]);
  const count = (option: string, value: unknown) =>
    assertInteger(name(option), value, 1, 1_000_000);
  const maxFailures = count('maxFailures', bf.maxFailures ?? 10);
  const maxClientFailures = count('maxClientFailures', bf.maxClientFailures ?? 100);
  const window = assertInteger(name('windowSeconds'), bf.windowSeconds ?? 900, 1, 86_400);
  const clientWindow = assertInteger(
    name('clientWindowSeconds'),
    bf.clientWindowSeconds ?? 4 * window,
    window,
    4 * 86_400,
  );
  const total = assertInteger(
    name('maxClientTotalFailures'),
    bf.maxClientTotalFailures ?? 10 * maxClientFailures,
    1,
    10_000_000,
  );
  // Windows start at a network's first failure, so one client window overlaps at most this
  // many of a network's windows: one network alone must not reach the ceiling.
  const alone = maxClientFailures * (Math.ceil(clientWindow / window) + 1);
  if (total < alone) {
    throw new TypeError(
      `${where}: in \`bruteForce\`, one network may fail ${maxClientFailures} times per ${window} s, up to ${alone} ` +
        `times per ${clientWindow} s, so on its own it would reach maxClientTotalFailures ` +
        `(${total}) and lock the client out for everyone; raise maxClientTotalFailures to at ` +
        `least ${alone}, or lower maxClientFailures or clientWindowSeconds.`,
    );
  }
  const store = bf.store as Partial<Store> | undefined;
  if (store !== undefined && methods.some((m) => typeof store?.[m] !== 'function')) {
    throw new TypeError(`${name('store')} must be a Store, such as a MemoryStore or a RedisStore.`);
  }
  return {
    maxFailures,
    maxClientFailures,
    windowMs: window * 1000,
    maxClientTotalFailures: total,
    clientWindowMs: clientWindow * 1000,
    ipv6Prefix: assertInteger(name('ipv6Prefix'), bf.ipv6Prefix ?? 56, 1, 128),
    store: bf.store,
  };
}
