import { describe, expect, it } from 'vitest';
import { createList } from '../../src/core/paging/create-list.ts';
import { readList } from '../../src/core/paging/list-query.ts';
import { ApiError, type ListOptions } from '../../src/index.ts';
import { thrown } from './_thrown.ts';

const q = (query: string) => new URLSearchParams(query);
const books: ListOptions = {
  name: 'books',
  filters: {
    authorId: 'string',
    year: 'integer',
    rating: 'number',
    inPrint: 'boolean',
    since: 'date-time',
  },
  search: ['title'],
  sort: ['title', 'year'],
  total: 'on-request',
};
const spec = createList(books);
const read = (query: string) => readList(spec, q(query));

/** The 400 a query gets: its entries' codes and messages. */
function rejection(query: string) {
  const error = thrown(() => read(query));
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(400);
  return (error as ApiError).errors;
}

describe('readList: paging styles (spec 4.4)', () => {
  it.each([
    ['', { style: 'page', limit: 20, offset: 0, page: 1 }],
    ['page=3', { style: 'page', limit: 20, offset: 40, page: 3 }],
    ['page=3&per_page=10', { style: 'page', limit: 10, offset: 20, page: 3 }],
    ['per_page=5', { style: 'page', limit: 5, offset: 0, page: 1 }],
    ['limit=5', { style: 'offset', limit: 5, offset: 0 }],
    ['offset=10', { style: 'offset', limit: 20, offset: 10 }],
    ['offset=0&limit=100', { style: 'offset', limit: 100, offset: 0 }],
    [
      'after=emma',
      { style: 'cursor', limit: 20, offset: 0, after: { id: 'emma', values: undefined } },
    ],
    [
      'before=emma&limit=3',
      { style: 'cursor', limit: 3, before: { id: 'emma', values: undefined } },
    ],
    ['after=emma&per_page=3', { style: 'cursor', limit: 3 }],
    ['after=', { style: 'cursor', after: undefined }],
  ])('reads %j', (query, expected) => {
    expect(read(query)).toMatchObject(expected);
  });

  it.each([
    ['per_page=0', 'per_page', '1 to 100'],
    ['per_page=101', 'per_page', '1 to 100'],
    ['limit=0', 'limit', '1 to 100'],
    ['limit=-1', 'limit', '1 to 100'],
    ['page=0', 'page', '1 to 999999999'],
    ['page=1.5', 'page', '1 to'],
    ['page=1e3', 'page', '1 to'],
    ['page=%201', 'page', '1 to'],
    ['page=0x10', 'page', '1 to'],
    ['page=Infinity', 'page', '1 to'],
    ['page=9999999999', 'page', '1 to'],
    ['offset=-5', 'offset', '0 to 999999999'],
    ['offset=abc', 'offset', '0 to'],
    ['total=yes', 'total', 'true or false'],
  ])('answers %s with a 400 naming the parameter and its bounds', (query, name, bounds) => {
    const [entry] = rejection(query);
    expect(entry!.code).toBe(40005);
    expect(entry!.message).toContain(`"${name}"`);
    expect(entry!.message).toContain(bounds);
  });

  it.each([
    ['page=1&offset=2', '"page" and "offset"'],
    ['page=1&after=emma', '"page" and "after"'],
    ['offset=1&before=emma', '"offset" and "before"'],
    ['after=a&before=b', '"after" and "before"'],
    ['per_page=5&limit=5', '"per_page" and "limit"'],
    ['page=2&limit=5', '"page" and "limit"'],
    ['offset=2&per_page=5', '"offset" and "per_page"'],
  ])('refuses %s: two paging styles in one request (40010)', (query, names) => {
    const [entry] = rejection(query);
    expect(entry!.code).toBe(40010);
    expect(entry!.message).toContain(names);
  });

  it('refuses a paging parameter given twice', () => {
    const [entry] = rejection('page=1&page=2');
    expect(entry).toMatchObject({ code: 40010 });
    expect(entry!.message).toContain('"page" is given more than once');
  });

  it('refuses a style the route does not offer', () => {
    const only = createList({ name: 'books', styles: ['cursor'] });
    expect(readList(only, q('')).style).toBe('cursor');
    const error = thrown(() => readList(only, q('page=2'))) as ApiError;
    expect(error.status).toBe(400);
    expect(error.errors[0]!.message).toContain('pages by cursor');
  });

  it('reports every wrong parameter at once', () => {
    const entries = rejection('page=0&per_page=500&year=x&sort=nope');
    expect(entries.map((e) => e.code).sort()).toEqual([40005, 40005, 40014, 40015]);
  });

  it('honours per-route sizes', () => {
    const small = createList({ name: 'books', defaultPerPage: 5, maxPerPage: 10 });
    expect(readList(small, q('')).limit).toBe(5);
    expect(
      (thrown(() => readList(small, q('per_page=11'))) as ApiError).errors[0]!.message,
    ).toContain('1 to 10');
  });
});

describe('readList: filters, q, sort, unknown parameters (spec 4.4)', () => {
  it('reads each filter by its type', () => {
    expect(
      read('authorId=jane-austen&year=-12&rating=4.5&inPrint=false&since=2026-01-01T00:00:00Z')
        .filters,
    ).toEqual({
      authorId: 'jane-austen',
      year: -12,
      rating: 4.5,
      inPrint: false,
      since: new Date('2026-01-01T00:00:00Z'),
    });
  });

  it.each([
    ['year=abc', 'year'],
    ['year=1.5', 'year'],
    ['year=', 'year'],
    ['rating=NaN', 'rating'],
    ['inPrint=yes', 'inPrint'],
    ['since=2026-02-30T00:00:00Z', 'since'],
    ['since=yesterday', 'since'],
  ])('answers %s with 400 naming the filter (40014)', (query, name) => {
    const [entry] = rejection(query);
    expect(entry).toMatchObject({ code: 40014 });
    expect(entry!.message).toContain(`"${name}"`);
  });

  it.each([
    [
      'sort=title',
      [
        { field: 'title', descending: false },
        { field: 'id', descending: false },
      ],
    ],
    [
      'sort=-year,title',
      [
        { field: 'year', descending: true },
        { field: 'title', descending: false },
        { field: 'id', descending: false },
      ],
    ],
    ['sort=-id', [{ field: 'id', descending: true }]],
    ['', [{ field: 'id', descending: false }]],
  ])('reads %s with the key ending the order', (query, sort) => {
    expect(read(query).sort).toEqual(sort);
  });

  it.each(['sort=pages', 'sort=', 'sort=-', 'sort=title,,year', 'sort=--year'])(
    'answers %s with 400 naming the field (40015)',
    (query) => {
      expect(rejection(query)[0]).toMatchObject({ code: 40015 });
    },
  );

  it('keeps q as given and bounds its length', () => {
    expect(read('q=Karamazov').search).toBe('Karamazov');
    expect(read('q=').search).toBeUndefined();
    expect(rejection(`q=${'x'.repeat(201)}`)[0]!.message).toContain('"q"');
  });

  it("answers an undeclared parameter with 400 naming it (40013) under 'reject', or ignores it when asked", () => {
    const strict = createList({ ...books, unknownParameters: 'reject' });
    const [entry] = (thrown(() => readList(strict, q('colour=red'))) as ApiError).errors;
    expect(entry).toMatchObject({ code: 40013 });
    expect(entry!.message).toContain('"colour"');
    const lenient = createList({ ...books, unknownParameters: 'ignore' });
    expect(readList(lenient, q('colour=red&per_pgae=2')).style).toBe('page');
  });

  it("lets cache-busters and tracking parameters through by default ('typos'), and refuses likely misspellings naming the one meant", () => {
    expect(read('_=1700000000&utm_source=news&colour=red').style).toBe('page');
    for (const [query, meant] of [
      ['per_pgae=2', 'per_page'],
      ['perPage=2', 'per_page'],
      ['pgae=2', 'page'],
      ['sortt=title', 'sort'],
    ] as const) {
      const [entry] = rejection(query);
      expect(entry, query).toMatchObject({ code: 40013 });
      expect(entry!.message).toContain(`did you mean "${meant}"`);
    }
  });

  it('accepts names matching a `prefix*` pattern of `parameters` even under reject', () => {
    const strict = createList({
      ...books,
      unknownParameters: 'reject',
      parameters: ['utm_*', '_'],
    });
    expect(readList(strict, q('utm_campaign=x&_=1')).style).toBe('page');
    expect(() => readList(strict, q('utx=1'))).toThrow();
  });

  it('reads total only when the route lets the request ask for it', () => {
    expect(read('total=true').total).toBe(true);
    expect(read('').total).toBe(false);
    const never = createList({ name: 'books' });
    expect((thrown(() => readList(never, q('total=true'))) as ApiError).errors[0]!.code).toBe(
      40013,
    );
    expect(readList(createList({ name: 'books', total: true }), q('')).total).toBe(true);
  });
});

describe('createList: options checked at start-up', () => {
  it.each([
    [{ name: 'books', maxPerPage: 0 }, 'maxPerPage'],
    [{ name: 'books', defaultPerPage: 200 }, 'defaultPerPage'],
    [{ name: 'books', styles: ['pages'] }, 'styles'],
    [{ name: 'books', filters: { year: 'int' } }, 'filter "year"'],
    [{ name: 'books', filters: { page: 'integer' } }, 'shadow'],
    [{ name: 'books', defaultSort: 'year' }, 'defaultSort'],
    [{ name: 'books', maxPerPag: 5 }, 'Did you mean `maxPerPage`'],
    [{ name: 'Books!' }, '`name`'],
    [{ name: 'books', cursorSecret: 'short' }, 'cursorSecret'],
  ])('refuses %j with a TypeError that says how to fix it', (options, words) => {
    expect(() => createList(options as ListOptions)).toThrow(TypeError);
    expect(() => createList(options as ListOptions)).toThrow(words);
  });
});

describe('ListQuery.pageArray', () => {
  const items = Array.from({ length: 7 }, (_, i) => ({
    id: `b${i}`,
    title: `T${i % 3}`,
    year: 2000 + (i % 2),
  }));
  const ids = (query: string) =>
    readList(spec, q(query))
      .pageArray(items)
      .items.map((b) => b.id);

  it('pages in each style', () => {
    expect(ids('per_page=3&page=2')).toEqual(['b3', 'b4', 'b5']);
    expect(ids('limit=3&offset=5')).toEqual(['b5', 'b6']);
    expect(ids('after=b2&limit=2')).toEqual(['b3', 'b4']);
    expect(ids('before=b2&limit=5')).toEqual(['b0', 'b1']);
    expect(ids('sort=-year,title&limit=3')).toEqual(['b3', 'b1', 'b5']);
  });

  it('never reorders the array it pages, in order or not', () => {
    const shuffled = [items[4]!, items[0]!, items[6]!, items[2]!, items[1]!, items[5]!, items[3]!];
    const before = shuffled.map((b) => b.id);
    const page = readList(spec, q('per_page=3')).pageArray(shuffled);
    expect(page.items.map((b) => b.id)).toEqual(['b0', 'b1', 'b2']);
    expect(shuffled.map((b) => b.id)).toEqual(before);
    const sorted = readList(spec, q('sort=-year,title&limit=3')).pageArray(shuffled);
    expect(sorted.items.map((b) => b.id)).toEqual(['b3', 'b1', 'b5']);
    expect(shuffled.map((b) => b.id)).toEqual(before);
  });

  it('continues after a last-seen identifier under any sort', () => {
    // sort=title: T0 (b0, b3, b6), T1 (b1, b4), T2 (b2, b5)
    expect(ids('sort=title&after=b3&limit=3')).toEqual(['b6', 'b1', 'b4']);
  });

  it('answers an identifier the list does not have with 400', () => {
    expect((thrown(() => ids('after=nope')) as ApiError).errors[0]!.message).toContain('"after"');
  });

  it('tells hasNext and total', () => {
    const page = readList(spec, q('per_page=3&page=3&total=true')).pageArray(items);
    expect(page.envelope()).toEqual({ books: [items[6]], hasNext: false, total: 7 });
    expect(readList(spec, q('per_page=3')).pageArray(items).toJSON()).toMatchObject({
      hasNext: true,
    });
  });
});

describe('readList: a cursor-only list', () => {
  it('reads a size alone as the first page in the cursor style', () => {
    const only = createList({ name: 'books', styles: ['cursor'] });
    expect(readList(only, q('per_page=5'))).toMatchObject({ style: 'cursor', limit: 5 });
    expect(readList(only, q('limit=5'))).toMatchObject({ style: 'cursor', limit: 5 });
  });
});
