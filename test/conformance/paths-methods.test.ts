import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix } from './_matrix.ts';
import { createProbe } from './_probe.ts';
import { rawRequest } from './_raw.ts';

const quiet = { logger: { error() {}, warn() {} } };

describeMatrix(
  'paths and methods',
  () => createBookshelf(quiet),
  (served) => {
    it('answers an upper-case path with 404 and no redirect (spec 4.1.3)', async () => {
      const res = await served.fetch('/v1/Books');
      expect(res.status).toBe(404);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toBe('application/json');
      expect(await res.json()).toEqual({
        errors: [
          { message: 'Nothing found at /v1/Books: paths are entirely lower-case.', code: 40402 },
        ],
      });
    });

    it.each(['/V1/books', '/v1/books/Emma', '/v1/BOOKS/emma'])(
      'answers %s with 404, never a redirect (spec 4.1.3)',
      async (path) => {
        const res = await served.fetch(path);
        expect(res.status).toBe(404);
        expect(res.headers.get('location')).toBeNull();
        expect((await res.json()).errors[0].code).toBe(40402);
      },
    );

    it('does not count percent-encoding hex as upper case (spec 4.1.3)', async () => {
      const res = await served.fetch('/v1/books/%C3%A9mma');
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        errors: [{ message: 'No book with id "émma".', code: 40400 }],
      });
    });

    it('answers a trailing slash with 404 and no redirect (spec 4.1.9)', async () => {
      const res = await served.fetch('/v1/books/');
      expect(res.status).toBe(404);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.json()).toEqual({
        errors: [{ message: 'Nothing found at /v1/books/.', code: 40401 }],
      });
    });

    it('answers an unknown path with 404 naming it (spec 7.1.3)', async () => {
      const res = await served.fetch('/v1/magazines');
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        errors: [{ message: 'Nothing found at /v1/magazines.', code: 40401 }],
      });
    });

    it('answers an unknown id with 404 naming it (spec 7.1.3)', async () => {
      const res = await served.fetch('/v1/books/no-such-book');
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        errors: [{ message: 'No book with id "no-such-book".', code: 40400 }],
      });
    });

    it('answers a method the path lacks with 405 and Allow (RFC 9110 §15.5.6)', async () => {
      const res = await served.fetch('/v1/books', { method: 'DELETE' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, POST, OPTIONS');
      expect(await res.json()).toEqual({
        errors: [
          {
            message: 'DELETE is not allowed on /v1/books; allowed: GET, HEAD, POST, OPTIONS.',
            code: 40500,
          },
        ],
      });
    });

    it('answers 405 with Allow on an item path (RFC 9110 §15.5.6)', async () => {
      const res = await served.fetch('/v1/books/emma', {
        method: 'POST',
        body: '{}',
        headers: { 'content-type': 'application/json' },
      });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, PUT, PATCH, DELETE, OPTIONS');
    });

    it('answers OPTIONS with 204 and Allow (RFC 9110 §9.3.7)', async () => {
      const res = await served.fetch('/v1/books/emma', { method: 'OPTIONS' });
      expect(res.status).toBe(204);
      expect(res.headers.get('allow')).toBe('GET, HEAD, PUT, PATCH, DELETE, OPTIONS');
      expect(await res.text()).toBe('');
    });

    it('answers HEAD as GET without a body (RFC 9110 §9.3.2)', async () => {
      const get = await served.fetch('/v1/books/persuasion');
      const getBody = await get.text();
      const head = await rawRequest(
        served.port,
        `HEAD /v1/books/persuasion HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nAuthorization: ${await served.authorization()}\r\nConnection: close\r\n\r\n`,
      );
      expect(head.status).toBe(200);
      expect(head.headers['content-type']).toBe('application/json');
      expect(head.headers['content-length']).toBe(String(Buffer.byteLength(getBody)));
      expect(head.body).toBe('');
    });

    it('sends nosniff and application/json on every JSON response (spec 4.8)', async () => {
      for (const path of ['/v1/books', '/v1/books/emma', '/v1/nothing', '/v1/Books']) {
        const res = await served.fetch(path);
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('content-type')).toBe('application/json');
      }
    });
  },
);

describeMatrix(
  'declared routes',
  () => createProbe({ errors: [] }),
  (served) => {
    it('serves a declared HEAD handler rather than GET on the same path (RFC 9110 §9.3.2)', async () => {
      const head = await rawRequest(
        served.port,
        'HEAD /v1/pings HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      );
      expect(head.status).toBe(200);
      expect(head.headers['content-length']).toBe(
        String(JSON.stringify({ via: 'head, longer body' }).length),
      );
      expect(head.body).toBe('');
      expect(await (await served.fetch('/v1/pings')).json()).toEqual({ via: 'get' });
    });

    it('gives a wildcard parameter to the handler as one decoded string', async () => {
      const res = await served.fetch('/v1/files/a/b%20c/d.txt');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ path: 'a/b c/d.txt' });
    });
  },
);
