/** What a rate check answers: the tightest verdict of a request's policies, as headers or a 429. */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import type { RateVerdict } from '../stores/store.ts';
import type { CompiledPolicy } from './policy.ts';

/** The verdict that binds: a refusing policy with the longest wait, else the fewest requests left. */
export function tightest(verdicts: readonly RateVerdict[]): number {
  let pick = 0;
  for (let i = 1; i < verdicts.length; i++) {
    const v = verdicts[i]!;
    const best = verdicts[pick]!;
    if (best.allowed) {
      if (!v.allowed || v.remaining < best.remaining) pick = i;
    } else if (!v.allowed && v.retryAfterMs > best.retryAfterMs) {
      pick = i;
    }
  }
  return pick;
}

/** Which rate-limit headers a limiter writes, fixed at its creation. */
export interface HeaderStyle {
  /** Whether the `X-RateLimit-*` headers are written. */
  readonly legacy: boolean;
  /** Whether the IETF draft's `RateLimit` and `RateLimit-Policy` are written. */
  readonly ietf: boolean;
}

/**
 * Writes a verdict's rate-limit headers into a response's header record, unless an earlier check
 * of the request reported a tighter one. Names known valid, values digits and policy names
 * checked at start-up (letters, digits, `-_.`): written straight into the bag's record, the
 * checks of `HeaderBag.set` would find nothing to refuse (the hot path of every request).
 */
export function writeRateHeaders(
  record: Record<string, string>,
  style: HeaderStyle,
  policyHeader: string,
  policy: CompiledPolicy,
  verdict: RateVerdict,
  now: number,
): void {
  // A second check of one request (a route's policies after the service's) reports its
  // tightest policy only when it is tighter than what the first reported.
  const prior = record['x-ratelimit-remaining'];
  const looser = verdict.allowed && prior !== undefined && Number(prior) < verdict.remaining;
  if (style.legacy && !looser) {
    record['x-ratelimit-limit'] = policy.limitText;
    record['x-ratelimit-remaining'] = String(verdict.remaining);
    record['x-ratelimit-reset'] = String(Math.ceil(verdict.resetAt / 1000));
  }
  if (style.ietf && !looser) {
    record['ratelimit-policy'] = policyHeader;
    const seconds = Math.max(0, Math.ceil((verdict.resetAt - now) / 1000));
    record.ratelimit = `"${policy.name}";r=${verdict.remaining};t=${seconds}`;
  }
}

/** The 429 of a policy that refused, `retryAfter` seconds from now. */
export function rateLimited(policy: CompiledPolicy, retryAfter: number): ApiError {
  return new ApiError(
    429,
    ErrorCode.TooManyRequests,
    `Too many requests: the "${policy.name}" limit (${policy.limit} per ${policy.window} s) is reached; retry after ${retryAfter} s.`,
    // Never cached: a stored 429 would refuse the client after its limit reset.
    { headers: { 'retry-after': String(retryAfter), 'cache-control': 'no-store' } },
  );
}

/** The 429 of a network that spent its budget for refused credentials under `policy`. */
export function refusedCredentialsSpent(policy: CompiledPolicy, retryAfter: number): ApiError {
  const { name, limit, window } = policy;
  return new ApiError(
    429,
    ErrorCode.TooManyRequests,
    `Too many requests from your network with credentials that were not accepted: the budget for refused credentials of the "${name}" limit (${limit} per ${window} s) is spent; retry after ${retryAfter} s.`,
    { headers: { 'retry-after': String(retryAfter), 'cache-control': 'no-store' } },
  );
}
