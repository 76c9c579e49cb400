/** The checks and the stack-trace saving of the {@link ApiError} constructor. */

/**
 * Throws a `TypeError` unless `status` is 400–599 and `code` is status × 100 + n, n 0–99.
 *
 * @category Errors
 */
export function assertStatusAndCode(status: number, code: number): void {
  if (!Number.isInteger(status) || status < 400 || status > 599) {
    throw new TypeError(`ApiError status must be an integer from 400 to 599; got ${status}.`);
  }
  // spec 7.1.5 and the catalogue: the status can always be read back from the code.
  if (!Number.isInteger(code) || Math.floor(code / 100) !== status) {
    throw new TypeError(
      `ApiError code must be status × 100 + n with n from 0 to 99 (${status * 100} to ${status * 100 + 99} for status ${status}); got ${code}.`,
    );
  }
}

type ErrorWithLimit = ErrorConstructor & { stackTraceLimit?: unknown };

/**
 * Turns stack capture off for a client error, which is the flood path (404, 405, 401, 429) and
 * whose stack says nothing about the server: capturing it costs several times the rest of the
 * error. Returns the limit to restore, or `undefined` when nothing was changed: on a 5xx, on
 * engines without V8's `Error.stackTraceLimit`, or where it cannot be written (a frozen realm).
 *
 * @category Errors
 */
export function skipStack(status: number): number | undefined {
  if (status >= 500) return undefined;
  const saved = (Error as ErrorWithLimit).stackTraceLimit;
  if (typeof saved !== 'number' || saved === 0) return undefined;
  return Reflect.set(Error, 'stackTraceLimit', 0) ? saved : undefined;
}

/**
 * Puts back the limit {@link skipStack} changed.
 *
 * @category Errors
 */
export function restoreStack(saved: number | undefined): void {
  if (saved !== undefined) Reflect.set(Error, 'stackTraceLimit', saved);
}
