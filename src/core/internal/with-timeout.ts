/** A promise raced against a timer: the bound behind store calls and request checks. */

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
