/** Where the library reports faults and warnings: console, pino, or any logger of pino's shape. */

/**
 * What the library logs with each fault, in pino's shape: the thrown value under `err`.
 *
 * @category Errors
 */
export interface FaultRecord {
  /** The thrown value; pino's error serializer reads this key and logs its message and stack. */
  err: unknown;
  /** The request method, when the fault happened in a request. */
  method?: string;
  /** The request path, when the fault happened in a request. */
  path?: string;
}

/**
 * Where the library reports faults that become a 5xx, and start-up warnings. pino (and so
 * Fastify's `app.log`) fits as it is; `console` is accepted and written as one readable line.
 *
 * @category Errors
 */
export interface Logger {
  /** Called for every 5xx the library produces: the record first, then a one-line summary. */
  error(record: FaultRecord, message: string): void;
  /** Called with warnings found at start-up, such as route-lint findings. @default console.warn */
  warn?(message: string): void;
}

/**
 * The default {@link Logger}: one `console.error` line per fault, with the thrown value.
 *
 * @category Errors
 */
export const consoleLogger: Required<Logger> = {
  error(record, message) {
    console.error(`[api-conventions] ${message}`, record.err);
  },
  warn(message) {
    console.warn(`[api-conventions] ${message}`);
  },
};

/**
 * Whether a `logger` option means the library's default logger: none given, or the console.
 *
 * @category Errors
 */
export function isDefaultLogger(value: unknown): boolean {
  return value === undefined || value === globalThis.console;
}

const guarded = new WeakSet<object>();

/**
 * Runs one logger call so that a logger that throws, or returns a promise that rejects, never
 * changes the response or makes the caller throw: a log line lost beats a request failed.
 *
 * @category Errors
 */
export function callLogger(call: () => unknown): void {
  try {
    const result = call();
    if (typeof (result as Promise<unknown> | undefined)?.then === 'function') {
      (result as Promise<unknown>).then(undefined, () => {});
    }
  } catch {
    // Swallowed on purpose: see above.
  }
}

function describe(value: unknown): string {
  if (typeof value === 'function') {
    return 'a function (pass the logger object, e.g. `console`, not one of its methods)';
  }
  if (value === null) return 'null';
  return typeof value === 'object' ? 'an object without an `error` function' : typeof value;
}

/**
 * Checks a `logger` option once, at start-up, and returns it ready for the request path:
 * `undefined` or `console` give {@link consoleLogger}; a logger without `warn` warns through
 * `console.warn`; every call is guarded, so a failing logger never fails a request, and the
 * methods may be called unbound. Anything that is not an object with an `error` function (such
 * as `console.log`) is a `TypeError`.
 *
 * @example
 * ```ts
 * import { consoleLogger, resolveLogger } from './logger.ts';
 *
 * const logger = resolveLogger(consoleLogger);
 * logger.warn('route lint: 1 finding');
 * ```
 *
 * @category Errors
 */
export function resolveLogger(value: unknown): Required<Logger> {
  if (typeof value === 'object' && value !== null && guarded.has(value)) {
    return value as Required<Logger>;
  }
  const logger = isDefaultLogger(value) ? consoleLogger : value;
  if (
    typeof logger !== 'object' ||
    logger === null ||
    typeof (logger as Logger).error !== 'function'
  ) {
    throw new TypeError(
      `logger must be console, a pino logger, or any object with error(obj, msg) and optionally warn(msg); got ${describe(logger)}.`,
    );
  }
  const { warn } = logger as Logger;
  if (warn !== undefined && typeof warn !== 'function') {
    throw new TypeError(
      `logger.warn must be a function warn(msg), or left out to warn through console.warn; got ${typeof warn}.`,
    );
  }
  const target = logger as Logger;
  const resolved: Required<Logger> = {
    // Called as methods of the logger: pino's methods need their `this`.
    error: (record, message) => callLogger(() => target.error(record, message)),
    warn: (message) =>
      callLogger(() => (target.warn ? target.warn(message) : consoleLogger.warn(message))),
  };
  guarded.add(resolved);
  return resolved;
}
