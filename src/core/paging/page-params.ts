/** Page-number paging and the list envelope (spec 2.7, 2.8, 4.4). */
import { ErrorCode } from '../errors/catalogue.ts';
import { type FieldProblem, invalidRequest } from '../errors/helpers.ts';
import { assertKnownKeys } from '../internal/options.ts';

/**
 * Options of {@link createPaging}.
 *
 * @category Payloads
 */
export interface PageOptions {
  /** Items per page when `per_page` is absent. @default 20, or `maxPerPage` when smaller */
  defaultPerPage?: number;
  /** The largest `per_page` accepted. @default 100 */
  maxPerPage?: number;
}

/**
 * A page position read from `page` and `per_page`, with the offset it stands for.
 *
 * @category Payloads
 */
export interface PageParams {
  /** 1-based page number. */
  page: number;
  /** Items per page. */
  perPage: number;
  /** `(page - 1) * perPage`: where the page starts. */
  offset: number;
}

/**
 * Paging compiled once from its options by {@link createPaging}: reads each request's paging
 * parameters without checking the options again.
 *
 * @category Payloads
 */
export interface Paging {
  /** Items per page when `per_page` is absent. */
  readonly defaultPerPage: number;
  /** The largest `per_page` accepted. */
  readonly maxPerPage: number;
  /**
   * Reads `page` (from 1) and `per_page` (1 to `maxPerPage`) from the query. Every wrong value
   * is reported at once in one 400, one entry each with code `ErrorCode.InvalidParameter`,
   * naming the parameter and its bounds.
   */
  parse(query: URLSearchParams): PageParams;
}

/** The largest `page` read: nine digits, so `offset` stays an exact integer. */
const maxPage = 999_999_999;

/** Reads one whole-number parameter; a wrong value is added to `problems` and `fallback` returned. */
function readInteger(
  query: URLSearchParams,
  name: string,
  fallback: number,
  max: number,
  problems: FieldProblem[],
): number {
  const raw = query.get(name);
  if (raw === null) return fallback;
  // Digits only: Number() would take '1e3', ' 1', '+1', '0x10' and 'Infinity'.
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (value >= 1 && value <= max) return value;
  problems.push({
    message: `The query parameter "${name}" must be an integer from 1 to ${max}; got "${raw}".`,
    code: ErrorCode.InvalidParameter,
  });
  return fallback;
}

/**
 * Checks paging options once and returns the {@link Paging} that reads `page` and `per_page`
 * (spec 4.4). Create it at start-up, beside the routes; a bad option is a `TypeError`.
 *
 * @example
 * ```ts
 * import { conventions, createPaging, listOf, type RequestContext } from 'api-conventions';
 *
 * const paging = createPaging({ maxPerPage: 50 });
 * const all = [{ id: 'emma' }, { id: 'persuasion' }];
 * const listBooks = (ctx: RequestContext) => {
 *   const { offset, perPage } = paging.parse(ctx.query); // 400 naming each wrong parameter
 *   const page = all.slice(offset, offset + perPage);
 *   return listOf('books', page, { hasNext: offset + perPage < all.length });
 * };
 * const api = conventions({ routes: { '/v1/books': { GET: listBooks } } });
 * ```
 *
 * @category Start here
 */
export function createPaging(options: PageOptions = {}): Paging {
  assertKnownKeys('Paging options', options, ['defaultPerPage', 'maxPerPage']);
  const maxPerPage = options.maxPerPage ?? 100;
  if (!(Number.isInteger(maxPerPage) && maxPerPage >= 1 && maxPerPage <= maxPage)) {
    throw new TypeError(
      `maxPerPage must be a whole number from 1 to ${maxPage}; got ${String(maxPerPage)}.`,
    );
  }
  const defaultPerPage = options.defaultPerPage ?? Math.min(20, maxPerPage);
  if (!(Number.isInteger(defaultPerPage) && defaultPerPage >= 1 && defaultPerPage <= maxPerPage)) {
    throw new TypeError(
      `defaultPerPage must be a whole number from 1 to maxPerPage (${maxPerPage}); got ${String(defaultPerPage)}.`,
    );
  }
  return Object.freeze({
    defaultPerPage,
    maxPerPage,
    parse(query: URLSearchParams): PageParams {
      const problems: FieldProblem[] = [];
      const page = readInteger(query, 'page', 1, maxPage, problems);
      const perPage = readInteger(query, 'per_page', defaultPerPage, maxPerPage, problems);
      if (problems.length > 0) throw invalidRequest(problems);
      return { page, perPage, offset: (page - 1) * perPage };
    },
  });
}

/**
 * Reads `page` (from 1) and `per_page` (1 to `maxPerPage`) from the query; every out-of-range or
 * non-integer value is reported at once in one 400 naming the parameter and its bounds. It checks
 * `options` on every call: on a hot path, compile them once with {@link createPaging}.
 *
 * @category Payloads
 */
export function parsePageParams(query: URLSearchParams, options: PageOptions = {}): PageParams {
  return createPaging(options).parse(query);
}

/**
 * Extra members of a list envelope.
 *
 * @category Payloads
 */
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
 * import { listOf } from 'api-conventions';
 *
 * const all = [{ id: 'emma' }, { id: 'persuasion' }, { id: 'sanditon' }];
 * const offset = 0;
 * const page = all.slice(offset, offset + 2);
 * const body = listOf('books', page, { hasNext: offset + page.length < all.length });
 * // { "books": [{ "id": "emma" }, { "id": "persuasion" }], "hasNext": true }
 * ```
 *
 * @category Start here
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
