/** Request-path rules that hold before any route is looked at (spec 4.1.3, 4.1.9). */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { boundedEcho } from './echo.ts';

const upper = /[A-Z]/;
const percentEncoded = /%[0-9A-Fa-f]{2}/g;

/**
 * Tells whether a request path has an upper-case letter. Percent-encoding hex (`%2F`) is not a
 * letter of the path, so it does not count.
 *
 * @category Routing
 */
export function hasUpperCase(path: string): boolean {
  // Fast path: most paths have no upper-case character at all.
  if (!upper.test(path)) return false;
  return upper.test(path.replace(percentEncoded, ''));
}

/**
 * Throws a 404 for a path with upper-case letters: no redirect and no `Location` to the
 * lower-case path (spec 4.1.3). The message repeats at most the first 100 characters of the path.
 *
 * @category Routing
 */
export function assertLowerCasePath(path: string): void {
  if (hasUpperCase(path)) {
    throw new ApiError(
      404,
      ErrorCode.UpperCasePath,
      `Nothing found at ${boundedEcho(path)}: paths are entirely lower-case.`,
    );
  }
}

/**
 * A request target split in two.
 *
 * @category Routing
 */
export interface RequestTarget {
  /** The path: as received from {@link splitTarget}, normalized from `normalizeTarget`. */
  path: string;
  /** The query string without `?`; empty when there is none. */
  query: string;
}

/**
 * Splits an origin-form request target into its path and its query string (without `?`), as
 * received. `normalizeTarget` also handles the absolute form, fragments, dot segments and
 * percent-encoded unreserved characters.
 *
 * @category Routing
 */
export function splitTarget(target: string): RequestTarget {
  const q = target.indexOf('?');
  if (q === -1) return { path: target || '/', query: '' };
  return { path: target.slice(0, q) || '/', query: target.slice(q + 1) };
}

/**
 * Decodes one path parameter; malformed percent-encoding is a 400, never a 500.
 *
 * @category Routing
 */
export function decodeParam(raw: string, name: string): string {
  if (raw.indexOf('%') === -1) return raw;
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ApiError(
      400,
      ErrorCode.MalformedPath,
      `The path parameter "${name}" has malformed percent-encoding.`,
    );
  }
}
