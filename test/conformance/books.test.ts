import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix } from './_matrix.ts';

const quiet = { logger: { error() {}, warn() {} } };
const json = { 'content-type': 'application/json' };
const dune = { title: 'Dune', authorId: 'frank-herbert', year: 1965 };

describeMatrix(
  'bookshelf /v1/books',
  () => createBookshelf(quiet),
  (served) => {
    it('wraps the list in an object with hasNext, never a bare array (spec 2.7, 2.8)', async () => {
      const res = await served.fetch('/v1/books');
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(Array.isArray(body)).toBe(false);
      expect(body.books).toHaveLength(20);
      expect(body.hasNext).toBe(true);
      expect(body.books[0]).toMatchObject({
        id: 'pride-and-prejudice',
        authorId: 'jane-austen',
        year: 1813,
      });
    });

    it('pages with page and per_page and ends with hasNext false (spec 4.4)', async () => {
      const last = await (await served.fetch('/v1/books?page=3&per_page=20')).json();
      expect(last.books).toHaveLength(20);
      expect(last.hasNext).toBe(false);
      const beyond = await (await served.fetch('/v1/books?page=4&per_page=20')).json();
      expect(beyond).toEqual({ books: [], hasNext: false });
    });

    it.each([
      ['per_page=0', 'per_page', '1 to 100'],
      ['per_page=101', 'per_page', '1 to 100'],
      ['page=0', 'page', '1 to'],
      ['page=abc', 'page', '1 to'],
    ])(
      'answers %s with 400 naming the parameter and its bounds (spec 7.1.4)',
      async (query, name, bounds) => {
        const res = await served.fetch(`/v1/books?${query}`);
        expect(res.status).toBe(400);
        const { errors } = await res.json();
        expect(errors).toHaveLength(1);
        expect(errors[0].code).toBe(40005);
        expect(errors[0].message).toContain(`"${name}"`);
        expect(errors[0].message).toContain(bounds);
      },
    );

    it('filters exactly by a field name and searches titles with q (spec 4.4)', async () => {
      const byAuthor = await (await served.fetch('/v1/books?authorId=jane-austen')).json();
      expect(byAuthor.books.map((b: { id: string }) => b.id)).toEqual([
        'pride-and-prejudice',
        'sense-and-sensibility',
        'emma',
        'persuasion',
        'mansfield-park',
      ]);
      const byYear = await (await served.fetch('/v1/books?year=1869')).json();
      expect(byYear.books.map((b: { id: string }) => b.id).sort()).toEqual([
        'the-idiot',
        'war-and-peace',
      ]);
      const search = await (await served.fetch('/v1/books?q=KARAMAZOV')).json();
      expect(search.books.map((b: { id: string }) => b.id)).toEqual(['the-brothers-karamazov']);
    });

    it('serializes dates as RFC 3339 (spec 2.6)', async () => {
      const book = await (await served.fetch('/v1/books/emma')).json();
      expect(book.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    });

    it('creates with POST: 201, Location and the created data (spec 4.3)', async () => {
      const res = await served.fetch('/v1/books', {
        method: 'POST',
        headers: json,
        body: JSON.stringify(dune),
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('location')).toBe('/v1/books/dune');
      const created = await res.json();
      expect(created).toMatchObject({ id: 'dune', ...dune });
      const fetched = await (await served.fetch('/v1/books/dune')).json();
      expect(fetched).toEqual(created);
    });

    it('accepts a vendor +json media type (spec 4.6, RFC 6839 §3.1)', async () => {
      const res = await served.fetch('/v1/books', {
        method: 'POST',
        headers: { 'content-type': 'application/vnd.bookshelf.book+json' },
        body: JSON.stringify({ ...dune, title: 'Dune Messiah', year: 1969 }),
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('location')).toBe('/v1/books/dune-messiah');
    });

    it('replaces with PUT: 200 and the changed data (spec 4.3)', async () => {
      const res = await served.fetch('/v1/books/emma', {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({ title: 'Emma', authorId: 'jane-austen', year: 1816, pages: 500 }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id: 'emma', year: 1816, pages: 500 });
    });

    it('creates at a client-named path with PUT: 201 and Location (spec 4.2)', async () => {
      const res = await served.fetch('/v1/books/the-left-hand-of-darkness', {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({
          title: 'The Left Hand of Darkness',
          authorId: 'ursula-le-guin',
          year: 1969,
        }),
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('location')).toBe('/v1/books/the-left-hand-of-darkness');
    });

    it('changes part with PATCH: 200 and the changed data (spec 4.3)', async () => {
      const res = await served.fetch('/v1/books/persuasion', {
        method: 'PATCH',
        headers: json,
        body: '{"pages":250}',
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ id: 'persuasion', title: 'Persuasion', pages: 250 });
    });

    it('deletes with DELETE: 204 and an empty body, then 404 (spec 4.3)', async () => {
      const res = await served.fetch('/v1/books/hard-times', { method: 'DELETE' });
      expect(res.status).toBe(204);
      expect(await res.text()).toBe('');
      expect(res.headers.get('content-type')).toBeNull();
      const again = await served.fetch('/v1/books/hard-times');
      expect(again.status).toBe(404);
      expect(await again.json()).toEqual({
        errors: [{ message: 'No book with id "hard-times".', code: 40400 }],
      });
    });
  },
);
