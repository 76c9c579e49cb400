import fc from 'fast-check';
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix } from './_matrix.ts';

const quiet = { logger: { error() {}, warn() {} } };
// What a header value may hold on the wire: visible ASCII and spaces, no line breaks.
const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 120,
});
const value = fc.oneof(
  printable,
  fc.constantFrom(
    '*',
    '"a", W/"b"',
    'W/',
    '""',
    'Sun, 06 Nov 1994 08:49:37 GMT',
    'text/csv',
    'application/xml;q=2',
    '*/*;q=0',
  ),
);

describeMatrix(
  'hostile Accept and If-* values over HTTP (spec 7.1, RFC 9110 §13)',
  () => createBookshelf(quiet),
  (served) => {
    it('never answers 500, and every 4xx carries the error body', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'PATCH', 'DELETE'),
          fc.constantFrom('/v1/books', '/v1/books/emma', '/v1/books/emma.xml'),
          fc.constantFrom(
            'accept',
            'if-match',
            'if-none-match',
            'if-modified-since',
            'if-unmodified-since',
          ),
          value,
          async (method, path, name, text) => {
            const res = await served.fetch(path, {
              method,
              headers: { [name]: text, 'content-type': 'application/json' },
              ...(method === 'PATCH' ? { body: '{"pages":1}' } : {}),
            });
            expect(res.status).toBeLessThan(500);
            const body = await res.text();
            if (res.status < 400) return;
            if (res.headers.get('content-type')?.includes('xml')) {
              expect(body).toMatch(/<errors><error><message>[^<]*<\/message><code>\d{5}<\/code>/);
            } else {
              const { errors } = JSON.parse(body);
              expect(errors[0]).toEqual({ message: expect.any(String), code: expect.any(Number) });
            }
          },
        ),
        { numRuns: 60 },
      );
    });
  },
);
