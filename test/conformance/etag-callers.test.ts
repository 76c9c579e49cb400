/**
 * A strong ETag changes whenever the representation does (RFC 9110 §8.8.3), the links a caller
 * may follow included: alice (books:write) sees update and delete links on a book, bob
 * (books:read) does not, so their tags differ, even where a route's `resourceVersion` answers
 * 304 before any link is built.
 */
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix, type Served } from './_matrix.ts';

const quiet = { logger: { error() {}, warn() {} } };
const rels = (body: { links?: { rel: string }[] }) => (body.links ?? []).map((l) => l.rel).sort();

async function read(served: Served, user: 'alice' | 'bob', path: string, tag?: string) {
  const res = await served.fetchAs(user, path, tag ? { headers: { 'if-none-match': tag } } : {});
  const text = await res.text();
  return { status: res.status, etag: res.headers.get('etag'), body: text ? JSON.parse(text) : {} };
}

describeMatrix(
  'ETags per caller',
  () => createBookshelf(quiet),
  (served) => {
    it("answers bob's If-None-Match with alice's tag of a book with 200 and his own body (RFC 9110 §8.8.3, §13.1.2)", async () => {
      const alice = await read(served, 'alice', '/v1/books/emma');
      const bob = await read(served, 'bob', '/v1/books/emma');
      expect(rels(alice.body)).toEqual(['delete', 'self', 'update']);
      expect(rels(bob.body)).toEqual(['self']);
      expect(alice.etag).toMatch(/^"/);
      expect(bob.etag).toMatch(/^"/);
      expect(bob.etag).not.toBe(alice.etag);

      const stale = await read(served, 'bob', '/v1/books/emma', alice.etag!);
      expect(stale.status).toBe(200);
      expect(rels(stale.body)).toEqual(['self']);
      expect(stale.etag).toBe(bob.etag);
    });

    it('answers each caller its own tag of a book with 304 (RFC 9110 §13.1.2)', async () => {
      for (const user of ['alice', 'bob'] as const) {
        const first = await read(served, user, '/v1/books/emma');
        const again = await read(served, user, '/v1/books/emma', first.etag!);
        expect(again.status, user).toBe(304);
        expect(again.etag).toBe(first.etag);
        // HEAD answers the same (RFC 9110 §9.3.2).
        const head = await served.fetchAs(user, '/v1/books/emma', {
          method: 'HEAD',
          headers: { 'if-none-match': first.etag! },
        });
        expect(head.status, user).toBe(304);
      }
    });

    it('tags the book list by its bytes: alice and bob get different tags (RFC 9110 §8.8.3)', async () => {
      const alice = await read(served, 'alice', '/v1/books?per_page=2');
      const bob = await read(served, 'bob', '/v1/books?per_page=2');
      expect(bob.etag).not.toBe(alice.etag);
      expect((await read(served, 'bob', '/v1/books?per_page=2', alice.etag!)).status).toBe(200);
      expect((await read(served, 'bob', '/v1/books?per_page=2', bob.etag!)).status).toBe(304);
    });

    it("gives a write the tag the writer's next GET has (RFC 9110 §8.8.3)", async () => {
      const book = { title: 'Persuasion', authorId: 'jane-austen', year: 1817 };
      const put = await served.fetch('/v1/books/persuasion-etag', {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(book),
      });
      expect(put.status).toBe(201);
      const tag = put.headers.get('etag')!;
      expect(tag).toMatch(/^"/);
      expect((await read(served, 'alice', '/v1/books/persuasion-etag', tag)).status).toBe(304);
      expect((await read(served, 'bob', '/v1/books/persuasion-etag', tag)).status).toBe(200);
    });
  },
);
