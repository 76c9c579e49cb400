import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix } from './_matrix.ts';

const quiet = { logger: { error() {}, warn() {} } };
const json = { 'content-type': 'application/json' };
const rfc3339 = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describeMatrix(
  'shaping /v1/books: fields, views, links',
  () => createBookshelf(quiet),
  (served) => {
    it('selects fields of each list item while the envelope keys stay (spec 2.10)', async () => {
      const res = await served.fetch('/v1/books?fields=id,title&per_page=2');
      expect(await res.json()).toEqual({
        books: [
          { id: 'pride-and-prejudice', title: 'Pride and Prejudice' },
          { id: 'sense-and-sensibility', title: 'Sense and Sensibility' },
        ],
        hasNext: true,
      });
    });

    it('selects nested fields of a single resource: fields=id,author(name) (spec 2.10)', async () => {
      const res = await served.fetch('/v1/books/emma?fields=id,author(name)');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ id: 'emma', author: { name: 'Jane Austen' } });
    });

    it('answers unknown fields with one 400 naming each (spec 2.10, 7.1.4)', async () => {
      const res = await served.fetch('/v1/books/emma?fields=id,price,author(email)');
      expect(res.status).toBe(400);
      const { errors } = await res.json();
      expect(errors.map((e: { code: number }) => e.code)).toEqual([40012, 40012]);
      expect(errors[0].message).toContain('"price"');
      expect(errors[1].message).toContain('"author.email"');
    });

    it('answers a malformed fields value with 400 (40017)', async () => {
      const res = await served.fetch('/v1/books?fields=id,author(');
      expect(res.status).toBe(400);
      expect((await res.json()).errors[0].code).toBe(40017);
    });

    it('gives the response groups small < medium < large (spec 2.10)', async () => {
      const keys = async (view: string) =>
        Object.keys(await (await served.fetch(`/v1/books/emma?view=${view}`)).json());
      const small = await keys('small');
      const medium = await keys('medium');
      const large = await keys('large');
      expect(small).toEqual(['id', 'title']);
      expect(medium).toEqual(['id', 'title', 'authorId', 'year', 'links']);
      expect(large).toEqual(
        expect.arrayContaining([...medium, 'author', 'createdAt', 'updatedAt']),
      );
      expect(large.length).toBeGreaterThan(medium.length);
      expect(await keys('large')).toEqual(
        Object.keys(await (await served.fetch('/v1/books/emma')).json()),
      );
    });

    it('selects fields within a view; a field outside it is a 400 naming both', async () => {
      const inside = await served.fetch('/v1/books?view=medium&fields=year&per_page=1');
      expect(await inside.json()).toEqual({ books: [{ year: 1813 }], hasNext: true });
      const outside = await served.fetch('/v1/books?view=small&fields=year');
      expect(outside.status).toBe(400);
      const { errors } = await outside.json();
      expect(errors[0].code).toBe(40012);
      expect(errors[0].message).toContain('"year"');
      expect(errors[0].message).toContain('"small"');
    });

    it('answers an unknown view with 400 naming the views (40016)', async () => {
      const res = await served.fetch('/v1/books?view=huge');
      expect(res.status).toBe(400);
      const { errors } = await res.json();
      expect(errors[0].code).toBe(40016);
      expect(errors[0].message).toContain('small, medium, large');
    });

    it('shapes the 201 of a POST, and a bad fields value creates nothing', async () => {
      const bad = await served.fetch('/v1/books?fields=nope', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ title: 'Kindred', authorId: 'octavia-butler', year: 1979 }),
      });
      expect(bad.status).toBe(400);
      expect((await served.fetch('/v1/books/kindred')).status).toBe(404);
      const res = await served.fetch('/v1/books?fields=id,author', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ title: 'Kindred', authorId: 'octavia-butler', year: 1979 }),
      });
      expect(res.status).toBe(201);
      expect(await res.json()).toEqual({
        id: 'kindred',
        author: { id: 'octavia-butler', name: 'Octavia Butler' },
      });
    });

    it('carries links per item for exactly the operations the caller may perform (spec 2.12)', async () => {
      // alice's token holds books:write, bob's only books:read.
      const rels = async (user: 'alice' | 'bob', path: string) => {
        const body = await (await served.fetchAs(user, path)).json();
        const items = body.books ?? [body];
        return items.map((b: { links: { rel: string }[] }) => b.links.map((l) => l.rel));
      };
      const writer = ['self', 'update', 'delete'];
      expect(await rels('alice', '/v1/books/emma')).toEqual([writer]);
      expect(await rels('alice', '/v1/books?per_page=3')).toEqual([writer, writer, writer]);
      expect(await rels('bob', '/v1/books/emma')).toEqual([['self']]);
      expect(await rels('bob', '/v1/books?per_page=2')).toEqual([['self'], ['self']]);
      const book = await (await served.fetch('/v1/books/emma')).json();
      expect(book.links[0]).toEqual({ rel: 'self', method: 'GET', href: '/v1/books/emma' });
    });

    it('writes Date values as RFC 3339 in lists and resources (spec 2.6)', async () => {
      const { books } = await (
        await served.fetch('/v1/books?fields=createdAt,updatedAt&per_page=5')
      ).json();
      for (const book of books) {
        expect(book.createdAt).toMatch(rfc3339);
        expect(book.updatedAt).toMatch(rfc3339);
      }
    });

    it('answers a query parameter the resource does not read with 400 naming it (40013)', async () => {
      const res = await served.fetch('/v1/books/emma?colour=red');
      expect(res.status).toBe(400);
      const { errors } = await res.json();
      expect(errors[0]).toMatchObject({ code: 40013 });
      expect(errors[0].message).toContain('"colour"');
    });
  },
);
