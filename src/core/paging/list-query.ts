/** One list request, parsed: what a database needs, and the pages it makes from rows or an array. */
import { ErrorCode } from '../errors/catalogue.ts';
import { invalidRequest } from '../errors/helpers.ts';
import type { CursorValue } from './cursor.ts';
import type { ListSpec, PagingStyle } from './list-options.ts';
import { type FilterValue, type Position, parseList } from './parse-list.ts';
import { type SortField, sortText } from './sort-order.ts';

/** Orders two sort values: numbers, strings and dates by value; `null` and `undefined` last (as Postgres sorts NULL). */
function compareValues(a: unknown, b: unknown): number {
  if (a === b) return 0;
  if (a === null || a === undefined) return b === null || b === undefined ? 0 : 1;
  if (b === null || b === undefined) return -1;
  const x = a instanceof Date ? a.getTime() : a;
  const y = b instanceof Date ? b.getTime() : b;
  return (x as number) < (y as number) ? -1 : (x as number) > (y as number) ? 1 : 0;
}

function equalValues(a: unknown, b: FilterValue): boolean {
  if (b instanceof Date) return a instanceof Date ? a.getTime() === b.getTime() : false;
  return a === b;
}

type Row = Readonly<Record<string, unknown>>;

/** Whether `list` is already sorted by `compare` (as a stable sort would leave it). */
function inOrder<T>(list: readonly T[], compare: (a: T, b: T) => number): boolean {
  for (let i = 1; i < list.length; i++) if (compare(list[i - 1]!, list[i]!) > 0) return false;
  return true;
}

function isEmpty(record: object): boolean {
  for (const _ in record) return false;
  return true;
}

/**
 * One page of a list, as a handler returns it: the items with what the envelope and the
 * `Link` header need. The {@link payloads} plugin turns it into `{ <name>: [...], hasNext,
 * total? }` with each item shaped, and adds the `Link` header; without the plugin it
 * serializes as the plain envelope.
 *
 * @category Payloads
 */
export class ListPage<T = unknown> {
  /** The items of this page, in order. */
  readonly items: readonly T[];
  /** Whether a next page exists (spec 2.8). */
  readonly hasNext: boolean;
  /** Whether a previous page exists. */
  readonly hasPrevious: boolean;
  /** The total count, when the request asked for it and it was given. */
  readonly total: number | undefined;
  /** The request this page answers. */
  readonly query: ListQuery;

  constructor(
    query: ListQuery,
    items: readonly T[],
    hasNext: boolean,
    hasPrevious: boolean,
    total: number | undefined,
  ) {
    this.query = query;
    this.items = items;
    this.hasNext = hasNext;
    this.hasPrevious = hasPrevious;
    this.total = query.total ? total : undefined;
  }

  /** The envelope with the items as they are (spec 2.7, 2.8). */
  envelope(items: readonly unknown[] = this.items): Record<string, unknown> {
    const out: Record<string, unknown> = { [this.query.spec.name]: items, hasNext: this.hasNext };
    if (this.total !== undefined) out.total = this.total;
    return out;
  }

  /** The plain envelope, for serializers that meet a page the plugin did not shape. */
  toJSON(): Record<string, unknown> {
    return this.envelope();
  }

  /** The cursor that points at an item of this list, under this request's sort. */
  cursorOf(item: T): string {
    const { spec, sort } = this.query;
    const values = sort.map((s) => (item as Row)[s.field] as CursorValue);
    return spec.seal.seal(spec.name, { sort: sortText(sort), values });
  }

  /**
   * The query parameters of the next and previous pages, in this request's paging style, or
   * `undefined` where there is none.
   */
  neighbours(): {
    /** The query of the next page, or `undefined` on the last. */
    next: Record<string, string> | undefined;
    /** The query of the previous page, or `undefined` on the first. */
    prev: Record<string, string> | undefined;
  } {
    const q = this.query;
    const size = q.sizeParameter;
    // The size parameter is added in place: V8 gives a spread copy that then grows a member
    // a slow shape (about 1 µs each on Node 20).
    const sized = (p: Record<string, string>) => {
      if (size !== undefined) p[size] = String(q.limit);
      return p;
    };
    let next: Record<string, string> | undefined;
    let prev: Record<string, string> | undefined;
    if (q.style === 'page') {
      if (this.hasNext) next = sized({ page: String(q.page + 1) });
      if (this.hasPrevious && q.page > 1) prev = sized({ page: String(q.page - 1) });
    } else if (q.style === 'offset') {
      const limit = { limit: String(q.limit) };
      if (this.hasNext) next = { offset: String(q.offset + q.limit), ...limit };
      if (this.hasPrevious && q.offset > 0)
        prev = { offset: String(Math.max(0, q.offset - q.limit)), ...limit };
    } else if (this.items.length > 0) {
      if (this.hasNext) next = sized({ after: this.cursorOf(this.items[this.items.length - 1]!) });
      if (this.hasPrevious) prev = sized({ before: this.cursorOf(this.items[0]!) });
    }
    return { next, prev };
  }
}

/**
 * One list request, parsed and checked: its paging style and position, filters, search, sort.
 * A handler pages an array with {@link ListQuery.pageArray}, or gives a database what it needs
 * (`limit`, `offset`, the keyset position: see {@link keysetSql}) and wraps the rows with
 * {@link ListQuery.page}.
 *
 * @category Payloads
 */
export class ListQuery {
  /** The paging style of the request. */
  readonly style: PagingStyle;
  /** Items per page. */
  readonly limit: number;
  /** Where the page starts (page and offset styles); 0 in the cursor style. */
  readonly offset: number;
  /** The 1-based page number (page style; in the offset style, the page `offset` falls in). */
  readonly page: number;
  /** The last item seen: the page holds the items after it. */
  readonly after: Position | undefined;
  /** The first item seen: the page holds the items just before it. */
  readonly before: Position | undefined;
  /** Exact-match filters, each read by its declared type (spec 4.4). */
  readonly filters: Readonly<Record<string, FilterValue>>;
  /** The `q` search text, as given (spec 4.4). */
  readonly search: string | undefined;
  /** The order, the key last. */
  readonly sort: readonly SortField[];
  /** Whether the envelope carries `total`. */
  readonly total: boolean;
  /** Which size parameter the request used (`per_page` or `limit`), kept in the links. */
  readonly sizeParameter: 'per_page' | 'limit' | undefined;
  /** The compiled list this request was read against. */
  readonly spec: ListSpec;

  constructor(spec: ListSpec, query: URLSearchParams) {
    const parsed = parseList(spec, query);
    this.spec = spec;
    this.style = parsed.style;
    this.limit = parsed.limit;
    this.offset = parsed.offset;
    this.page = parsed.page;
    this.after = parsed.after;
    this.before = parsed.before;
    this.filters = parsed.filters;
    this.search = parsed.search;
    this.sort = parsed.sort;
    this.total = parsed.total;
    this.sizeParameter = parsed.sizeParameter;
  }

  /**
   * The page made of rows a database returned for this request: ask for `limit + 1` rows (as
   * {@link keysetSql} does) so `hasNext` is known without counting. With `before`, pass the rows
   * in the reversed order the query returned them.
   */
  pageOf<T>(rows: readonly T[], total?: number): ListPage<T> {
    const more = rows.length > this.limit;
    const items = more ? rows.slice(0, this.limit) : rows.slice();
    if (this.before !== undefined) {
      items.reverse();
      return new ListPage(this, items, true, more, total);
    }
    const hasPrevious = this.style === 'cursor' ? this.after !== undefined : this.offset > 0;
    return new ListPage(this, items, more, hasPrevious, total);
  }

  /** Tells whether an item passes the filters and the search. */
  matches(item: object): boolean {
    const row = item as Row;
    for (const name in this.filters) if (!equalValues(row[name], this.filters[name]!)) return false;
    if (this.search === undefined) return true;
    const needle = this.search.toLowerCase();
    for (const field of this.spec.search) {
      const value = row[field];
      if (typeof value === 'string' && value.toLowerCase().includes(needle)) return true;
    }
    return false;
  }

  /** {@link ListQuery.compare}, as one function: a single sort field compared directly. */
  private comparer(): (a: object, b: object) => number {
    const { sort } = this;
    if (sort.length > 2) return (a, b) => this.compare(a, b);
    const { field, descending } = sort[0]!;
    if (sort.length === 1) {
      return descending
        ? (a, b) => compareValues((b as Row)[field], (a as Row)[field])
        : (a, b) => compareValues((a as Row)[field], (b as Row)[field]);
    }
    // A field and the key, the most common sort: both compared without a loop.
    const { field: then, descending: thenDescending } = sort[1]!;
    return (a, b) => {
      const c = compareValues((a as Row)[field], (b as Row)[field]);
      if (c !== 0) return descending ? -c : c;
      const d = compareValues((a as Row)[then], (b as Row)[then]);
      return thenDescending ? -d : d;
    };
  }

  /** Orders two items by this request's sort. */
  compare(a: object, b: object): number {
    const { sort } = this;
    for (let i = 0; i < sort.length; i++) {
      const { field, descending } = sort[i]!;
      const c = compareValues((a as Row)[field], (b as Row)[field]);
      if (c !== 0) return descending ? -c : c;
    }
    return 0;
  }

  /** The sort values of a position: the cursor's, or those of the item the identifier names. */
  private valuesAt(position: Position, name: string, all: readonly object[]): readonly unknown[] {
    if (position.values !== undefined) return position.values;
    const { key } = this.spec;
    const item = all.find((i) => String((i as Row)[key]) === position.id);
    if (item === undefined) {
      throw invalidRequest([
        {
          message: `The query parameter "${name}" names no item of this list ("${position.id.slice(0, 64)}").`,
          code: ErrorCode.InvalidParameter,
        },
      ]);
    }
    return this.sort.map((s) => (item as Row)[s.field]);
  }

  private compareTo(item: object, values: readonly unknown[]): number {
    for (let i = 0; i < this.sort.length; i++) {
      const { field, descending } = this.sort[i]!;
      const c = compareValues((item as Row)[field], values[i]);
      if (c !== 0) return descending ? -c : c;
    }
    return 0;
  }

  /**
   * Filters, searches, sorts and pages an in-memory array in any of the three styles: the same
   * request a database answers with {@link keysetSql}.
   */
  pageArray<T extends object>(all: readonly T[]): ListPage<T> {
    let list: readonly T[];
    if (this.search === undefined && isEmpty(this.filters)) {
      list = all;
    } else {
      const kept: T[] = [];
      for (let i = 0; i < all.length; i++) if (this.matches(all[i]!)) kept.push(all[i]!);
      list = kept;
    }
    // A store often hands its rows over in the default order already: then nothing moves, and
    // nothing is copied; otherwise a copy is sorted (the caller's array is never reordered).
    const compare = this.comparer();
    if (!inOrder(list, compare)) list = (list === all ? all.slice() : (list as T[])).sort(compare);
    const count = list.length;
    if (this.after !== undefined) {
      const values = this.valuesAt(this.after, 'after', all);
      let start = list.findIndex((item) => this.compareTo(item, values) > 0);
      if (start === -1) start = count;
      return new ListPage(
        this,
        list.slice(start, start + this.limit),
        start + this.limit < count,
        start > 0,
        count,
      );
    }
    if (this.before !== undefined) {
      const values = this.valuesAt(this.before, 'before', all);
      let end = list.findIndex((item) => this.compareTo(item, values) >= 0);
      if (end === -1) end = count;
      const start = Math.max(0, end - this.limit);
      return new ListPage(this, list.slice(start, end), end < count, start > 0, count);
    }
    const { offset, limit } = this;
    return new ListPage(
      this,
      list.slice(offset, offset + limit),
      offset + limit < count,
      offset > 0,
      count,
    );
  }
}

/**
 * Reads one list request against its compiled options; a wrong value is a 400 naming it.
 *
 * @category Payloads
 */
export function readList(spec: ListSpec, query: URLSearchParams): ListQuery {
  return new ListQuery(spec, query);
}
