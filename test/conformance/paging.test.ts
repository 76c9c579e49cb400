import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { linkTargets } from './_links.ts';
import { describeMatrix, type Served } from './_matrix.ts';

const quiet = { logger: { error() {}, warn() {} } };
type Book = { id: string; year: number; title: string };
type Page = { books: Book[]; hasNext: boolean; total?: number };

async function page(served: Served, path: string) {
  const res = await served.fetch(path);
  expect(res.status).toBe(200);
  return { body: (await res.json()) as Page, links: linkTargets(res.headers.get('link')) };
}

/** Follows `next` links from `start` to the end; returns the ids in visiting order. */
async function walk(served: Served, start: string, rel: 'next' | 'prev' = 'next') {
  const ids: string[] = [];
  let path: string | undefined = start;
  for (let i = 0; path !== undefined && i < 100; i++) {
    const { body, links } = await page(served, path);
    ids.push(...(rel === 'next' ? body.books : [...body.books].reverse()).map((b) => b.id));
    if (rel === 'next') expect(body.hasNext).toBe(links.next !== undefined);
    path = links[rel];
  }
  return ids;
}

describeMatrix(
  'paging /v1/books',
  () => createBookshelf(quiet),
  (served) => {
    it.each([
      ['page and per_page', '/v1/books?per_page=7'],
      ['limit and offset', '/v1/books?limit=7'],
      ['after (cursor)', '/v1/books?after=&limit=7'],
      ['after, sorted by -year', '/v1/books?after=&limit=9&sort=-year'],
      ['page, sorted by title', '/v1/books?sort=title&per_page=11'],
    ])(
      'walks all 60 books exactly once by %s, following Link next (spec 4.4, RFC 8288)',
      async (_, start) => {
        const ids = await walk(served, start);
        expect(ids).toHaveLength(60);
        expect(new Set(ids).size).toBe(60);
      },
    );

    it('walks backwards with before and prev links, ending where it started', async () => {
      const forward = await walk(served, '/v1/books?after=&limit=8');
      // The last page, then prev links back to the start.
      const back = await walk(served, `/v1/books?after=${forward[51]}&limit=8`, 'prev');
      expect(back).toEqual([...forward].reverse());
    });

    it('continues after the last id of page 1 exactly where page 1 ended (spec 4.4)', async () => {
      const first = await page(served, '/v1/books?per_page=20');
      const second = await page(served, '/v1/books?page=2&per_page=20');
      const last = first.body.books.at(-1)!.id;
      const after = await page(served, `/v1/books?after=${last}&per_page=20`);
      expect(after.body.books.map((b) => b.id)).toEqual(second.body.books.map((b) => b.id));
    });

    it('builds Link from the request URL, keeping its other parameters', async () => {
      const { links } = await page(served, '/v1/books?year=1869&per_page=1&fields=id');
      expect(links.next).toBe('/v1/books?year=1869&fields=id&page=2&per_page=1');
      expect(links.prev).toBeUndefined();
      const second = await page(served, links.next!);
      expect(second.links.prev).toBe('/v1/books?year=1869&fields=id&page=1&per_page=1');
      expect(second.links.next).toBeUndefined();
      expect(second.body).toEqual({ books: [{ id: 'the-idiot' }], hasNext: false });
    });

    it('carries total only when the request asks for it (spec 2.8)', async () => {
      expect((await page(served, '/v1/books?authorId=mark-twain')).body.total).toBeUndefined();
      const counted = await page(served, '/v1/books?authorId=mark-twain&per_page=2&total=true');
      expect(counted.body).toMatchObject({ hasNext: true, total: 5 });
    });

    it.each([
      ['page=1&offset=20', 40010, '"page" and "offset"'],
      ['limit=5&after=emma&page=2', 40010, 'paging styles'],
      ['after=emma&before=emma', 40010, '"after" and "before"'],
      ['per_page=1&per_page=2', 40010, '"per_page" is given more than once'],
      ['limit=0', 40005, '"limit" must be an integer from 1 to 100'],
      ['offset=-1', 40005, '"offset" must be an integer from 0 to'],
      ['per_page=1e2', 40005, '"per_page"'],
      ['after=nope', 40005, '"after"'],
      ['after=AAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA', 40011, 'cursor'],
    ])('answers %s with 400 naming the parameter (spec 7.1.4)', async (query, code, words) => {
      const res = await served.fetch(`/v1/books?${query}`);
      expect(res.status).toBe(400);
      const { errors } = await res.json();
      expect(errors[0].code).toBe(code);
      expect(errors[0].message).toContain(words);
    });

    it('answers an altered cursor with 400, never a wrong page (spec 4.4)', async () => {
      const { links } = await page(served, '/v1/books?after=&limit=3');
      const cursor = new URL(links.next!, 'http://x').searchParams.get('after')!;
      for (const i of [0, 5, cursor.length - 1]) {
        const altered = cursor.slice(0, i) + (cursor[i] === 'A' ? 'B' : 'A') + cursor.slice(i + 1);
        const res = await served.fetch(`/v1/books?after=${altered}&limit=3`);
        expect(res.status).toBe(400);
        expect((await res.json()).errors[0].code).toBe(40011);
      }
      const other = await served.fetch(`/v1/books?after=${cursor}&limit=3&sort=title`);
      expect(other.status).toBe(400);
      expect((await other.json()).errors[0].message).toContain('sort=');
    });
  },
);

describeMatrix(
  'filters, q and sort /v1/books',
  () => createBookshelf(quiet),
  (served) => {
    it('filters exactly by authorId and year together (spec 4.4)', async () => {
      const { body } = await page(served, '/v1/books?authorId=leo-tolstoy&year=1869');
      expect(body.books.map((b) => b.id)).toEqual(['war-and-peace']);
    });

    it('searches titles with q, partially and case-insensitively (spec 4.4)', async () => {
      const { body } = await page(served, '/v1/books?q=the%20m&fields=id');
      expect(body.books.map((b) => b.id).sort()).toEqual([
        'far-from-the-madding-crowd',
        'from-the-earth-to-the-moon',
        'life-on-the-mississippi',
        'the-mayor-of-casterbridge',
        'the-mill-on-the-floss',
        'the-mysterious-island',
      ]);
    });

    it('sorts by a field list with - for descending', async () => {
      const { body } = await page(served, '/v1/books?sort=-year,title&per_page=3&fields=id,year');
      expect(body.books).toEqual([
        { id: 'the-complete-poems', year: 1941 },
        { id: 'gondal-poems', year: 1938 },
        { id: 'the-waves', year: 1931 },
      ]);
    });

    it.each([
      ['year=abc', 40014, '"year"'],
      ['year=1869.5', 40014, '"year"'],
      ['sort=price', 40015, '"price"'],
      ['colour=red', 40013, '"colour"'],
      [`q=${'x'.repeat(201)}`, 40005, '"q"'],
    ])('answers %s with 400 naming it', async (query, code, words) => {
      const res = await served.fetch(`/v1/books?${query}`);
      expect(res.status).toBe(400);
      const { errors } = await res.json();
      expect(errors[0]).toMatchObject({ code });
      expect(errors[0].message).toContain(words);
    });
  },
);
