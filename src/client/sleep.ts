/** Waiting that an abort signal ends. */

/** The longest delay a timer takes (2^31 − 1 ms, about 24.8 days); a longer one fires at once. */
export const maxTimer = 2_147_483_647;

/**
 * Resolves after `ms` (at most {@link maxTimer}: callers cap their waits below it), or rejects
 * with the signal's reason once it aborts.
 */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    // Past 2^31 − 1 ms setTimeout waits 1 ms instead (and warns): never ask it for more.
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      },
      Math.min(Math.max(0, ms), maxTimer),
    );
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
