/** Page-number paging and the list envelope (spec 2.7, 2.8, 4.4). */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';

/** Options of {@link parsePageParams}. */
export interface PageOptions {
  /** Items per page when `per_page` is absent. @default 20 */
  defaultPerPage?: number;
  /** The largest `per_page` accepted. @default 100 */
  maxPerPage?: number;
}

/** A page position read from `page` and `per_page`, with the offset it stands for. */
export interface PageParams {
  /** 1-based page number. */
  page: number;
  /** Items per page. */
  perPage: number;
  /** `(page - 1) * perPage`: where the page starts. */
  offset: number;
}

function readInteger(
  query: URLSearchParams,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (!(value >= min && value <= max)) {
    throw new ApiError(
      400,
      ErrorCode.InvalidParameter,
      `The query parameter "${name}" must be an integer from ${min} to ${max}; got "${raw}".`,
    );
  }
  return value;
}

/**
 * Reads `page` (from 1) and `per_page` (1 to `maxPerPage`) from the query; an out-of-range or
 * non-integer value is a 400 naming the parameter and its bounds.
 */
export function parsePageParams(query: URLSearchParams, options: PageOptions = {}): PageParams {
  const maxPerPage = options.maxPerPage ?? 100;
  const defaultPerPage = options.defaultPerPage ?? Math.min(20, maxPerPage);
  if (!(Number.isInteger(maxPerPage) && maxPerPage >= 1)) {
    throw new TypeError(`maxPerPage must be a whole number of at least 1; got ${maxPerPage}.`);
  }
  if (!(Number.isInteger(defaultPerPage) && defaultPerPage >= 1 && defaultPerPage <= maxPerPage)) {
    throw new TypeError(
      `defaultPerPage must be a whole number from 1 to maxPerPage (${maxPerPage}).`,
    );
  }
  const perPage = readInteger(query, 'per_page', defaultPerPage, 1, maxPerPage);
  const page = readInteger(query, 'page', 1, 1, 999_999_999);
  return { page, perPage, offset: (page - 1) * perPage };
}

/** Extra members of a list envelope. */
export interface ListMeta {
  /** Whether a next page exists (spec 2.8). */
  hasNext: boolean;
  /** The total count, only when asked for (spec 2.8). */
  total?: number;
}

/**
 * Wraps a list in a top-level object named after the plural resource, never a bare array
 * (spec 2.7), with `hasNext` (spec 2.8).
 *
 * @example
 * ```ts
 * return listOf('books', page, { hasNext: offset + page.length < all.length });
 * // { "books": [...], "hasNext": true }
 * ```
 */
export function listOf<K extends string, T>(
  name: K,
  items: readonly T[],
  meta: ListMeta,
): Record<K, readonly T[]> & ListMeta {
  const envelope = { [name]: items, hasNext: meta.hasNext } as Record<K, readonly T[]> & ListMeta;
  if (meta.total !== undefined) envelope.total = meta.total;
  return envelope;
}
