/** Reads one request's list query against its compiled {@link ListSpec}: every problem in one 400. */
import { ErrorCode } from '../errors/catalogue.ts';
import { type FieldProblem, invalidRequest } from '../errors/helpers.ts';
import { isDateTime } from '../validation/field-rule.ts';
import type { CursorValue } from './cursor.ts';
import { looksLikeCursor } from './cursor.ts';
import type { FilterType, ListSpec, PagingStyle } from './list-options.ts';
import { checkParameters, chooseStyle } from './list-parameters.ts';
import { readSort, type SortField, sortText } from './sort-order.ts';

/**
 * A position in a list: the last item seen (`after`) or the first one (`before`).
 *
 * @category Payloads
 */
export interface Position {
  /** The item's identifier (its key's value, as text). */
  readonly id: string;
  /**
   * The item's value of each sort field, the key last, when the request gave a cursor;
   * `undefined` for a plain identifier, whose values are looked up.
   */
  readonly values: readonly CursorValue[] | undefined;
}

/**
 * A filter's value, read by its declared type.
 *
 * @category Payloads
 */
export type FilterValue = string | number | boolean | Date;

/** The parsed query of one list request, before any method is attached. */
interface ParsedList {
  style: PagingStyle;
  limit: number;
  offset: number;
  page: number;
  after: Position | undefined;
  before: Position | undefined;
  filters: Record<string, FilterValue>;
  search: string | undefined;
  sort: readonly SortField[];
  total: boolean;
  /** Which size parameter the request used, so links keep it. */
  sizeParameter: 'per_page' | 'limit' | undefined;
}

const maxPage = 999_999_999;
const maxOffset = 999_999_999;
const maxPositionLength = 512;

function message(name: string, text: string): FieldProblem {
  return { message: `The query parameter "${name}" ${text}`, code: ErrorCode.InvalidParameter };
}

function readWhole(
  raw: string,
  name: string,
  min: number,
  max: number,
  problems: FieldProblem[],
): number {
  // Digits only: Number() would take '1e3', ' 1', '+1', '0x10' and 'Infinity'.
  const value = /^\d{1,9}$/.test(raw) ? Number(raw) : Number.NaN;
  if (value >= min && value <= max) return value;
  problems.push(message(name, `must be an integer from ${min} to ${max}; got "${clip(raw)}".`));
  return min;
}

/** A value quoted in a message, cut so that an error body stays small. */
function clip(text: string): string {
  return text.length > 64 ? `${text.slice(0, 64)}…` : text;
}

function readFilter(
  name: string,
  type: FilterType,
  raw: string,
  problems: FieldProblem[],
): FilterValue | undefined {
  switch (type) {
    case 'string':
      return raw;
    case 'integer':
      if (/^-?\d{1,15}$/.test(raw)) return Number(raw);
      break;
    case 'number':
      if (/^-?\d{1,15}(\.\d{1,15})?$/.test(raw)) return Number(raw);
      break;
    case 'boolean':
      if (raw === 'true' || raw === 'false') return raw === 'true';
      break;
    case 'date-time':
      if (isDateTime(raw)) return new Date(raw);
      break;
  }
  const what =
    type === 'date-time'
      ? 'an RFC 3339 date-time'
      : type === 'boolean'
        ? 'true or false'
        : `${type === 'integer' ? 'an integer' : 'a number'}`;
  problems.push({
    message: `The filter "${name}" must be ${what}; got "${clip(raw)}".`,
    code: ErrorCode.InvalidFilter,
  });
  return undefined;
}

function readPosition(
  spec: ListSpec,
  name: 'after' | 'before',
  raw: string,
  order: readonly SortField[],
  problems: FieldProblem[],
): Position | undefined {
  if (raw.length > maxPositionLength) {
    problems.push(
      message(
        name,
        `must be an identifier or a cursor of at most ${maxPositionLength} characters.`,
      ),
    );
    return undefined;
  }
  if (!looksLikeCursor(raw)) return { id: raw, values: undefined };
  const opened = spec.seal.open(spec.name, raw);
  if (opened === undefined || opened.values.length === 0) {
    problems.push({
      message: `The cursor in "${name}" was not issued by this list or was altered; start again from the first page.`,
      code: ErrorCode.InvalidCursor,
    });
    return undefined;
  }
  const wanted = sortText(order);
  if (opened.sort !== wanted || opened.values.length !== order.length) {
    problems.push({
      message: `The cursor in "${name}" belongs to sort=${opened.sort}, not sort=${wanted}; keep the sort of the page it came from.`,
      code: ErrorCode.InvalidCursor,
    });
    return undefined;
  }
  return { id: String(opened.values[opened.values.length - 1]), values: opened.values };
}

/**
 * Reads a list request's query: paging (one style), filters, `q`, `sort` and `total`. Every
 * problem is reported at once in one 400, each entry naming its parameter.
 */
export function parseList(spec: ListSpec, query: URLSearchParams): ParsedList {
  const seen = checkParameters(spec, query);
  const style = chooseStyle(spec, seen);
  const problems: FieldProblem[] = [];

  const sizeParameter = seen.has('per_page') ? 'per_page' : seen.has('limit') ? 'limit' : undefined;
  const limit =
    sizeParameter === undefined
      ? spec.defaultPerPage
      : readWhole(query.get(sizeParameter)!, sizeParameter, 1, spec.maxPerPage, problems);
  let page = 1;
  let offset = 0;
  if (style === 'page' && seen.has('page')) {
    page = readWhole(query.get('page')!, 'page', 1, maxPage, problems);
    offset = (page - 1) * limit;
  } else if (style === 'offset' && seen.has('offset')) {
    offset = readWhole(query.get('offset')!, 'offset', 0, maxOffset, problems);
    page = Math.floor(offset / limit) + 1;
  }

  let sort = spec.defaultSort;
  const sortRaw = query.get('sort');
  if (sortRaw !== null) {
    const read = readSort(sortRaw, spec.sortable, spec.key);
    for (const field of read.unknown) {
      problems.push({
        message: `The list cannot be sorted by "${clip(field)}"; "sort" takes ${[...spec.sortable].join(', ')}, each optionally prefixed with "-".`,
        code: ErrorCode.UnknownSortField,
      });
    }
    for (const field of read.repeated) problems.push(message('sort', `names "${field}" twice.`));
    sort = read.order;
  }

  let after: Position | undefined;
  let before: Position | undefined;
  const afterRaw = query.get('after');
  const beforeRaw = query.get('before');
  // An empty `after` asks for the first page in the cursor style.
  if (afterRaw) after = readPosition(spec, 'after', afterRaw, sort, problems);
  if (beforeRaw !== null) {
    if (beforeRaw === '') problems.push(message('before', 'must be an identifier or a cursor.'));
    else before = readPosition(spec, 'before', beforeRaw, sort, problems);
  }

  const filters: Record<string, FilterValue> = {};
  for (const [name, type] of spec.filters) {
    const raw = query.get(name);
    if (raw === null) continue;
    const value = readFilter(name, type, raw, problems);
    if (value !== undefined) filters[name] = value;
  }

  let search: string | undefined;
  const q = query.get('q');
  if (q !== null && q !== '' && spec.search.length > 0) {
    if (q.length > spec.maxSearchLength) {
      problems.push(message('q', `must be at most ${spec.maxSearchLength} characters long.`));
    }
    search = q;
  }

  let total = spec.total === true;
  const totalRaw = spec.total === 'on-request' ? query.get('total') : null;
  if (totalRaw !== null) {
    if (totalRaw === 'true' || totalRaw === 'false') total = totalRaw === 'true';
    else problems.push(message('total', `must be true or false; got "${clip(totalRaw)}".`));
  }

  if (problems.length > 0) throw invalidRequest(problems);
  return { style, limit, offset, page, after, before, filters, search, sort, total, sizeParameter };
}
