/**
 * No hostile request line, target, framing or header gets a 500 or hangs, and every 4xx carries
 * the spec's error body, on every host and whoever answers it, the library or the host's server
 * (CONTRIBUTING.md rule 7; spec 7.1, 7.2). No request costs the parsers more than a fixed budget
 * of work, counted, not timed (docs/limits.md, "What each parser costs").
 */
import fc from 'fast-check';
import { expect, it, vi } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { requestParsers, workOf } from '../_work.ts';
import { describeMatrix } from './_matrix.ts';
import { rawUntilClose } from './_raw.ts';

await vi.hoisted(() => import('../_work.ts').then((work) => work.startWork()));

const methods = fc.constantFrom(
  'GET',
  'GET',
  'POST',
  'POST',
  'POST',
  'PUT',
  'PATCH',
  'DELETE',
  'OPTIONS',
  'CONNECT',
  'FOO',
  'get',
);
const paths = fc.constantFrom(
  '/v1/books',
  '/v1/books/dune',
  '/v1/Books',
  '/v1/books/',
  '/v1/oauth2/token',
  '/v1/oauth2/jwks',
  '/nowhere',
);
const targets = fc.oneof(
  { weight: 4, arbitrary: paths },
  fc.tuple(paths, fc.string({ unit: 'binary', maxLength: 30 })).map(([p, s]) => p + s),
  fc
    .tuple(paths, fc.string({ unit: 'binary-ascii', maxLength: 30 }))
    .map(([p, s]) => `${p}?q=${s}`),
  fc.constantFrom(
    '*',
    'http://shelf.test/v1/books',
    'v1/books',
    '/v1\\books',
    '/%zz',
    '/v1/%2e%2e/books',
    '//x',
  ),
  fc.integer({ min: 8000, max: 30_000 }).map((n) => `/v1/books?q=${'a'.repeat(n)}`),
);
const names = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      'Content-Length',
      'Transfer-Encoding',
      'Content-Type',
      'Content-Encoding',
      'Expect',
      'Host',
      'Accept',
      'If-None-Match',
      'If-Match',
      'Origin',
      'X-Forwarded-For',
      'Forwarded',
      'Cookie',
      'Authorization',
    ),
  },
  { weight: 1, arbitrary: fc.string({ unit: 'binary-ascii', minLength: 1, maxLength: 12 }) },
);
// Long lists, up to the 64 KiB a host reads: each element of the list parsers, many times over.
const longLists = fc
  .tuple(
    fc.constantFrom(
      (i: number) => `application/vnd.bookshelf.${i}+json`,
      (i: number) => `application/vnd.x.${i}+json`,
      () => 'a/b;q=0.5',
      () => '*/*',
      (i: number) => `"t${i}"`,
      () => 'gzip',
      () => '10.0.0.1',
      () => 'for=10.0.0.1;proto=https',
      (i: number) => `c${i}=v`,
      () => '',
    ),
    fc.constantFrom(', ', ',', ';', '; '),
    fc.integer({ min: 1, max: 1700 }),
  )
  .map(([element, separator, count]) =>
    Array.from({ length: count }, (_, i) => element(i)).join(separator),
  );
const listNames = fc.constantFrom(
  'Accept',
  'Cookie',
  'If-None-Match',
  'Content-Encoding',
  'Content-Type',
  'Forwarded',
  'X-Forwarded-For',
);
const values = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.constantFrom(
      '0',
      '5',
      'abc',
      '-1',
      '99999999999',
      'chunked',
      'gzip, chunked',
      'gzip',
      'br',
      'x-gzip',
      'identity',
      '100-continue',
      'foo',
      'application/json',
      'text/plain',
      'application/json; charset=latin1',
      'application/x-www-form-urlencoded',
      '*/*',
      '',
    ),
  },
  { weight: 2, arbitrary: fc.string({ unit: 'binary-ascii', maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 20 }) },
  { weight: 2, arbitrary: longLists },
);
const bodies = fc.oneof(
  fc.constantFrom(
    '',
    '{}',
    '{"title":"Dune"}',
    'grant_type=client_credentials',
    '0\r\n\r\n',
    '5\r\nhello\r\n0\r\n\r\n',
    'zz\r\n',
  ),
  fc.string({ maxLength: 60 }),
);
const requests = fc
  .record({
    method: methods,
    target: targets,
    withHost: fc.oneof({ weight: 5, arbitrary: fc.constant(true) }, fc.constant(false)),
    headers: fc.array(
      fc.oneof(
        { weight: 5, arbitrary: fc.tuple(names, values) },
        { weight: 1, arbitrary: fc.tuple(listNames, longLists) },
      ),
      { maxLength: 5 },
    ),
    body: bodies,
  })
  .map(({ method, target, withHost, headers, body }) => {
    let text = `${method} ${target} HTTP/1.1\r\n`;
    if (withHost) text += 'Host: shelf.test\r\n';
    for (const [name, value] of headers) text += `${name}: ${value}\r\n`;
    return Buffer.from(`${text}Connection: close\r\n\r\n${body}`, 'latin1');
  });

/** A GET of the JWKS with an `Accept` of `count` vendor types, as the attack sent it. */
const vendorAttack = (count: number) =>
  Buffer.from(
    `GET /v1/oauth2/jwks HTTP/1.1\r\nHost: shelf.test\r\nAccept: ${Array.from(
      { length: count },
      (_, i) => `application/vnd.bookshelf.${i}+json`,
    ).join(', ')}\r\nConnection: close\r\n\r\n`,
    'latin1',
  );

/**
 * The parser work one request may cost, in V8 block executions of the request parsers
 * (test/_work.ts): four per byte of the largest head a host reads. A linear parser spends a few
 * blocks per character of the values it reads; a quadratic one passes the budget soon.
 */
const workBudget = 4 * 65_536;

describeMatrix(
  'hostile requests',
  () => createBookshelf({ logger: { error() {}, warn() {} } }),
  (served) => {
    it('answers every hostile request below 500, in time, with the error body on every 4xx, within the parser work budget', async () => {
      await fc.assert(
        fc.asyncProperty(requests, async (request) => {
          let answer: Awaited<ReturnType<typeof rawUntilClose>> | undefined;
          const work = await workOf(async () => {
            answer = await rawUntilClose(served.port, request, 4000);
          }, requestParsers);
          if (answer === undefined) throw new Error('no answer');
          const { response, text, closed } = answer;
          expect(work, 'parser work').toBeLessThanOrEqual(workBudget);
          // CONNECT is 501 by design; anything else in 5xx is a fault. A connection closed without
          // a word is allowed only where the client is not owed one (never here: no hang, no drop).
          expect(closed, `no end to ${JSON.stringify(text.slice(0, 200))}`).toBe(true);
          expect(response, `no response in ${JSON.stringify(text.slice(0, 200))}`).toBeDefined();
          const { status, body } = response!;
          if (status === 501) expect(JSON.parse(body).errors[0].code).toBe(50100);
          else expect(status).toBeLessThan(500);
          if (status >= 400) {
            expect(JSON.parse(body)).toMatchObject({
              errors: [{ message: expect.any(String), code: expect.any(Number) }],
            });
          }
        }),
        // The quadratic case always runs: 700 types are 490,000 pairs, 1,700 are 2.9 million.
        { numRuns: 100, examples: [[vendorAttack(700)], [vendorAttack(1700)]] },
      );
    });
  },
  {
    server: {
      headersTimeout: 1000,
      requestTimeout: 1500,
      keepAliveTimeout: 300,
      connectionsCheckingInterval: 100,
    },
  },
);
