/** Evaluates conditional requests in RFC 9110 §13.2.2's order: If-Match, If-Unmodified-Since, If-None-Match, If-Modified-Since. */
import type { HeaderReader } from '../http/response.ts';
import { type ParsedTag, parseTags } from './etag.ts';
import { parseHttpDate } from './http-date.ts';

/**
 * What a precondition is evaluated against: the resource as it is now.
 *
 * @category Caching
 */
export interface CurrentResource {
  /** Whether the resource has a current representation. */
  exists: boolean;
  /** Whether a request's tag names the current representation (strong comparison when `strong`). */
  matches(tag: ParsedTag, strong: boolean): boolean;
  /** When it last changed, in milliseconds; `undefined` when unknown. */
  lastModified: number | undefined;
}

/**
 * The outcome of the preconditions: go on, 304 (a safe method whose validator matched), or 412
 * (`failed` for If-Match / If-Unmodified-Since, `exists` for an If-None-Match that matched on
 * a write).
 *
 * @category Caching
 */
export type Verdict = 'proceed' | 'notModified' | 'failed' | 'exists';

// Cost: linear in the value, at most 64 tags read and each compared once with the current tag.
function anyMatches(value: string, current: CurrentResource, strong: boolean): boolean {
  const tags = parseTags(value);
  if (tags === '*') return current.exists;
  if (tags === undefined || !current.exists) return false;
  for (const tag of tags) if (current.matches(tag, strong)) return true;
  return false;
}

// HTTP dates have a resolution of one second (RFC 9110 §5.6.7).
const toSecond = (ms: number) => Math.floor(ms / 1000) * 1000;

/**
 * Evaluates a request's preconditions against the current resource (RFC 9110 §13.2.2).
 *
 * @category Caching
 */
export function evaluatePreconditions(
  method: string,
  headers: HeaderReader,
  current: CurrentResource,
): Verdict {
  const safe = method === 'GET' || method === 'HEAD';
  const ifMatch = headers.get('if-match');
  if (ifMatch != null) {
    if (!anyMatches(ifMatch, current, true)) return 'failed';
  } else {
    const since = headers.get('if-unmodified-since');
    if (since != null && current.lastModified !== undefined) {
      const date = parseHttpDate(since);
      if (date !== undefined && toSecond(current.lastModified) > date) return 'failed';
    }
  }
  const ifNoneMatch = headers.get('if-none-match');
  if (ifNoneMatch != null) {
    if (anyMatches(ifNoneMatch, current, false)) return safe ? 'notModified' : 'exists';
  } else if (safe) {
    // Only without If-None-Match, which is the more precise validator (RFC 9110 §13.1.3).
    const since = headers.get('if-modified-since');
    if (since != null && current.lastModified !== undefined) {
      const date = parseHttpDate(since);
      if (date !== undefined && toSecond(current.lastModified) <= date) return 'notModified';
    }
  }
  return 'proceed';
}

/**
 * Whether a request carries any precondition (for `requireIfMatch`, RFC 6585 §3).
 *
 * @category Caching
 */
export function hasPrecondition(headers: HeaderReader): boolean {
  return (
    headers.get('if-match') != null ||
    headers.get('if-unmodified-since') != null ||
    headers.get('if-none-match') != null
  );
}
