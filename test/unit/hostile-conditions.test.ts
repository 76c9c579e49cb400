import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import type { ApiResponse, RequestInput } from '../../src/host.ts';

const faults: unknown[] = [];
const api = createBookshelf({ logger: { error: (record) => faults.push(record), warn() {} } });

const tag = fc.oneof(
  fc.constant('*'),
  fc.string().map((s) => `"${s}"`),
  fc.string().map((s) => `W/"${s}"`),
  fc
    .array(
      fc.string({ maxLength: 12 }).map((s) => `"${s}"`),
      { maxLength: 5 },
    )
    .map((l) => l.join(', ')),
  fc.string({ maxLength: 200 }),
);
const date = fc.oneof(
  fc.date({ noInvalidDate: true }).map((d) => d.toUTCString()),
  fc.string({ maxLength: 60 }),
  fc.constantFrom('Sun, 06 Nov 1994 08:49:37 GMT', 'Sunday, 06-Nov-94 08:49:37 GMT', '0', '-1'),
);
const accept = fc.oneof(
  fc.constantFrom(
    'application/xml',
    'text/csv',
    '*/*;q=0',
    'application/vnd.bookshelf.x+xml;q=0.5, */*;q=0.1',
    'application/json;q=abc',
    ';;;,,,',
    'application/*+json',
  ),
  fc.string({ maxLength: 300 }),
  fc
    .array(
      fc.constantFrom('application/json', 'application/xml', 'text/html', '*/*', 'q=0', ';', ','),
      { maxLength: 20 },
    )
    .map((l) => l.join('')),
);
const header = <T>(arb: fc.Arbitrary<T>) => fc.option(arb, { nil: undefined });

const request = fc.record({
  method: fc.constantFrom('GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'POST'),
  path: fc.constantFrom(
    '/v1/books',
    '/v1/books/middlemarch',
    '/v1/books/emma.xml',
    '/v1/books.json',
    '/v1/book-imports',
    '/v1/books/x',
  ),
  format: header(
    fc.oneof(fc.constantFrom('xml', 'json', 'yaml', 'XML', ''), fc.string({ maxLength: 20 })),
  ),
  accept: header(accept),
  ifMatch: header(tag),
  ifNoneMatch: header(tag),
  ifModifiedSince: header(date),
  ifUnmodifiedSince: header(date),
  contentType: header(
    fc.constantFrom(
      'application/json',
      'text/plain',
      'application/xml',
      'application/json; charset=latin1',
      '',
    ),
  ),
  body: header(
    fc.oneof(
      fc.json(),
      fc.string({ maxLength: 100 }),
      fc.constant('{"title":"T","authorId":"a","year":1}'),
    ),
  ),
});

type Hostile = typeof request extends fc.Arbitrary<infer T> ? T : never;

function input(r: Hostile): RequestInput {
  const headers: Record<string, string | undefined> = {
    accept: r.accept,
    'if-match': r.ifMatch,
    'if-none-match': r.ifNoneMatch,
    'if-modified-since': r.ifModifiedSince,
    'if-unmodified-since': r.ifUnmodifiedSince,
    'content-type': r.body === undefined ? undefined : r.contentType,
  };
  const query = r.format === undefined ? '' : `?format=${encodeURIComponent(r.format)}`;
  const bytes = r.body === undefined ? undefined : new TextEncoder().encode(r.body);
  return {
    method: r.method,
    url: r.path + query,
    headers: { get: (name) => headers[name] },
    readBody: bytes === undefined ? undefined : async () => bytes,
  };
}

function hasErrorBody(response: ApiResponse): boolean {
  const text =
    typeof response.body === 'string' ? response.body : new TextDecoder().decode(response.body!);
  const type = String(response.headers['content-type']);
  if (type.includes('xml'))
    return /<errors><error><message>[^<]*<\/message><code>\d{5}<\/code>/.test(text);
  const body = JSON.parse(text);
  return (
    Array.isArray(body.errors) &&
    body.errors.every(
      (e: { message: unknown; code: unknown }) =>
        typeof e.message === 'string' && Number.isInteger(e.code),
    )
  );
}

describe('hostile Accept, format and If-* values (spec 7.1, RFC 9110 §13)', () => {
  it('never answer 500, and every 4xx carries the error body', async () => {
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const response = await api.handle(input(r));
        expect(response.status).toBeLessThan(500);
        if (response.status >= 400 && r.method !== 'HEAD')
          expect(hasErrorBody(response)).toBe(true);
        if (response.status === 304) expect(response.body).toBeNull();
        if (response.status >= 400) expect(response.headers['cache-control']).toBe('no-store');
      }),
      { numRuns: 1500 },
    );
    expect(faults).toEqual([]);
  });
});
