import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createList } from '../../src/core/paging/create-list.ts';
import { readList } from '../../src/core/paging/list-query.ts';
import { isApiError, type ListPage, selectFields } from '../../src/index.ts';

interface Item {
  id: string;
  title: string;
  year: number;
  at: Date;
}

const list = createList({
  name: 'items',
  sort: ['title', 'year', 'at'],
  filters: { year: 'integer' },
  search: ['title'],
  maxPerPage: 50,
  total: true,
});

const items = fc
  .uniqueArray(
    fc.record({
      id: fc.stringMatching(/^[a-z0-9]{1,6}$/),
      title: fc.constantFrom('a', 'b', 'c', 'Ab', 'bc'),
      year: fc.integer({ min: 1990, max: 1994 }),
      at: fc.integer({ min: 0, max: 5 }).map((h) => new Date(h * 3_600_000)),
    }),
    { selector: (i) => i.id, maxLength: 60 },
  )
  .map((a) => a as Item[]);

const sort = fc
  .subarray(['title', 'year', 'at', 'id'], { minLength: 0 })
  .chain((fields) =>
    fc.tuple(...fields.map((f) => fc.constantFrom(f, `-${f}`))).map((parts) => parts.join(',')),
  );

const style = fc.constantFrom('page', 'offset', 'cursor');

/** The first request of a walk in a style. */
function first(kind: string, size: number, order: string, filter: string): string {
  const q = new URLSearchParams(filter);
  if (order !== '') q.set('sort', order);
  if (kind === 'page') q.set('per_page', String(size));
  else if (kind === 'offset') q.set('limit', String(size));
  else {
    q.set('after', '');
    q.set('limit', String(size));
  }
  return q.toString();
}

/** Follows `rel` from a request until the list ends; returns the pages. */
function walk(all: readonly Item[], start: string, rel: 'next' | 'prev'): ListPage<Item>[] {
  const pages: ListPage<Item>[] = [];
  let query: string | undefined = start;
  while (query !== undefined) {
    if (pages.length > all.length + 2) throw new Error('the walk does not end');
    const page: ListPage<Item> = readList(list, new URLSearchParams(query)).pageArray(all);
    pages.push(page);
    const target = page.neighbours()[rel];
    if (target === undefined) break;
    const next: URLSearchParams = new URLSearchParams(query);
    for (const name of ['page', 'per_page', 'limit', 'offset', 'after', 'before'])
      next.delete(name);
    for (const [k, v] of Object.entries(target)) next.set(k, v);
    query = next.toString();
  }
  return pages;
}

describe('paging walks (spec 4.4), property-based', () => {
  it('visits each item exactly once, in order, by any style, page size, sort and filter', () => {
    fc.assert(
      fc.property(
        items,
        style,
        fc.integer({ min: 1, max: 50 }),
        sort,
        fc.constantFrom('', 'year=1992', 'q=b'),
        (all, kind, size, order, filter) => {
          const pages = walk(all, first(kind, size, order, filter), 'next');
          const seen = pages.flatMap((p) => p.items.map((i) => i.id));
          const whole = readList(
            list,
            new URLSearchParams(`${filter}&sort=${order || 'id'}&limit=50`),
          );
          const expected = all
            .filter((i) => whole.matches(i))
            .sort((a, b) => whole.compare(a, b))
            .map((i) => i.id);
          expect(seen).toEqual(expected);
          expect(pages.every((p) => p.items.length <= size)).toBe(true);
          expect(pages.at(-1)!.hasNext).toBe(false);
          expect(pages.slice(0, -1).every((p) => p.hasNext)).toBe(true);
          expect(pages.every((p) => p.total === expected.length)).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('walks back by prev from the last page over the same items, for every style', () => {
    fc.assert(
      fc.property(items, style, fc.integer({ min: 1, max: 50 }), sort, (all, kind, size, order) => {
        const forward = walk(all, first(kind, size, order, ''), 'next');
        const last = forward.at(-1)!;
        const seenForward = forward.flatMap((p) => p.items.map((i) => i.id));
        if (kind === 'cursor' && last.items.length === 0) return;
        const lastQuery =
          kind === 'page'
            ? `per_page=${size}&page=${last.query.page}`
            : kind === 'offset'
              ? `limit=${size}&offset=${last.query.offset}`
              : `limit=${size}&after=${forward.length > 1 ? forward.at(-2)!.cursorOf(forward.at(-2)!.items.at(-1)!) : ''}`;
        const back = walk(all, `${lastQuery}${order ? `&sort=${order}` : ''}`, 'prev');
        const seenBack = back.flatMap((p) => p.items.map((i) => i.id));
        // Page and offset pages keep their boundaries; cursor pages end where the first item is.
        expect(new Set(seenBack).size).toBe(seenBack.length);
        expect([...seenBack].sort()).toEqual([...seenForward].sort());
      }),
      { numRuns: 200 },
    );
  });
});

describe('no hostile query gives anything but a page or a 400', () => {
  const value = fc.oneof(
    fc.string(),
    fc.constantFrom(
      '',
      '0',
      '-1',
      '1e3',
      '999999999999',
      'NaN',
      '1.5',
      ' 1',
      '%00',
      '\u0000',
      'a.b',
    ),
    fc.integer().map(String),
  );
  const name = fc.constantFrom(
    'page',
    'per_page',
    'limit',
    'offset',
    'after',
    'before',
    'sort',
    'year',
    'q',
    'total',
    'x',
  );

  it('answers every query with a page or a 400 ApiError', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(name, value), { maxLength: 6 }), (pairs) => {
        const query = new URLSearchParams(pairs);
        try {
          readList(list, query).pageArray([{ id: 'a', title: 'a', year: 1990, at: new Date(0) }]);
        } catch (error) {
          expect(isApiError(error)).toBe(true);
          expect((error as { status: number }).status).toBe(400);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('answers every fields value with the selection or a 400 ApiError', () => {
    const tree = { id: true, title: true, author: { name: true, born: { year: true } } } as const;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.stringMatching(/^[a-z(),_]{0,40}$/),
          fc.constantFrom('id,author(born(year))', 'author(', '__proto__'),
        ),
        (fields) => {
          try {
            selectFields({ id: 'x', author: { name: 'n', born: { year: 1 } } }, fields, tree);
          } catch (error) {
            expect(isApiError(error)).toBe(true);
            expect((error as { status: number }).status).toBe(400);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
