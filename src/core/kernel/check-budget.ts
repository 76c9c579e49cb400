/**
 * The time budget of a request's checks: a schema, an `authorize` or a
 * `resourceVersion` that returns a promise must settle within `checkTimeout`, or the request is
 * answered 503 instead of being held open. A check that answers synchronously is never timed
 * (it costs no timer); its input is bounded instead (a body's structure, docs/limits.md).
 */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { withTimeout } from '../internal/with-timeout.ts';
import { isPromise, type Step } from './steps.ts';

/** The default of `conventions({ checkTimeout })`, in milliseconds. */
export const defaultCheckTimeout = 5000;

/**
 * 503 {@link ErrorCode.CheckTimeout}: the client is told nothing was done; the log names the
 * check that did not settle (the error's `cause`).
 */
function checkTimedOut(what: string, ms: number): ApiError {
  return new ApiError(
    503,
    ErrorCode.CheckTimeout,
    'The request could not be checked in time; nothing was done. Try again later.',
    { cause: new Error(`${what} did not settle within ${ms} ms (checkTimeout).`) },
  );
}

/**
 * `step` as it is when it is ready; a promise of it otherwise, that rejects with
 * {@link checkTimedOut} once `ms` passed first. The timer is cleared as soon as the check
 * settles and never keeps the process alive; what a late check settles with is dropped.
 */
export function withinBudget<T>(step: Step<T>, ms: number, what: () => string): Step<T> {
  if (!isPromise<T>(step)) return step;
  return withTimeout(step, ms, () => checkTimedOut(what(), ms));
}
