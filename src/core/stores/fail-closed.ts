/**
 * How a store call fails closed: a 503 for a failing store, and the bound that turns a hang into
 * it, one per call or one per request (its store budget).
 */
import { ApiError, isApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { withTimeout } from '../internal/with-timeout.ts';
import { StoreBudget, type StoreBudgetHolder } from './store-budget.ts';

/**
 * The 503 {@link ErrorCode.StoreUnavailable} for a store that failed, with `message` for the
 * client and the failure as its `cause` for the logs; an error that already is one passes
 * through unchanged.
 */
export function storeUnavailable(cause: unknown, message: string): ApiError {
  if (isApiError(cause) && cause.code === ErrorCode.StoreUnavailable) return cause;
  return new ApiError(503, ErrorCode.StoreUnavailable, message, { cause });
}

/**
 * Settles as `answer` does, or rejects with `late(budget)` once it waited `ms`, or, for a call made
 * for a request (`within`, its context), what is left of that request's store budget, whichever
 * comes first; a rejection of `answer` becomes `failed(error)`. The request's budget is made here,
 * of `ms`, by its first call that has to wait, and is spent only while its calls wait.
 */
export function withinBudget<T>(
  answer: PromiseLike<T>,
  ms: number,
  within: StoreBudgetHolder | undefined,
  late: (budget: StoreBudget | undefined) => unknown,
  failed: (error: unknown) => unknown = (error) => error,
): Promise<T> {
  if (within === undefined) return withTimeout(answer, ms, () => late(undefined), failed);
  within.storeBudget ??= new StoreBudget(ms);
  const budget = within.storeBudget;
  const started = Date.now();
  const wait = Math.max(0, Math.min(ms, budget.start(started)));
  let pending = true;
  const end = (now: number) => {
    if (!pending) return false;
    pending = false;
    budget.end(now);
    return true;
  };
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      // The whole wait passed, whatever Date.now() rounds it to.
      if (end(Math.max(Date.now(), started + wait))) reject(late(budget));
    }, wait);
    (timer as { unref?: () => void }).unref?.();
    answer.then(
      (value) => {
        clearTimeout(timer);
        if (end(Date.now())) resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        if (end(Date.now())) reject(failed(error));
      },
    );
  });
}

/** The store budget of the request `within` carries, when it already waited all of it. */
export function spentBudget(within: StoreBudgetHolder | undefined): StoreBudget | undefined {
  const budget = within?.storeBudget;
  return budget?.spent(Date.now()) ? budget : undefined;
}
