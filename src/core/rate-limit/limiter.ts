/** The rate limiter: policies over a store, one store call per check, headers and 429s. */
import { assertInteger, assertKnownKeys } from '../internal/options.ts';
import type { RequestContext } from '../kernel/context.ts';
import { isPromise, type Step } from '../kernel/steps.ts';
import { spentBudget, storeUnavailable, withinBudget } from '../stores/fail-closed.ts';
import { MemoryStore } from '../stores/memory-store.ts';
import type { RateCheck, RateVerdict, Store } from '../stores/store.ts';
import type { StoreBudget, StoreBudgetHolder } from '../stores/store-budget.ts';
import { clientNetwork, defaultIdentity, type RateIdentity } from './identity.ts';
import { type CompiledPolicy, compilePolicies, type RatePolicy } from './policy.ts';
import {
  type HeaderStyle,
  rateLimited,
  refusedCredentialsSpent,
  tightest,
  writeRateHeaders,
} from './rate-answer.ts';

const failed = 'The rate-limit store failed, so the request was refused; try again later.';

/** The 503 of a store that failed or did not answer in time; nothing passes without it. */
const unavailable = (cause: unknown) => storeUnavailable(cause, failed);

const nothing = (): undefined => undefined;

/** Why a request that already waited its whole store budget was not counted. */
const budgetSpent = (budget: StoreBudget) =>
  new Error(`the rate-limit store was not asked: the request already waited ${budget.ms} ms`);

/**
 * @internal A network's spent budget for refused credentials: the policy it mirrors, and when
 * the network may send credentials again (ms since the epoch).
 */
export interface RefusedBudget {
  readonly policy: CompiledPolicy;
  readonly until: number;
}

/**
 * Options of {@link createRateLimiter} and {@link rateLimit}.
 *
 * @category Rate limits
 */
export interface RateLimitOptions {
  /** The policies every request is checked against, all in one store call. @default [] */
  policies?: readonly RatePolicy[];
  /**
   * Where the counts live. Give every instance of a service the same Redis store
   * (`api-conventions/redis`) so that the limit holds across them.
   * @default a MemoryStore of 100,000 keys that evicts the oldest when full
   */
  store?: Store;
  /** Put before every key, so that limits never meet other state in a shared store. @default 'rl:' */
  prefix?: string;
  /**
   * How long a store call may take before the store counts as failed, in ms. The checks of one
   * request share it with the request's other store calls (its store budget, see
   * {@link guardStore}). @default 250
   */
  timeoutMs?: number;
  /**
   * What a failed or slow store means: `'closed'` answers 503 with the error body and lets
   * nothing through; `'open'` lets the request through without counting; `'memory'` counts in
   * an in-process memory store meanwhile (each instance then limits on its own). The store is
   * asked again on the next request, so service recovers as soon as it does.
   * @default 'closed'
   */
  onStoreFailure?: 'closed' | 'open' | 'memory';
  /** Told of every store failure (for the logs), whatever `onStoreFailure` does. */
  onError?: (error: unknown) => void;
  /** Send `X-RateLimit-Limit`, `-Remaining` and `-Reset` (spec 8.3). @default true */
  legacyHeaders?: boolean;
  /** Send the IETF `RateLimit` and `RateLimit-Policy` headers too. @default false */
  ietfHeaders?: boolean;
  /** How many leading bits of an IPv6 address make one client. @default 56 */
  ipv6Prefix?: number;
  /** Leaves a request out of every policy when it returns `true`. */
  skip?: (ctx: RequestContext) => boolean;
  /** The clock, in ms since the epoch. @default Date.now */
  now?: () => number;
}

/**
 * The state of the tightest policy after a check: what the headers report.
 *
 * @category Rate limits
 */
export interface RateLimitResult {
  /** The policy's name. */
  policy: string;
  /** Its limit. */
  limit: number;
  /** Requests it still allows, never negative. */
  remaining: number;
  /** When its count is back to zero, in ms since the epoch. */
  resetAt: number;
  /** Whether the request passed every policy. */
  allowed: boolean;
  /** When refused: how long to wait, in whole seconds, at least 1. */
  retryAfter: number;
}

/**
 * A compiled set of policies, checked together in one store call.
 *
 * @category Rate limits
 */
export interface PolicySet {
  /** @internal */
  readonly policies: readonly CompiledPolicy[];
  /** @internal The `RateLimit-Policy` value, formatted once. */
  readonly policyHeader: string;
}

const known = [
  'policies',
  'store',
  'prefix',
  'timeoutMs',
  'onStoreFailure',
  'onError',
  'legacyHeaders',
  'ietfHeaders',
  'ipv6Prefix',
  'skip',
  'now',
];

/**
 * Rate-limit accounting over a store: {@link RateLimiter.check} counts a request in every policy
 * of a set, in one atomic store call, sets the headers of the tightest policy on
 * `ctx.responseHeaders`, and throws the 429 when a policy refuses. Built by
 * {@link createRateLimiter}; the {@link rateLimit} plugin wraps one.
 *
 * @category Rate limits
 */
export class RateLimiter {
  /** The set of the `policies` option. */
  readonly policies: PolicySet;
  private readonly store: Store;
  private readonly timeoutMs: number;
  private readonly prefix: string;
  private readonly mode: 'closed' | 'open' | 'memory';
  private readonly onError: ((error: unknown) => void) | undefined;
  private readonly headerStyle: HeaderStyle;
  private readonly identity: RateIdentity;
  private readonly ipv6Prefix: number;
  private readonly skip: ((ctx: RequestContext) => boolean) | undefined;
  private readonly now: () => number;
  private insurance: MemoryStore | undefined;

  constructor(options: RateLimitOptions = {}) {
    assertKnownKeys('rateLimit', options, known);
    const timeoutMs = assertInteger('rateLimit timeoutMs', options.timeoutMs ?? 250, 1, 60_000);
    const store =
      options.store ?? new MemoryStore({ whenFull: 'evict', now: options.now ?? Date.now });
    if (typeof store.limit !== 'function') {
      throw new TypeError(
        'rateLimit: the store has no limit() method; pass a MemoryStore, a RedisStore from ' +
          'api-conventions/redis, or a store that implements Store.limit.',
      );
    }
    this.store = store;
    this.timeoutMs = timeoutMs;
    this.prefix = options.prefix ?? 'rl:';
    if (typeof this.prefix !== 'string' || this.prefix.includes('{')) {
      throw new TypeError('rateLimit prefix must be a string without "{", such as "rl:".');
    }
    const mode = options.onStoreFailure ?? 'closed';
    if (!['closed', 'open', 'memory'].includes(mode)) {
      throw new TypeError(
        `rateLimit onStoreFailure must be 'closed', 'open' or 'memory'; got ${String(mode)}.`,
      );
    }
    this.mode = mode;
    this.onError = options.onError;
    this.headerStyle = {
      legacy: options.legacyHeaders ?? true,
      ietf: options.ietfHeaders ?? false,
    };
    const prefix = assertInteger('rateLimit ipv6Prefix', options.ipv6Prefix ?? 56, 1, 128);
    this.identity = defaultIdentity(prefix);
    this.ipv6Prefix = prefix;
    this.skip = options.skip;
    this.now = options.now ?? Date.now;
    this.policies = this.compile(options.policies ?? [], 'rateLimit');
  }

  /**
   * Compiles policies into a set this limiter can check: a mistake is a `TypeError` naming
   * `where`. Call it at start-up (a route's policies, a login policy), never per request.
   */
  compile(policies: readonly RatePolicy[], where = 'rateLimit'): PolicySet {
    const compiled = compilePolicies(policies, where);
    return {
      policies: compiled,
      policyHeader: compiled.map((p) => `"${p.name}";q=${p.limit};w=${p.window}`).join(', '),
    };
  }

  /**
   * Counts the request in every policy of `set` (the `policies` option by default): sets the
   * headers of the tightest policy and resolves with it, or throws the 429 (or, when the store
   * failed and fails closed, the 503). Synchronous on a memory store. Resolves with `undefined`
   * when no policy applies.
   */
  check(ctx: RequestContext, set: PolicySet = this.policies): Step<RateLimitResult | undefined> {
    return this.run(ctx, set, false);
  }

  /**
   * @internal Counts the request in every policy of `set`, after its answer was decided (a 403
   * of a verified caller): no headers, no 429, and a failed store only goes to `onError`.
   */
  count(ctx: RequestContext, set: PolicySet = this.policies): Step<void> {
    // A store failure is reported by run itself; what else fails (a policy's own identity
    // function) goes to onError too, since no request is left to answer it.
    try {
      const counted = this.run(ctx, set, true);
      if (isPromise(counted))
        return counted.then(nothing, (error: unknown) => this.onError?.(error));
    } catch (error) {
      this.onError?.(error);
    }
  }

  private run(
    ctx: RequestContext,
    set: PolicySet,
    quiet: boolean,
  ): Step<RateLimitResult | undefined> {
    if (set.policies.length === 0 || this.skip?.(ctx)) return undefined;
    const now = this.now();
    const policies = set.policies;
    const checks: RateCheck[] = [];
    let used: readonly CompiledPolicy[] = policies;
    for (let i = 0; i < policies.length; i++) {
      const policy = policies[i]!;
      const who = (policy.identity ?? this.identity)(ctx);
      if (who === undefined) {
        // A policy that leaves this request out: keep the policies that apply, in order.
        if (used === policies) used = policies.slice(0, i);
        continue;
      }
      if (used !== policies) (used as CompiledPolicy[]).push(policy);
      checks.push({
        key: `${this.prefix}{${who}${policy.suffix}`,
        algorithm: policy.algorithm,
        limit: policy.limit,
        windowMs: policy.windowMs,
        cost: policy.cost,
      });
    }
    if (checks.length === 0) return undefined;
    // A request that already waited its whole store budget asks the store no more.
    const spent = spentBudget(ctx);
    if (spent !== undefined) {
      return this.failed(ctx, set, used, checks, now, unavailable(budgetSpent(spent)), quiet);
    }
    let answer: Step<RateVerdict[]>;
    try {
      answer = this.store.limit!(checks, now);
    } catch (error) {
      return this.failed(ctx, set, used, checks, now, unavailable(error), quiet);
    }
    if (isPromise<RateVerdict[]>(answer)) {
      return this.bounded(answer, ctx).then(
        (verdicts) => this.apply(ctx, set, used, verdicts, now, quiet),
        (error: unknown) => this.failed(ctx, set, used, checks, now, unavailable(error), quiet),
      );
    }
    return this.apply(ctx, set, used, answer, now, quiet);
  }

  /**
   * The store's answer, or a rejection once `timeoutMs` passed, or what was left of the store
   * budget of the request `ctx`; the timer never holds the process.
   */
  private bounded(answer: Promise<RateVerdict[]>, ctx?: StoreBudgetHolder): Promise<RateVerdict[]> {
    return withinBudget(answer, this.timeoutMs, ctx, (budget) =>
      budget === undefined
        ? new Error(`the rate-limit store did not answer within ${this.timeoutMs} ms`)
        : new Error(
            `the rate-limit store did not answer within the ${budget.ms} ms a request may wait for stores`,
          ),
    );
  }

  /**
   * @internal Counts a request whose credentials an identity plugin refused (a 401), by the
   * client's network in a budget of its own: one per policy of the `policies` option, with its
   * limit and window. Resolves with the spent budget (the policy and when it is back) once the
   * network used it up; with `undefined` otherwise, and when the store fails.
   */
  countRefused(network: string): Step<RefusedBudget | undefined> {
    const policies = this.policies.policies;
    const checks: RateCheck[] = policies.map((policy) => ({
      key: `${this.prefix}{${network}${policy.suffix}:unverified`,
      algorithm: policy.algorithm,
      limit: policy.limit,
      windowMs: policy.windowMs,
      cost: 1,
    }));
    // The spent budget that lasts longest: the one that says when the network may try again.
    const spent = (verdicts: RateVerdict[]) => {
      let found: RefusedBudget | undefined;
      for (let i = 0; i < verdicts.length; i++) {
        const v = verdicts[i]!;
        if ((v.allowed && v.remaining > 0) || (found && found.until >= v.resetAt)) continue;
        found = { until: v.resetAt, policy: policies[i]! };
      }
      return found;
    };
    try {
      const answer = this.store.limit!(checks, this.now());
      if (!isPromise<RateVerdict[]>(answer)) return spent(answer);
      return this.bounded(answer).then(spent, (error: unknown) => {
        this.onError?.(unavailable(error));
        return undefined;
      });
    } catch (error) {
      this.onError?.(unavailable(error));
      return undefined;
    }
  }

  /**
   * @internal Throws the 429 of a network that spent its budget for refused credentials, naming
   * that budget, until it is back.
   */
  refuseSpent(budget: RefusedBudget): void {
    const left = budget.until - this.now();
    if (left <= 0) return;
    const retryAfter = Math.max(1, Math.ceil(left / 1000));
    throw refusedCredentialsSpent(budget.policy, retryAfter);
  }

  /** @internal The network key of the client (`ip:…`), as the default identity names it. */
  networkOf(ctx: RequestContext): string {
    return `ip:${clientNetwork(ctx.remoteAddress, this.ipv6Prefix)}`;
  }

  private failed(
    ctx: RequestContext,
    set: PolicySet,
    used: readonly CompiledPolicy[],
    checks: RateCheck[],
    now: number,
    error: unknown,
    quiet: boolean,
  ): RateLimitResult | undefined {
    this.onError?.(error);
    if (this.mode === 'closed') {
      if (quiet) return undefined;
      throw error;
    }
    if (this.mode === 'open') return undefined;
    this.insurance ??= new MemoryStore({ whenFull: 'evict', now: this.now });
    return this.apply(ctx, set, used, this.insurance.limit(checks, now), now, quiet);
  }

  private apply(
    ctx: RequestContext,
    set: PolicySet,
    used: readonly CompiledPolicy[],
    verdicts: RateVerdict[],
    now: number,
    quiet = false,
  ): RateLimitResult | undefined {
    const pick = tightest(verdicts);
    const verdict = verdicts[pick]!;
    const policy = used[pick]!;
    if (quiet) return undefined;
    writeRateHeaders(
      ctx.responseHeaders.record as Record<string, string>,
      this.headerStyle,
      set.policyHeader,
      policy,
      verdict,
      now,
    );
    const retryAfter = verdict.allowed ? 0 : Math.max(1, Math.ceil(verdict.retryAfterMs / 1000));
    if (!verdict.allowed) throw rateLimited(policy, retryAfter);
    return {
      policy: policy.name,
      limit: policy.limit,
      remaining: verdict.remaining,
      resetAt: verdict.resetAt,
      allowed: true,
      retryAfter: 0,
    };
  }
}

/**
 * Builds a {@link RateLimiter}: for a check of your own (a login form's attempts per username),
 * where the {@link rateLimit} plugin does not fit.
 *
 * @example
 * ```ts
 * import { createRateLimiter } from 'api-conventions';
 * const logins = createRateLimiter({
 *   policies: [{ name: 'login', limit: 10, window: 300, identity: (ctx) => ctx.query.get('user') ?? undefined }],
 * });
 * // in a handler: await logins.check(ctx); // throws the 429 past 10 tries in 5 minutes
 * ```
 *
 * @category Rate limits
 */
export function createRateLimiter(options: RateLimitOptions = {}): RateLimiter {
  return new RateLimiter(options);
}
