/** Small steps of the pipeline that stay synchronous until something really is asynchronous. */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { isReply } from '../http/reply.ts';
import type { OutgoingResponse } from '../http/response.ts';
import type { RequestContext } from './context.ts';
import type { CheckResult } from './plugin.ts';

/** A value now, or later. */
export type Step<T> = T | Promise<T>;

/** Tells whether a value is a thenable. */
export function isPromise<T>(value: unknown): value is Promise<T> {
  return typeof (value as Promise<T> | undefined)?.then === 'function';
}

/** Applies `next` now when `value` is ready, or when it settles: no async hop on the sync path. */
export function andThen<T, U>(value: Step<T>, next: (v: T) => Step<U>): Step<U> {
  return isPromise<T>(value) ? value.then(next) : next(value);
}

/** A check hook, bound to its plugin. */
export type Check = (ctx: RequestContext) => Step<CheckResult>;

/** Runs checks in order until one answers early; awaits only checks that return a promise. */
export function runChecks(
  checks: readonly Check[],
  ctx: RequestContext,
  from = 0,
): Step<CheckResult> {
  for (let i = from; i < checks.length; i++) {
    const result = checks[i]!(ctx);
    if (result === undefined) continue;
    if (isPromise<CheckResult>(result)) {
      return result.then((r) => (r === undefined ? runChecks(checks, ctx, i + 1) : r));
    }
    return result;
  }
  return undefined;
}

/** Turns what a handler returned into the outgoing response: data is 200, nothing is 204. */
export function toOutgoing(result: unknown): OutgoingResponse {
  if (isReply(result))
    return { status: result.status, headers: { ...result.headers }, body: result.body };
  if (result === undefined) return { status: 204, headers: {}, body: undefined };
  if (Array.isArray(result)) {
    // spec 2.7: a list is wrapped in an object; a bare array is a programming error.
    throw new ApiError(
      500,
      ErrorCode.BareArray,
      'Something went wrong on our side; it has been logged.',
      {
        cause: new TypeError(
          'A handler returned a bare top-level array; wrap lists in an object (spec 2.7).',
        ),
      },
    );
  }
  return { status: 200, headers: {}, body: result };
}
