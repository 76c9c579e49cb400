/**
 * One answer on every host: requests the hosts' own parsers used to treat differently get the
 * same status and body everywhere. Targets `fetch()` would rewrite or refuse go over a raw socket.
 */
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix, type Served } from './_matrix.ts';
import { type RawResponse, rawRequest } from './_raw.ts';

const quiet = { logger: { error() {}, warn() {} } };
const json = { 'content-type': 'application/json' };

/** Sends `method target` exactly as written, with `headers` and an optional JSON body. */
async function send(
  served: Served,
  method: string,
  target: string,
  headers: readonly string[] = [],
  body = '',
): Promise<RawResponse> {
  const authorization = await served.authorization();
  const lines = [
    `${method} ${target} HTTP/1.1`,
    `Host: 127.0.0.1:${served.port}`,
    'Connection: close',
    ...(authorization ? [`Authorization: ${authorization}`] : []),
    ...headers,
    ...(body ? [`Content-Length: ${Buffer.byteLength(body)}`] : []),
  ];
  return rawRequest(served.port, `${lines.join('\r\n')}\r\n\r\n${body}`);
}

const parse = (res: RawResponse): unknown => JSON.parse(res.body);

const malformed = (path: string) => ({
  errors: [
    {
      message: `The path ${path} has malformed percent-encoding: each "%" must be followed by two hexadecimal digits.`,
      code: 40006,
    },
  ],
});

describeMatrix(
  'one answer on every host',
  () => createBookshelf(quiet),
  (served) => {
    it.each([
      ['/v1/books/../books', 'books'],
      ['/v1/./books', 'books'],
      ['/v1/x/../books/emma', 'emma'],
      ['/v1/%2e%2e/v1/books', 'books'],
    ])(
      'removes the dot segments of %s before routing (RFC 3986 §5.2.4, §6.2.2.3)',
      async (target, what) => {
        const res = await send(served, 'GET', target);
        expect(res.status).toBe(200);
        const body = parse(res) as { books?: unknown[]; id?: string };
        if (what === 'books') expect(body.books).toHaveLength(20);
        else expect(body.id).toBe('emma');
      },
    );

    it('accepts the absolute form and uses its path and query (RFC 9112 §3.2.2)', async () => {
      const res = await send(served, 'GET', `http://127.0.0.1:${served.port}/v1/books?per_page=1`);
      expect(res.status).toBe(200);
      expect(parse(res)).toMatchObject({ books: [{ id: 'pride-and-prejudice' }], hasNext: true });
    });

    it('drops a raw # and what follows: a fragment is never part of the target (RFC 9112 §3.2)', async () => {
      const res = await send(served, 'GET', '/v1/books/emma#x');
      expect(res.status).toBe(200);
      expect(parse(res)).toMatchObject({ id: 'emma' });
    });

    it('decodes a percent-encoded unreserved letter: /v1/%62ooks is /v1/books (RFC 3986 §6.2.2.2)', async () => {
      const res = await served.fetch('/v1/%62ooks?per_page=2');
      expect(res.status).toBe(200);
      expect((await res.json()).books).toHaveLength(2);
    });

    it('answers a percent-encoded upper-case letter as the upper-case path it is (spec 4.1.3, RFC 3986 §6.2.2.2)', async () => {
      const res = await served.fetch('/v1/%42ooks');
      expect(res.status).toBe(404);
      expect(res.headers.get('location')).toBeNull();
      expect(await res.json()).toEqual({
        errors: [
          { message: 'Nothing found at /v1/Books: paths are entirely lower-case.', code: 40402 },
        ],
      });
    });

    it.each(['/v1/books/%ZZ', '/v1/books/%4', '/v1/books/%', '/v1/Books/%ZZ'])(
      'answers malformed percent-encoding in %s with 400 code 40006, never the upper-case 404 (RFC 3986 §2.1)',
      async (target) => {
        const res = await send(served, 'GET', target);
        expect(res.status).toBe(400);
        expect(res.headers['content-type']).toBe('application/json');
        expect(parse(res)).toEqual(malformed(target));
      },
    );

    it('bounds a path parameter only by the URI limit: PUT with a 101-character id creates it (spec 4.2)', async () => {
      const id = 'a'.repeat(101);
      const res = await served.fetch(`/v1/books/${id}`, {
        method: 'PUT',
        headers: json,
        body: JSON.stringify({ title: 'Long', authorId: 'someone', year: 2000 }),
      });
      expect(res.status).toBe(201);
      expect(res.headers.get('location')).toBe(`/v1/books/${id}`);
      expect(await res.json()).toMatchObject({ id });
    });

    it('answers Content-Type sent twice with 400 code 40009: it is a singleton field (RFC 9110 §5.3, §8.3)', async () => {
      const body = JSON.stringify({ title: 'Twice', authorId: 'someone', year: 2000 });
      const res = await send(
        served,
        'POST',
        '/v1/books',
        ['Content-Type: application/json', 'Content-Type: application/json'],
        body,
      );
      expect(res.status).toBe(400);
      const { errors } = parse(res) as { errors: { message: string; code: number }[] };
      expect(errors).toHaveLength(1);
      expect(errors[0]!.code).toBe(40009);
      expect(errors[0]!.message).toMatch(/content-type/i);
    });

    it('answers QUERY, which no route declares, with 405 and Allow even without a Content-Type (RFC 9110 §15.5.6)', async () => {
      const res = await send(served, 'QUERY', '/v1/books');
      expect(res.status).toBe(405);
      expect(res.headers.allow).toBe('GET, HEAD, POST, OPTIONS');
      expect(parse(res)).toEqual({
        errors: [
          {
            message: 'QUERY is not allowed on /v1/books; allowed: GET, HEAD, POST, OPTIONS.',
            code: 40500,
          },
        ],
      });
    });

    it('repeats at most 100 characters of a long upper-case path in its 404', async () => {
      const path = `/v1/B${'o'.repeat(300)}ks`;
      const res = await served.fetch(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        errors: [
          {
            message: `Nothing found at ${path.slice(0, 100)}…: paths are entirely lower-case.`,
            code: 40402,
          },
        ],
      });
    });

    it('repeats at most 100 characters of a long unknown path in its 404', async () => {
      const path = `/v1/${'m'.repeat(300)}`;
      const res = await served.fetch(path);
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        errors: [{ message: `Nothing found at ${path.slice(0, 100)}….`, code: 40401 }],
      });
    });
  },
);
