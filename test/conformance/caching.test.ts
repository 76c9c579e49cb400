import { caching, conventions, negotiation, noContent } from 'api-conventions';
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix } from './_matrix.ts';

const quiet = { logger: { error() {}, warn() {} } };
const json = { 'content-type': 'application/json' };
const book = { title: 'Dune', authorId: 'frank-herbert', year: 1965 };

describeMatrix(
  'caching headers and conditional requests (spec 4.7, RFC 9110 §13)',
  () => createBookshelf(quiet),
  (served) => {
    it('sends Date, Cache-Control and a strong ETag on a GET of a list (spec 4.7)', async () => {
      const res = await served.fetch('/v1/books');
      expect(res.status).toBe(200);
      expect(res.headers.get('date')).toMatch(
        /^[A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT$/,
      );
      expect(res.headers.get('cache-control')).toMatch(/no-cache/);
      expect(res.headers.get('etag')).toMatch(/^"[^"]+"$/);
    });

    it('sends no-store and Date on errors (spec 4.7)', async () => {
      const res = await served.fetch('/v1/books/no-such-book');
      expect(res.status).toBe(404);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('date')).not.toBeNull();
      const notAcceptable = await served.fetch('/v1/books', { headers: { accept: 'text/csv' } });
      expect(notAcceptable.headers.get('cache-control')).toBe('no-store');
    });

    for (const path of ['/v1/books?per_page=3', '/v1/books/middlemarch']) {
      it(`answers 304 with no body to the ETag, its weak form, a list holding it and * (${path}, RFC 9110 §13.1.2)`, async () => {
        const first = await served.fetch(path);
        const etag = first.headers.get('etag')!;
        expect(etag).toMatch(/^"/);
        for (const value of [etag, `W/${etag}`, `"other", ${etag}`, '*']) {
          const res = await served.fetch(path, { headers: { 'if-none-match': value } });
          expect(res.status).toBe(304);
          expect(await res.text()).toBe('');
          // RFC 9110 §15.4.5: the headers a 200 would have carried.
          expect(res.headers.get('etag')).toBe(etag);
          expect(res.headers.get('cache-control')).toBe(first.headers.get('cache-control'));
          expect(res.headers.get('vary')).toMatch(/Accept/);
          expect(res.headers.get('date')).not.toBeNull();
        }
        const other = await served.fetch(path, { headers: { 'if-none-match': '"other"' } });
        expect(other.status).toBe(200);
      });
    }

    it('answers If-Modified-Since with 304 only without If-None-Match (RFC 9110 §13.1.3)', async () => {
      const first = await served.fetch('/v1/books/middlemarch');
      const modified = first.headers.get('last-modified')!;
      expect(modified).toMatch(/GMT$/);
      const res = await served.fetch('/v1/books/middlemarch', {
        headers: { 'if-modified-since': modified },
      });
      expect(res.status).toBe(304);
      const both = await served.fetch('/v1/books/middlemarch', {
        headers: { 'if-modified-since': modified, 'if-none-match': '"other"' },
      });
      expect(both.status).toBe(200);
    });

    it('gives HEAD the validators of GET (RFC 9110 §9.3.2)', async () => {
      for (const path of ['/v1/books', '/v1/books/middlemarch']) {
        const get = await served.fetch(path);
        const head = await served.fetch(path, { method: 'HEAD' });
        expect(head.headers.get('etag')).toBe(get.headers.get('etag'));
        expect(head.headers.get('last-modified')).toBe(get.headers.get('last-modified'));
        expect(head.headers.get('cache-control')).toBe(get.headers.get('cache-control'));
      }
    });

    it('gives the JSON and the XML of one book different tags (RFC 9110 §8.8.3)', async () => {
      const jsonTag = (await served.fetch('/v1/books/middlemarch')).headers.get('etag');
      const xml = await served.fetch('/v1/books/middlemarch', {
        headers: { accept: 'application/xml' },
      });
      expect(xml.headers.get('etag')).not.toBe(jsonTag);
      const listJson = (await served.fetch('/v1/books')).headers.get('etag');
      const listXml = (await served.fetch('/v1/books?format=xml')).headers.get('etag');
      expect(listXml).not.toBe(listJson);
    });

    it('answers a stale If-Match with 412 and leaves the book unchanged (RFC 9110 §13.1.1)', async () => {
      const created = await served.fetch('/v1/books', {
        method: 'POST',
        headers: json,
        body: JSON.stringify(book),
      });
      const location = created.headers.get('location')!;
      const first = await served.fetch(location);
      const stale = first.headers.get('etag')!;
      const changed = await served.fetch(location, {
        method: 'PATCH',
        headers: { ...json, 'if-match': stale },
        body: JSON.stringify({ year: 1966 }),
      });
      expect(changed.status).toBe(200);
      const fresh = changed.headers.get('etag')!;
      expect(fresh).not.toBe(stale);
      for (const [method, body] of [
        ['PUT', { ...book, year: 2000 }],
        ['PATCH', { year: 2001 }],
        ['DELETE', undefined],
      ] as const) {
        const res = await served.fetch(location, {
          method,
          headers: { ...json, 'if-match': stale },
          ...(body ? { body: JSON.stringify(body) } : {}),
        });
        expect(res.status).toBe(412);
        expect((await res.json()).errors[0].code).toBe(41200);
        expect(res.headers.get('cache-control')).toBe('no-store');
      }
      const after = await served.fetch(location);
      expect((await after.json()).year).toBe(1966);
      expect(after.headers.get('etag')).toBe(fresh);
      const gone = await served.fetch(location, {
        method: 'DELETE',
        headers: { 'if-match': fresh },
      });
      expect(gone.status).toBe(204);
    });

    it('answers If-Unmodified-Since older than the book with 412 (RFC 9110 §13.1.4)', async () => {
      const res = await served.fetch('/v1/books/middlemarch', {
        method: 'PATCH',
        headers: { ...json, 'if-unmodified-since': 'Sun, 06 Nov 1994 08:49:37 GMT' },
        body: JSON.stringify({ pages: 881 }),
      });
      expect(res.status).toBe(412);
      expect((await (await served.fetch('/v1/books/middlemarch')).json()).pages).toBe(880);
    });

    it('answers If-None-Match: * on a PUT with 412 when the book exists, else creates it (RFC 9110 §13.1.2)', async () => {
      const exists = await served.fetch('/v1/books/middlemarch', {
        method: 'PUT',
        headers: { ...json, 'if-none-match': '*' },
        body: JSON.stringify(book),
      });
      expect(exists.status).toBe(412);
      expect((await exists.json()).errors[0].code).toBe(41201);
      const fresh = await served.fetch('/v1/books/brand-new-book', {
        method: 'PUT',
        headers: { ...json, 'if-none-match': '*' },
        body: JSON.stringify(book),
      });
      expect(fresh.status).toBe(201);
      expect(fresh.headers.get('etag')).toMatch(/^"/);
    });

    it('merges Vary from every feature, each name once (RFC 9110 §12.5.5)', async () => {
      const res = await served.fetch('/v1/books/middlemarch', {
        headers: { origin: 'https://app.example.com', accept: 'application/xml' },
      });
      const names = (res.headers.get('vary') ?? '').split(',').map((n) => n.trim().toLowerCase());
      expect(names).toContain('accept');
      expect(names).toContain('origin');
      expect(new Set(names).size).toBe(names.length);
      const notModified = await served.fetch('/v1/books/middlemarch', {
        headers: {
          origin: 'https://app.example.com',
          accept: 'application/xml',
          'if-none-match': res.headers.get('etag')!,
        },
      });
      expect(notModified.status).toBe(304);
      expect(notModified.headers.get('vary')).toBe(res.headers.get('vary'));
    });

    it('sends no-store on the answers to writes (spec 4.7)', async () => {
      const res = await served.fetch('/v1/books', {
        method: 'POST',
        headers: json,
        body: JSON.stringify(book),
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('cache-control')).toBe('no-store');
    });
  },
);

const strict = () =>
  conventions({
    lint: 'off',
    logger: quiet.logger,
    routes: {
      '/v1/notes/:id': {
        GET: {
          handler: () => ({ id: 'a' }),
          config: { resourceVersion: () => ({ version: '1' }), cacheControl: 'public, max-age=60' },
        },
        PUT: () => ({ id: 'a' }),
        DELETE: () => noContent(),
      },
    },
    plugins: [negotiation(), caching({ requireIfMatch: true })],
  });

describeMatrix('requireIfMatch (RFC 6585 §3)', strict, (served) => {
  it('answers an unconditional write with 428 and the error body', async () => {
    const res = await served.fetch('/v1/notes/a', { method: 'DELETE' });
    expect(res.status).toBe(428);
    expect((await res.json()).errors[0].code).toBe(42800);
    const ok = await served.fetch('/v1/notes/a', {
      method: 'DELETE',
      headers: { 'if-match': '"1.json"' },
    });
    expect(ok.status).toBe(204);
  });

  it('keeps a route policy on GET (spec 4.7)', async () => {
    const res = await served.fetch('/v1/notes/a');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(res.headers.get('etag')).toBe('"1.json"');
  });
});
