/** Rate policies: who is counted, how many requests per how long, how the count resets; compiled once. */
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import type { RateAlgorithm } from '../stores/store.ts';
import type { RateIdentity } from './identity.ts';

/**
 * One rate policy (spec 8.4 fixes four things: how the user is identified, the limit, its unit
 * and when it resets).
 *
 * @example
 * ```ts
 * import type { RatePolicy } from 'api-conventions';
 * const policies: RatePolicy[] = [
 *   { name: 'burst', limit: 10, window: 1 },
 *   { name: 'hourly', limit: 1000, window: 3600 },
 * ];
 * ```
 *
 * @category Rate limits
 */
export interface RatePolicy {
  /**
   * A short name, unique among the policies checked together: it is part of the store key and
   * of the IETF `RateLimit-Policy` header. Letters, digits, `-`, `_` and `.`.
   * @default `${limit}-per-${window}s`
   */
  name?: string;
  /** Requests allowed per window, a whole number above 0. */
  limit: number;
  /** The window, in whole seconds (the unit `X-RateLimit-Reset` and `Retry-After` speak). */
  window: number;
  /**
   * How the count resets: `'fixed-window'` ends the window `window` seconds after its first
   * request, then starts afresh (the `X-RateLimit-Reset` time is exact); `'sliding-window'`
   * weighs the previous clock-aligned window by how much of it still overlaps (no burst at a
   * window's edge); `'gcra'` spreads requests evenly and refills continuously.
   * @default 'fixed-window'
   */
  algorithm?: RateAlgorithm;
  /**
   * Who is counted. The default is the verified token subject, else the client id, else the
   * client's network. A function may return `undefined` to leave
   * a request out of this policy.
   */
  identity?: RateIdentity;
  /** What one request costs, a whole number from 0. @default 1 */
  cost?: number;
}

/** @internal A policy resolved at start-up. */
export interface CompiledPolicy {
  name: string;
  limit: number;
  window: number;
  windowMs: number;
  algorithm: RateAlgorithm;
  identity: RateIdentity | undefined;
  cost: number;
  /** The tail of its store key after the identity: `}:name`. */
  suffix: string;
  /** `X-RateLimit-Limit`, formatted once. */
  limitText: string;
}

const algorithms: readonly RateAlgorithm[] = ['fixed-window', 'sliding-window', 'gcra'];
const namePattern = /^[A-Za-z0-9_.-]{1,64}$/;

/** @internal Validates and resolves a list of policies; `where` names them in errors. */
export function compilePolicies(policies: unknown, where: string): CompiledPolicy[] {
  if (!Array.isArray(policies)) {
    throw new TypeError(
      `${where}: policies must be a list such as [{ limit: 100, window: 60 }]; got ${typeof policies}.`,
    );
  }
  const names = new Set<string>();
  return policies.map((policy: RatePolicy, i) => {
    const at = `${where} policy ${i}`;
    if (typeof policy !== 'object' || policy === null) {
      throw new TypeError(`${at} must be an object such as { limit: 100, window: 60 }.`);
    }
    assertKnownKeys(at, policy, ['name', 'limit', 'window', 'algorithm', 'identity', 'cost']);
    const limit = assertInteger(`${at} limit`, policy.limit, 1, 2 ** 31);
    const window = assertInteger(`${at} window (seconds)`, policy.window, 1, 315_360_000);
    const algorithm = policy.algorithm ?? 'fixed-window';
    if (!algorithms.includes(algorithm)) {
      throw new TypeError(
        `${at} algorithm must be one of ${algorithms.join(', ')}; got ${String(algorithm)}.`,
      );
    }
    if (policy.identity !== undefined && typeof policy.identity !== 'function') {
      throw new TypeError(`${at} identity must be a function of the request context.`);
    }
    const name = policy.name ?? `${limit}-per-${window}s`;
    if (typeof name !== 'string' || !namePattern.test(name)) {
      throw new TypeError(
        `${at} name must be 1 to 64 letters, digits, "-", "_" or "."; got ${String(name)}.`,
      );
    }
    if (names.has(name)) {
      throw new TypeError(`${at}: two policies are named "${name}"; give each its own name.`);
    }
    names.add(name);
    return {
      name,
      limit,
      window,
      windowMs: window * 1000,
      algorithm,
      identity: policy.identity,
      cost: assertInteger(`${at} cost`, policy.cost ?? 1, 0, 2 ** 31),
      suffix: `}:${name}`,
      limitText: String(limit),
    };
  });
}
