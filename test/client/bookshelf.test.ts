/**
 * api-conventions/client against the bookshelf on every host, through a counting proxy of the
 * tests' own: paging in each style, cached revalidation, error bodies, If-Match, deprecation
 * notices and OAuth refresh, all over real HTTP.
 */
import { createClient, isApiResponseError } from 'api-conventions/client';
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix } from '../conformance/_matrix.ts';
import { alice } from './_credentials.ts';
import { proxyFor } from './_proxy.ts';

type Book = { id: string; title?: string; year?: number };

describeMatrix(
  'the client against the bookshelf',
  () => createBookshelf({ logger: { error() {}, warn() {} } }),
  (served) => {
    const proxy = proxyFor(served);
    const client = () => createClient({ baseUrl: proxy.url, oauth: alice });

    /** Every book id, read in one page. */
    const allIds = async () => {
      const res = await served.fetch('/v1/books?per_page=100&fields=id');
      return ((await res.json()) as { books: Book[] }).books.map((b) => b.id);
    };

    for (const [label, options] of [
      ['page and per_page', { style: 'page', size: 7 }],
      ['limit and offset', { style: 'offset', size: 7 }],
      ['a keyset cursor from Link', { style: 'cursor', size: 7 }],
      ['a keyset cursor from the envelope', { style: 'cursor', size: 7, links: false }],
    ] as const) {
      it(`paginate yields every book exactly once with ${label} (spec 2.8, 4.4)`, async () => {
        const ids: string[] = [];
        for await (const book of client().paginate<Book>('/v1/books', {
          ...options,
          fields: ['id'],
        })) {
          ids.push(book.id);
        }
        const expected = await allIds();
        expect(expected).toHaveLength(60);
        expect(ids).toEqual(expected);
      });
    }

    it('paginate stops at its page and item caps', async () => {
      const c = client();
      const pages: string[] = [];
      for await (const book of c.paginate<Book>('/v1/books', { size: 5, maxPages: 2 })) {
        pages.push(book.id);
      }
      expect(pages).toHaveLength(10);
      const items: string[] = [];
      for await (const book of c.paginate<Book>('/v1/books', { size: 5, maxItems: 7 })) {
        items.push(book.id);
      }
      expect(items).toHaveLength(7);
    });

    it('answers a repeated GET from its cache after a 304 (RFC 9110 §13.1.2, §15.4.5)', async () => {
      const c = client();
      const first = await c.raw.get<Book>('/v1/books/:id', { params: { id: 'emma' } });
      const from = proxy.seen.length;
      const again = await c.raw.get<Book>('/v1/books/:id', { params: { id: 'emma' } });
      const exchanges = proxy.since(from, (s) => s.target === '/v1/books/emma');
      expect(exchanges).toHaveLength(1);
      expect(exchanges[0]?.headers['if-none-match']).toBe(first.headers.get('etag'));
      expect(exchanges[0]?.status).toBe(304);
      expect(again.cached).toBe(true);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      expect(again.body.title).toBe('Emma');
    });

    it('rejects a missing book with 404 and an integer code (spec 7.1.5)', async () => {
      const error = await client()
        .get('/v1/books/:id', { params: { id: 'no-such-book' } })
        .catch((e: unknown) => e);
      expect(isApiResponseError(error)).toBe(true);
      if (!isApiResponseError(error)) return;
      expect(error.status).toBe(404);
      expect(Number.isInteger(error.code)).toBe(true);
      expect(Math.floor(error.code / 100)).toBe(404);
      expect(error.errors[0]?.message).toContain('no-such-book');
      expect(error.headers.get('content-type')).toMatch(/json/);
    });

    it('rejects a write after a concurrent change with 412 (RFC 9110 §13.1.1, spec 4.7)', async () => {
      const c = client();
      const book = await c.get<Book>('/v1/books/:id', { params: { id: 'persuasion' } });
      expect(book.year).toBe(1817);
      // Someone else changes the book after our read.
      const other = await served.fetch('/v1/books/persuasion', {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ pages: 250 }),
      });
      expect(other.status).toBe(200);
      const from = proxy.seen.length;
      const error = await c
        .patch('/v1/books/:id', { params: { id: 'persuasion' }, body: { year: 1818 } })
        .catch((e: unknown) => e);
      expect(proxy.since(from)[0]?.headers['if-match']).toBeDefined();
      expect(isApiResponseError(error) && error.status).toBe(412);
      expect(isApiResponseError(error) && error.changed).toBe(true);
      expect(String((error as Error).message)).toMatch(/changed since it was read/);
      // Read again, then the write goes through with the new tag.
      await c.get('/v1/books/:id', { params: { id: 'persuasion' } });
      const changed = await c.patch<Book>('/v1/books/:id', {
        params: { id: 'persuasion' },
        body: { year: 1818 },
      });
      expect(changed.year).toBe(1818);
    });

    it('calls onDeprecation once per deprecated endpoint (spec 9.8, RFC 9745, RFC 8594)', async () => {
      const notices: { method: string; path: string; sunset?: Date; successor?: string }[] = [];
      const c = createClient({
        baseUrl: proxy.url,
        oauth: alice,
        onDeprecation: (notice) => notices.push(notice),
      });
      await c.get('/v1/authors');
      await c.get('/v1/authors');
      await c.get('/v1/authors/:id', { params: { id: 'jane-austen' } });
      await c.get('/v1/authors/:id', { params: { id: 'mary-shelley' } });
      await c.get('/v2/authors');
      expect(notices.map((n) => `${n.method} ${n.path}`)).toEqual([
        'GET /v1/authors',
        'GET /v1/authors/:id',
      ]);
      expect(notices[0]?.sunset?.toISOString()).toBe('2030-06-30T00:00:00.000Z');
      expect(notices[0]?.successor).toBe(`${proxy.url}/v2/authors`);
    });

    it('finds the token endpoint in the RFC 8414 metadata when tokenUrl is left out', async () => {
      const { tokenUrl: _, ...withoutUrl } = alice;
      const c = createClient({ baseUrl: served.url(''), oauth: withoutUrl });
      expect((await c.get<{ id: string }>('/v1/me')).id).toBe('alice');
    });
  },
);
