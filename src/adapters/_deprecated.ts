/**
 * Deprecated aliases: an old export name that keeps working for one minor version and says once,
 * the first time it is used, which name replaces it (docs/adapters.md, "Names").
 */

/** The version in which the deprecated names are removed. */
const removedIn = '0.3.0';

/**
 * Warns once: a Node `DeprecationWarning` (so `--no-deprecation` silences it and
 * `--throw-deprecation` makes it fatal), or `console.warn` where there is no `process` (the fetch
 * subpath runs on workers and Deno too).
 */
function onceWarning(oldName: string, newName: string): () => void {
  let warned = false;
  return () => {
    if (warned) return;
    warned = true;
    const message = `${oldName} is deprecated and is removed in ${removedIn}: use ${newName}, which works the same.`;
    const host = (globalThis as { process?: { emitWarning?: (m: string, o: object) => void } })
      .process;
    if (typeof host?.emitWarning === 'function') {
      host.emitWarning(message, { type: 'DeprecationWarning', code: 'API_CONVENTIONS_DEPRECATED' });
    } else globalThis.console?.warn(`DeprecationWarning: ${message}`);
  };
}

/** `fn` under its old name: the same function (and `this`), warning the first time it is called. */
export function deprecatedFunction<F extends (...args: never[]) => unknown>(
  fn: F,
  oldName: string,
  newName: string,
): F {
  const warn = onceWarning(oldName, newName);
  return function (this: unknown, ...args: Parameters<F>) {
    warn();
    return fn.apply(this, args);
  } as F;
}

/** `value` under its old name: the same properties, warning the first time one is read. */
export function deprecatedObject<T extends object>(value: T, oldName: string, newName: string): T {
  const warn = onceWarning(oldName, newName);
  return new Proxy(value, {
    get(target, key, receiver) {
      warn();
      return Reflect.get(target, key, receiver);
    },
    ownKeys(target) {
      warn();
      return Reflect.ownKeys(target);
    },
  });
}
