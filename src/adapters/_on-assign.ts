/** Where a host tells which handler it is about to run only by writing a property of the request. */

/**
 * Calls `then` with each value written to `target[key]`, after it is stored: Express writes
 * `req.route` and Hono `c.req.routeIndex` as they enter a route, before any of its handlers run,
 * so what `then` throws stops the route there (the host's error handling answers it).
 */
export function onAssign<T extends object, K extends keyof T & string>(
  target: T,
  key: K,
  then: (value: T[K]) => void,
): void {
  let current = target[key];
  Object.defineProperty(target, key, {
    configurable: true,
    enumerable: true,
    get: () => current,
    set(value: T[K]) {
      current = value;
      then(value);
    },
  });
}
