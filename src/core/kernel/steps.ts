/** Small steps of the pipeline that stay synchronous until something really is asynchronous. */

/**
 * A value now, or later.
 *
 * @category Plugins and pipeline
 */
export type Step<T> = T | Promise<T>;

/**
 * Tells whether a value is a thenable.
 *
 * @category Plugins and pipeline
 */
export function isPromise<T>(value: unknown): value is Promise<T> {
  return typeof (value as Promise<T> | undefined)?.then === 'function';
}

/**
 * Applies `next` now when `value` is ready, or when it settles: no async hop on the sync path.
 *
 * @category Plugins and pipeline
 */
export function andThen<T, U>(value: Step<T>, next: (v: T) => Step<U>): Step<U> {
  return isPromise<T>(value) ? value.then(next) : next(value);
}

/**
 * Hands a step's value to `ok` now when it is ready, or once it settles, and a rejection to
 * `failed`: how an adapter writes a response that may still be on its way, with one branch.
 *
 * @category Host binding
 */
export function settle<T>(
  value: Step<T>,
  ok: (v: T) => unknown,
  failed?: (error: Error) => unknown,
): void {
  if (isPromise<T>(value)) value.then(ok, failed);
  else ok(value);
}

/**
 * Runs `step`, turning a synchronous throw and a rejection alike into `recover`'s answer: one
 * place for "whatever fails here becomes the error response".
 *
 * @category Plugins and pipeline
 */
export function attempt<T>(step: () => Step<T>, recover: (error: unknown) => Step<T>): Step<T> {
  let result: Step<T>;
  try {
    result = step();
  } catch (error) {
    return recover(error);
  }
  return isPromise<T>(result) ? result.then(undefined, recover) : result;
}

/**
 * Runs hooks in order until one returns something; awaits only hooks that return a promise.
 *
 * @category Plugins and pipeline
 */
export function runHooks<A, R>(
  hooks: readonly ((arg: A) => Step<R | undefined>)[],
  arg: A,
  from = 0,
): Step<R | undefined> {
  for (let i = from; i < hooks.length; i++) {
    const result = hooks[i]!(arg);
    if (result === undefined) continue;
    if (isPromise<R | undefined>(result)) {
      return result.then((r) => (r === undefined ? runHooks(hooks, arg, i + 1) : r));
    }
    return result;
  }
  return undefined;
}

/**
 * Runs every hook in order, each after the last settled; no async hop when none is async.
 *
 * @category Plugins and pipeline
 */
export function runAll<A, B>(
  hooks: readonly ((a: A, b: B) => Step<void>)[],
  a: A,
  b: B,
): Step<void> {
  for (let i = 0; i < hooks.length; i++) {
    const result = hooks[i]!(a, b);
    if (isPromise<void>(result)) {
      return result.then(() => runAll(hooks.slice(i + 1), a, b));
    }
  }
}
