/** How a store call fails closed: a 503 for a failing store, and the one timeout that turns a hang into it. */
import { ApiError, isApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';

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
 * Settles as `answer` does, or rejects with `late()` once `ms` milliseconds passed first; a
 * rejection of `answer` becomes `failed(error)`. The timer is cleared as soon as the answer
 * comes and never keeps the process alive.
 */
export function withTimeout<T>(
  answer: PromiseLike<T>,
  ms: number,
  late: () => unknown,
  failed: (error: unknown) => unknown = (error) => error,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(late()), ms);
    (timer as { unref?: () => void }).unref?.();
    answer.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(failed(error));
      },
    );
  });
}
