import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pageTarget } from '../../src/core/paging/link-header.ts';
import { pagingParameters } from '../../src/core/paging/list-options.ts';
import { parsePageParams } from '../../src/core/paging/page-params.ts';
import { ApiError, createPaging, listOf, type PageOptions } from '../../src/index.ts';
import { thrown } from './_thrown.ts';

const q = (query: string) => new URLSearchParams(query);

describe('parsePageParams (spec 4.4)', () => {
  it.each([
    ['', {}, { page: 1, perPage: 20, offset: 0 }],
    ['page=1', {}, { page: 1, perPage: 20, offset: 0 }],
    ['page=3', {}, { page: 3, perPage: 20, offset: 40 }],
    ['page=3&per_page=10', {}, { page: 3, perPage: 10, offset: 20 }],
    ['per_page=1', {}, { page: 1, perPage: 1, offset: 0 }],
    ['per_page=100', {}, { page: 1, perPage: 100, offset: 0 }],
    ['page=007&per_page=05', {}, { page: 7, perPage: 5, offset: 30 }],
    [
      'page=999999999&per_page=100',
      {},
      { page: 999_999_999, perPage: 100, offset: 99_999_999_800 },
    ],
    ['q=dune&year=1965', {}, { page: 1, perPage: 20, offset: 0 }],
    ['', { defaultPerPage: 50 }, { page: 1, perPage: 50, offset: 0 }],
    ['per_page=150', { maxPerPage: 200 }, { page: 1, perPage: 150, offset: 0 }],
    ['page=2', { defaultPerPage: 5, maxPerPage: 10 }, { page: 2, perPage: 5, offset: 5 }],
  ] as [string, PageOptions, object][])(
    'reads "%s" with %j as %j (default 20, maximum 100)',
    (query, options, expected) => {
      expect(parsePageParams(q(query), options)).toEqual(expected);
    },
  );

  it.each([
    ['per_page', '0', 100, {}],
    ['per_page', '101', 100, {}],
    ['per_page', '201', 200, { maxPerPage: 200 }],
    ['per_page', '11', 10, { maxPerPage: 10 }],
  ] as [string, string, number, PageOptions][])(
    'answers %s=%s out of bounds with 400 code 40005 naming the parameter and its bounds',
    (name, raw, max, options) => {
      const error = thrown(() => parsePageParams(q(`${name}=${raw}`), options));
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        status: 400,
        code: 40005,
        message: `The query parameter "${name}" must be an integer from 1 to ${max}; got "${raw}".`,
      });
    },
  );

  it.each([
    '0',
    '1.5',
    '-1',
    'abc',
    '1e3',
    '',
    ' 1',
    '+1',
    '0x10',
    '1,000',
    '1000000000',
    'Infinity',
    '2 ',
  ])('answers page=%j, not a whole number from 1, with 400 code 40005 (spec 7.1.4)', (raw) => {
    expect(thrown(() => parsePageParams(q(`page=${encodeURIComponent(raw)}`)))).toMatchObject({
      status: 400,
      code: 40005,
      message: `The query parameter "page" must be an integer from 1 to 999999999; got "${raw}".`,
    });
  });

  it.each(['1.5', '-1', 'abc', '1e3', ''])('answers per_page=%j with 400 code 40005', (raw) => {
    expect(thrown(() => parsePageParams(q(`per_page=${raw}`)))).toMatchObject({
      status: 400,
      code: 40005,
      message: `The query parameter "per_page" must be an integer from 1 to 100; got "${raw}".`,
    });
  });

  it('reads the first of a repeated parameter', () => {
    expect(parsePageParams(q('page=2&page=9'))).toEqual({ page: 2, perPage: 20, offset: 20 });
  });
});

describe('createPaging (spec 4.4)', () => {
  it('reads page and per_page with the options it was created with', () => {
    const paging = createPaging({ defaultPerPage: 5, maxPerPage: 10 });
    expect(paging.parse(q('page=3'))).toEqual({ page: 3, perPage: 5, offset: 10 });
    expect(paging.parse(q('per_page=10'))).toEqual({ page: 1, perPage: 10, offset: 0 });
    expect(thrown(() => paging.parse(q('per_page=11')))).toMatchObject({
      status: 400,
      code: 40005,
      message: 'The query parameter "per_page" must be an integer from 1 to 10; got "11".',
    });
  });

  it.each([
    [{}, 20, 100],
    [{ maxPerPage: 10 }, 10, 10],
    [{ defaultPerPage: 50 }, 50, 100],
  ] as [PageOptions, number, number][])(
    'resolves %j to defaultPerPage %i and maxPerPage %i',
    (options, defaultPerPage, maxPerPage) => {
      expect(createPaging(options)).toMatchObject({ defaultPerPage, maxPerPage });
    },
  );

  it('regression: page=abc&per_page=-1 reports both problems in one 400, not only the first', () => {
    const error = thrown(() => createPaging().parse(q('page=abc&per_page=-1')));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 400,
      code: 40005,
      errors: [
        {
          message: 'The query parameter "page" must be an integer from 1 to 999999999; got "abc".',
          code: 40005,
        },
        {
          message: 'The query parameter "per_page" must be an integer from 1 to 100; got "-1".',
          code: 40005,
        },
      ],
    });
  });

  it('reports both problems through parsePageParams too', () => {
    const error = thrown(() => parsePageParams(q('per_page=0&page=0'), { maxPerPage: 50 }));
    expect((error as ApiError).errors.map((e) => e.message)).toEqual([
      'The query parameter "page" must be an integer from 1 to 999999999; got "0".',
      'The query parameter "per_page" must be an integer from 1 to 50; got "0".',
    ]);
  });

  it('reports one problem as a body of one entry', () => {
    expect(thrown(() => createPaging().parse(q('page=2&per_page=abc')))).toMatchObject({
      errors: [
        {
          message: 'The query parameter "per_page" must be an integer from 1 to 100; got "abc".',
          code: 40005,
        },
      ],
    });
  });

  it.each([
    [{ maxPerPage: 0 }, 'maxPerPage must be a whole number from 1 to 999999999; got 0.'],
    [{ maxPerPage: 2.5 }, 'maxPerPage must be a whole number from 1 to 999999999; got 2.5.'],
    [
      { maxPerPage: 1e10 },
      'maxPerPage must be a whole number from 1 to 999999999; got 10000000000.',
    ],
    [
      { defaultPerPage: 0 },
      'defaultPerPage must be a whole number from 1 to maxPerPage (100); got 0.',
    ],
    [
      { defaultPerPage: 30, maxPerPage: 25 },
      'defaultPerPage must be a whole number from 1 to maxPerPage (25); got 30.',
    ],
    [{ maxPerpage: 50 }, 'Paging options: unknown option `maxPerpage`. Did you mean `maxPerPage`?'],
  ])('refuses the options %j with a TypeError at creation', (options, message) => {
    expect(() => createPaging(options as PageOptions)).toThrow(new TypeError(message));
  });
});

describe('listOf (spec 2.7, 2.8)', () => {
  const books = [{ id: 'dune' }, { id: 'emma' }];

  it('wraps a list in an object named after the resource, with hasNext and no total', () => {
    const list = listOf('books', books, { hasNext: true });
    expect(list).toEqual({ books, hasNext: true });
    expect(Object.hasOwn(list, 'total')).toBe(false);
    expect(JSON.stringify(list)).toBe('{"books":[{"id":"dune"},{"id":"emma"}],"hasNext":true}');
  });

  it.each([0, 2, 60])('adds total %i only when given (spec 2.8)', (total) => {
    expect(JSON.stringify(listOf('books', books, { hasNext: false, total }))).toBe(
      `{"books":[{"id":"dune"},{"id":"emma"}],"hasNext":false,"total":${total}}`,
    );
  });

  it('wraps an empty list too: never a bare array (spec 2.7)', () => {
    expect(listOf('authors', [], { hasNext: false })).toEqual({ authors: [], hasNext: false });
  });

  it('keeps the items array as given', () => {
    expect(listOf('books', books, { hasNext: false }).books).toBe(books);
  });
});

describe('pageTarget: the Link header targets (RFC 8288 §3.1, spec 4.4)', () => {
  // What the targets were before the shortcut for plain queries: always through URLSearchParams.
  const reference = (path: string, rawQuery: string, paging: Record<string, string>) => {
    const query = new URLSearchParams(rawQuery);
    for (const name of pagingParameters) query.delete(name);
    for (const [name, value] of Object.entries(paging)) query.set(name, value);
    const text = query.toString();
    return text === '' ? path : `${path}?${text}`;
  };

  it('keeps the other parameters as they came and puts the paging ones last', () => {
    expect(
      pageTarget('/v1/books', 'per_page=20&year=1813&page=1', { page: '2', per_page: '20' }),
    ).toBe('/v1/books?year=1813&page=2&per_page=20');
    expect(pageTarget('/v1/books', 'q=a+b&page=1', { page: '2' })).toBe('/v1/books?q=a+b&page=2');
    expect(pageTarget('/v1/books', 'flag&&a=b=c', { after: 'x~y' })).toBe(
      '/v1/books?flag=&a=b%3Dc&after=x%7Ey',
    );
    expect(pageTarget('/v1/books', '', { page: '2' })).toBe('/v1/books?page=2');
  });

  it('writes what URLSearchParams writes, for any query and paging values (property)', () => {
    const piece = fc.stringMatching(/^[a-z_=&%+.*~ 2-9A-F-]{0,6}$/);
    const name = fc.constantFrom(...pagingParameters, 'sort', 'q', '');
    const query = fc
      .array(
        fc.oneof(
          fc.tuple(name, piece).map(([n, v]) => `${n}=${v}`),
          piece,
        ),
        { maxLength: 6 },
      )
      .map((parts) => parts.join('&'));
    const paging = fc.dictionary(
      fc.constantFrom(...pagingParameters, 'sort'),
      fc.oneof(fc.stringMatching(/^[0-9]{1,3}$/), piece),
      { maxKeys: 3 },
    );
    fc.assert(
      fc.property(query, paging, (q, p) => {
        expect(pageTarget('/v1/books', q, p)).toBe(reference('/v1/books', q, p));
      }),
      { numRuns: 2000 },
    );
  });
});
