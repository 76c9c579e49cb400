/**
 * One path and query for a request target, whatever the host: the WHATWG URL parser of a fetch
 * host removes dot segments and fragments before the library sees them, so every host does.
 */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import type { RequestTarget } from './check-path.ts';
import { boundedEcho } from './echo.ts';

const HASH = 35;
const PERCENT = 37;
const DOT = 46;
const SLASH = 47;
const QUESTION = 63;

/**
 * Turns a request target as received (origin form, absolute form, with or without a fragment)
 * into its path and query string: the fragment is dropped, an absolute form gives its path and
 * query, percent-encoded unreserved characters are decoded and dot segments removed. Other
 * percent-encodings (`%2F`, `%20`) stay encoded. Malformed percent-encoding in the path is a 400
 * with code `MalformedPath`.
 *
 * @category Routing
 */
export function normalizeTarget(target: string): RequestTarget {
  if (target.charCodeAt(0) === SLASH) {
    // The common target: origin form with nothing to normalize. One scan finds the `?` and
    // anything that needs the slow path; no allocation beyond the split.
    let q = -1;
    let i = 0;
    for (; i < target.length; i++) {
      const c = target.charCodeAt(i);
      if (c === HASH) break;
      if (q !== -1) continue;
      if (c === QUESTION) q = i;
      else if (c === PERCENT || (c === DOT && target.charCodeAt(i - 1) === SLASH)) break;
    }
    if (i === target.length) {
      return q === -1
        ? { path: target, query: '' }
        : { path: target.slice(0, q), query: target.slice(q + 1) };
    }
  }
  return normalizeSlowly(target);
}

/**
 * The target a host routes on, as one string: {@link normalizeTarget}'s path and query, or the
 * target as received where it cannot be normalised (the library then answers it with 400). For a
 * host that rewrites its request's URL before its router runs (Fastify's `rewriteUrl`).
 *
 * @category Routing
 */
export function normalizedUrl(target: string): string {
  try {
    const { path, query } = normalizeTarget(target);
    return query ? `${path}?${query}` : path;
  } catch {
    return target;
  }
}

function normalizeSlowly(target: string): RequestTarget {
  // RFC 9112 §3.2: a fragment is never part of the request target; drop a raw `#` and the rest.
  const hash = target.indexOf('#');
  let rest = hash === -1 ? target : target.slice(0, hash);
  if (rest.charCodeAt(0) !== SLASH) rest = afterAuthority(rest);
  const q = rest.indexOf('?');
  let path = q === -1 ? rest : rest.slice(0, q);
  const query = q === -1 ? '' : rest.slice(q + 1);
  if (path.indexOf('%') !== -1) path = decodeUnreserved(path);
  // Decoding first, as the WHATWG URL parser does: `%2E%2E` is a dot segment too.
  if (path.charCodeAt(0) === SLASH && path.indexOf('/.') !== -1) path = removeDotSegments(path);
  // RFC 9110 §4.2.3: an empty path is `/`.
  return { path: path || '/', query };
}

const absolute = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;

/**
 * RFC 9112 §3.2.2: a server must accept the absolute form; its path and query are the target.
 * Anything else that is not origin form (`*`, a garbage target) is left as it is and found
 * nowhere by the router.
 */
function afterAuthority(target: string): string {
  const scheme = absolute.exec(target);
  if (scheme === null) return target;
  const start = scheme[0].length;
  for (let i = start; i < target.length; i++) {
    const c = target.charCodeAt(i);
    if (c === SLASH || c === QUESTION) return target.slice(i);
  }
  return '';
}

function hexValue(c: number): number {
  if (c >= 48 && c <= 57) return c - 48;
  const lower = c | 0x20;
  if (lower >= 97 && lower <= 102) return lower - 87;
  return -1;
}

/** RFC 3986 §2.3: ALPHA, DIGIT, `-`, `.`, `_`, `~`. */
function isUnreserved(c: number): boolean {
  return (
    (c >= 97 && c <= 122) ||
    (c >= 65 && c <= 90) ||
    (c >= 48 && c <= 57) ||
    c === 45 ||
    c === DOT ||
    c === 95 ||
    c === 126
  );
}

/**
 * RFC 3986 §6.2.2.2: a percent-encoded unreserved character is the character itself. An encoded
 * upper-case letter (`%42`) becomes one, so the path then breaks the lower-case rule (spec 4.1.3).
 */
function decodeUnreserved(path: string): string {
  let out = '';
  let from = 0;
  for (let i = path.indexOf('%'); i !== -1; i = path.indexOf('%', i + 1)) {
    const high = hexValue(path.charCodeAt(i + 1));
    const low = hexValue(path.charCodeAt(i + 2));
    if (high === -1 || low === -1) {
      // RFC 3986 §2.1: `%` always starts a triplet of `%` and two hexadecimal digits.
      throw new ApiError(
        400,
        ErrorCode.MalformedPath,
        `The path ${boundedEcho(path)} has malformed percent-encoding: each "%" must be followed by two hexadecimal digits.`,
      );
    }
    const c = high * 16 + low;
    if (isUnreserved(c)) {
      out += path.slice(from, i) + String.fromCharCode(c);
      from = i + 3;
    }
    i += 2;
  }
  return from === 0 ? path : out + path.slice(from);
}

/** RFC 3986 §5.2.4, on an absolute path: `.` segments go, `..` removes the one before it. */
function removeDotSegments(path: string): string {
  const input = path.split('/');
  const output: string[] = [];
  for (let i = 1; i < input.length; i++) {
    const segment = input[i]!;
    const last = i === input.length - 1;
    if (segment === '..') output.pop();
    else if (segment !== '.') {
      output.push(segment);
      continue;
    }
    // A trailing dot segment leaves its directory: `/a/b/..` is `/a/`.
    if (last) output.push('');
  }
  return `/${output.join('/')}`;
}
