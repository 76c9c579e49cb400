/** No hostile security header (Origin, preflight, Fetch Metadata, cookie, CSRF token) gives a 500. */
import fc from 'fast-check';
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix } from './_matrix.ts';
import { expectHeaderSet } from './_security.ts';

// What fetch can send: visible ASCII and spaces, no leading or trailing whitespace.
const headerValue = fc
  .string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
    maxLength: 120,
  })
  .map((s) => s.trim());
const origin = fc.oneof(
  headerValue,
  fc.constantFrom('null', 'https://app.example.com', 'https://app.example.com.evil.io', 'file://'),
  fc.webUrl().map((u) => new URL(u).origin),
);
const method = fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS');

describeMatrix(
  'hostile security headers',
  () => createBookshelf({ logger: { error() {}, warn() {} } }),
  (served) => {
    it('answers any Origin, preflight, Fetch Metadata, cookie and CSRF token with a 2xx or 4xx and the header set (spec 4.8)', async () => {
      await fc.assert(
        fc.asyncProperty(
          method,
          fc.constantFrom('/v1/books', '/v1/books/dune', '/v1/nothing', '/v1/Books'),
          fc.record(
            {
              origin,
              'access-control-request-method': fc.oneof(method, headerValue),
              'access-control-request-headers': headerValue,
              'sec-fetch-site': fc.oneof(
                fc.constantFrom('cross-site', 'same-site', 'same-origin', 'none'),
                headerValue,
              ),
              cookie: fc.oneof(
                headerValue,
                headerValue.map((v) => `__Host-session=${v}`),
              ),
              'x-csrf-token': fc.oneof(
                headerValue,
                headerValue.map((v) => `s.${v}.${v}`),
              ),
            },
            { requiredKeys: [] },
          ),
          async (verb, path, headers) => {
            const res = await served.fetch(path, {
              method: verb,
              headers: { ...headers, 'content-type': 'application/json' },
              ...(verb === 'GET' || verb === 'OPTIONS' ? {} : { body: '{}' }),
            });
            expect(res.status).toBeLessThan(500);
            expectHeaderSet(res);
            expect(res.headers.get('vary') ?? '').toMatch(/\bOrigin\b/);
            const allowed = res.headers.get('access-control-allow-origin');
            if (allowed !== null) expect(allowed).toBe('https://app.example.com');
            await res.arrayBuffer();
          },
        ),
        { numRuns: 60 },
      );
    });
  },
);
