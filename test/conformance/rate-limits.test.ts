/**
 * Rate limits on every host (spec section 8): counters count down, the request past the limit
 * gets 429 with the error body and Retry-After, other callers are unaffected, unknown paths count.
 * Each test calls from its own loopback address (127.0.0.N), so each is a caller of its own.
 */
import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix } from './_matrix.ts';
import { rawUntilClose } from './_raw.ts';

const quiet = { logger: { error() {}, warn() {} } };

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

const close = 'Connection: close\r\n\r\n';
const head = (line: string, headers = 'Host: shelf.test\r\n') =>
  `${line} HTTP/1.1\r\n${headers}${close}`;

/**
 * Requests answered before the limiter used to see them: CORS preflights and CSRF refusals (in
 * pre-routing, by plugins before the limiter), and the answers hosts make themselves (Fastify's
 * 400 for a bad percent-encoding, Hono's for a Host it cannot read, Node's parser errors).
 */
const answeredEarly: [string, string, number][] = [
  [
    'a CORS preflight from the allowed origin',
    head(
      'OPTIONS /v1/books',
      'Host: shelf.test\r\nOrigin: https://app.example.com\r\nAccess-Control-Request-Method: POST\r\n',
    ),
    204,
  ],
  [
    'a CORS preflight from a foreign origin',
    head(
      'OPTIONS /v1/books',
      'Host: shelf.test\r\nOrigin: https://evil.example\r\nAccess-Control-Request-Method: POST\r\n',
    ),
    403,
  ],
  [
    'a cross-site POST the CSRF check refuses',
    head(
      'POST /v1/books',
      'Host: shelf.test\r\nOrigin: https://evil.example\r\nSec-Fetch-Site: cross-site\r\nContent-Length: 0\r\n',
    ),
    403,
  ],
  ['a malformed percent-encoding', head('GET /v1/books/%zz'), 400],
  ['a Host that is no host', head('GET /v1/books', 'Host: a b\r\n'), 400],
  ['a request line the HTTP parser refuses', head('FOO /v1/books'), 400],
];

/** A GET from a given local address, without credentials unless given: the caller is that address. */
function get(port: number, path: string, from: string, authorization?: string): Promise<Answer> {
  const headers = authorization === undefined ? {} : { authorization };
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, localAddress: from, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describeMatrix(
  'Rate limits',
  () => createBookshelf({ ...quiet, rateLimit: { limit: 5, window: 60 } }),
  (served) => {
    describe('a 5-per-60 s policy', () => {
      it('counts X-RateLimit-Remaining down from the limit and reports the reset in UTC epoch seconds (spec 8.3)', async () => {
        const from = '127.0.0.11';
        const before = Math.floor(Date.now() / 1000);
        for (let n = 1; n <= 5; n++) {
          const answer = await get(served.port, '/v1/books', from);
          expect(answer.status).not.toBe(429);
          expect(answer.headers['x-ratelimit-limit']).toBe('5');
          expect(answer.headers['x-ratelimit-remaining']).toBe(String(5 - n));
          const reset = Number(answer.headers['x-ratelimit-reset']);
          expect(Number.isInteger(reset)).toBe(true);
          expect(reset).toBeGreaterThanOrEqual(before + 59);
          expect(reset).toBeLessThanOrEqual(before + 62);
        }
      });

      it('answers the 6th request with 429, the error body, an integer Retry-After ≥ 1 and no-store (spec 8.2)', async () => {
        const from = '127.0.0.12';
        for (let n = 1; n <= 5; n++) await get(served.port, '/v1/books', from);
        const answer = await get(served.port, '/v1/books', from);
        expect(answer.status).toBe(429);
        expect(JSON.parse(answer.body)).toEqual({
          errors: [{ message: expect.stringContaining('retry after'), code: 42900 }],
        });
        expect(answer.headers['retry-after']).toMatch(/^[1-9]\d*$/);
        expect(Number(answer.headers['retry-after'])).toBeLessThanOrEqual(60);
        expect(answer.headers['cache-control']).toBe('no-store');
        expect(answer.headers['x-ratelimit-remaining']).toBe('0');
        expect(answer.headers['content-type']).toMatch(/^application\/json/);
      });

      it('leaves other callers unaffected', async () => {
        for (let n = 1; n <= 6; n++) await get(served.port, '/v1/books', '127.0.0.13');
        const other = await get(served.port, '/v1/books', '127.0.0.14');
        expect(other.status).not.toBe(429);
        expect(other.headers['x-ratelimit-remaining']).toBe('4');
      });

      it('counts unknown paths too, so a scan is limited (pre-routing)', async () => {
        const from = '127.0.0.15';
        const first = await get(served.port, '/v1/no-such-thing', from);
        expect(first.status).toBe(404);
        expect(first.headers['x-ratelimit-remaining']).toBe('4');
        for (let n = 2; n <= 5; n++) await get(served.port, `/v1/nothing-${n}`, from);
        expect((await get(served.port, '/v1/anything', from)).status).toBe(429);
        expect((await get(served.port, '/v1/books', from)).status).toBe(429);
      });

      // Regression: a valid token's 404s were counted as credentials that were not
      // accepted, so the network's next valid token got 429 saying so.
      it("counts a valid token's 404s by network, and its next request as its caller (spec 8.2)", async () => {
        const from = '127.0.0.17';
        const bob = await served.authorization('bob');
        for (let n = 1; n <= 5; n++) {
          expect((await get(served.port, `/v1/gone-${n}`, from, bob)).status).toBe(404);
        }
        const scan = await get(served.port, '/v1/gone-6', from, bob);
        expect(scan.status).toBe(429);
        expect(JSON.parse(scan.body)).toEqual({
          errors: [
            {
              message: expect.stringMatching(
                /^Too many requests: the "default" limit \(5 per 60 s\)/,
              ),
              code: 42900,
            },
          ],
        });
        const books = await get(served.port, '/v1/books', from, bob);
        expect(books.status).toBe(200);
        expect(books.headers['x-ratelimit-remaining']).toBe('4');
      });

      // Regression: these were answered before the limiter counted them, so they were never
      // limited, though spec 8.1 limits every request a caller makes.
      it.each(
        answeredEarly.map((c, i) => [...c, `127.0.0.${40 + i}`, `127.0.0.${60 + i}`] as const),
      )(
        'counts %s against the limit and answers it 429 past the limit (spec 8.1, 8.2)',
        async (_what, raw, status, from, other) => {
          for (let n = 1; n <= 5; n++) {
            const { response } = await rawUntilClose(served.port, raw, 5000, from);
            expect(response?.status).toBe(status);
            expect(response?.headers['x-ratelimit-remaining']).toBe(String(5 - n));
          }
          expect((await get(served.port, '/v1/books', from)).status).toBe(429);
          const { response } = await rawUntilClose(served.port, raw, 5000, from);
          expect(response?.status).toBe(429);
          expect(JSON.parse(response!.body)).toEqual({
            errors: [{ message: expect.stringContaining('retry after'), code: 42900 }],
          });
          expect(response?.headers['retry-after']).toMatch(/^[1-9]\d*$/);
          expect(response?.headers['x-ratelimit-remaining']).toBe('0');
          expect(response?.headers['x-content-type-options']).toBe('nosniff');
          // Counted by the client's address: another client is not refused.
          const fresh = (await rawUntilClose(served.port, raw, 5000, other)).response;
          expect(fresh?.status).toBe(status);
          expect(fresh?.headers['x-ratelimit-remaining']).toBe('4');
        },
      );

      it('sends the IETF RateLimit and RateLimit-Policy headers when asked (draft-ietf-httpapi-ratelimit-headers)', async () => {
        const answer = await get(served.port, '/v1/books', '127.0.0.16');
        expect(answer.headers['ratelimit-policy']).toBe('"default";q=5;w=60');
        expect(answer.headers.ratelimit).toMatch(/^"default";r=4;t=(59|60)$/);
      });
    });
  },
);
