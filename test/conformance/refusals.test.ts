/**
 * What a host answers before the library runs — Node's parser errors, its header limit, a missing
 * Host, an unknown Expect, CONNECT, the fetch server's own refusals — carries the spec's error body
 * and the always-on headers on every host, over a raw socket (spec 7.1, 7.2).
 */
import type { Conventions } from 'api-conventions';
import { bindHost, type RequestInput } from 'api-conventions/host';
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix } from './_matrix.ts';
import { rawRequest, rawUntilClose } from './_raw.ts';

/** The headers every response of `api` carries, as a host binding reads them. */
const alwaysOnOf = (api: Conventions) =>
  bindHost<RequestInput>(api, { input: (input) => input }).alwaysOnHeaders;

const host = 'Host: shelf.test\r\n';
const get = (target: string, headers = host) => `GET ${target} HTTP/1.1\r\n${headers}\r\n`;
const post = (headers: string, body = '') =>
  `POST /v1/books HTTP/1.1\r\n${host}Content-Type: application/json\r\n${headers}\r\n${body}`;

// [what, request, status, code]: answers that end the connection.
const refused: [string, string, number, number][] = [
  ['an unknown method (RFC 9112 §3.1)', `FOO /v1/books HTTP/1.1\r\n${host}\r\n`, 400, 40025],
  ['a lower-case method (RFC 9110 §9.1)', `get /v1/books HTTP/1.1\r\n${host}\r\n`, 400, 40025],
  ['a TAB in the target (RFC 9112 §3.2)', get('/v1/bo\tks'), 400, 40025],
  ['a NUL in the target (RFC 9112 §3.2)', get('/v1/bo\0ks'), 400, 40025],
  ['a target without a leading slash (RFC 9112 §3.2)', get('v1/books'), 400, 40025],
  [
    'a space in a header name (RFC 9112 §5.1)',
    get('/v1/books', `${host}Bad Name: x\r\n`),
    400,
    40026,
  ],
  [
    'a control byte in a header value (RFC 9110 §5.5)',
    get('/v1/books', `${host}X-A: a\x01b\r\n`),
    400,
    40026,
  ],
  ['a folded header line (RFC 9112 §5.2)', get('/v1/books', `${host}X-A: a\r\n b\r\n`), 400, 40026],
  [
    'Content-Length with Transfer-Encoding (RFC 9112 §6.3)',
    post('Content-Length: 5\r\nTransfer-Encoding: chunked\r\n', '0\r\n\r\n'),
    400,
    40027,
  ],
  [
    'a bad chunk size (RFC 9112 §7.1)',
    post('Transfer-Encoding: chunked\r\n', 'zz\r\n'),
    400,
    40027,
  ],
  ['Content-Length: abc (RFC 9110 §8.6)', post('Content-Length: abc\r\n'), 400, 40027],
  ['Content-Length: -1 (RFC 9110 §8.6)', post('Content-Length: -1\r\n'), 400, 40027],
  [
    'Content-Length twice (RFC 9110 §8.6)',
    post('Content-Length: 2\r\nContent-Length: 3\r\n', '{}'),
    400,
    40027,
  ],
  [
    'a final transfer coding other than chunked (RFC 9112 §6.3)',
    post('Transfer-Encoding: gzip\r\n'),
    400,
    40027,
  ],
  [
    'an HTTP/1.1 request without Host (RFC 9112 §3.2)',
    'GET /v1/books HTTP/1.1\r\n\r\n',
    400,
    40028,
  ],
  [
    'a header section over 64 KiB (RFC 6585 §5)',
    get('/v1/books', `${host}X-Big: ${'a'.repeat(70_000)}\r\n`),
    431,
    43100,
  ],
  [
    'CONNECT (RFC 9110 §9.3.6)',
    'CONNECT shelf.test:443 HTTP/1.1\r\nHost: shelf.test:443\r\n\r\n',
    501,
    50100,
  ],
];

let api: Conventions;

describeMatrix(
  'answers made before the library runs',
  () => {
    api = createBookshelf({ logger: { error() {}, warn() {} } });
    return api;
  },
  (served) => {
    it.each(refused)(
      'answers %s with its status, the error body, and closes',
      async (_what, raw, status, code) => {
        // A POST to /v1/books reaches the library only with a token, and the token's issuer is
        // the origin it was issued for, so such a request names the server's own host.
        const request = raw.startsWith('POST ')
          ? raw.replace(
              host,
              `Host: 127.0.0.1:${served.port}\r\nAuthorization: ${await served.authorization()}\r\n`,
            )
          : raw;
        const exchange = await rawUntilClose(served.port, request);
        const response = exchange.response!;
        expect(response?.status).toBe(status);
        expect(JSON.parse(response.body)).toEqual({
          errors: [{ message: expect.any(String), code }],
        });
        expect(response.headers['content-type']).toBe('application/json');
        // The core's always-on headers reach the host's own answers as well (spec 4.8).
        expect(response.headers['x-content-type-options']).toBe('nosniff');
        // Every always-on header, the security set among them, reaches the host's own answers.
        for (const [name, value] of Object.entries(alwaysOnOf(api))) {
          expect(response.headers[name], name).toBe(String(value));
        }
        expect(response.headers.connection).toBe('close');
        // RFC 9110 §6.6.1: an origin server with a clock sends Date on every response.
        expect(Date.parse(response.headers.date ?? '')).not.toBeNaN();
        expect(exchange.closed).toBe(true);
      },
    );

    it('answers a 20 KiB URI with 414 and the error body (spec 7.2)', async () => {
      const response = await rawRequest(served.port, get(`/v1/books?q=${'a'.repeat(20_000)}`));
      expect(response.status).toBe(414);
      expect(JSON.parse(response.body).errors[0].code).toBe(41400);
      expect(response.headers['x-content-type-options']).toBe('nosniff');
    });

    it('answers an Expect other than 100-continue with 417 and the error body (RFC 9110 §10.1.1)', async () => {
      const response = await rawRequest(served.port, get('/v1/books', `${host}Expect: foo\r\n`));
      expect(response.status).toBe(417);
      expect(JSON.parse(response.body).errors[0].code).toBe(41700);
    });

    // Regression: node, Express and Fastify kept the first of two Host headers, and the issuer,
    // metadata and token iss/aud were built from it.
    it.each([
      ['the server twice', (port: number) => `127.0.0.1:${port}`],
      ['the server, then another host', () => 'evil.example'],
    ])(
      'answers two Host headers (%s) with 400 and the error body (RFC 9112 §3.2)',
      async (_what, second) => {
        const own = `127.0.0.1:${served.port}`;
        const response = await rawRequest(
          served.port,
          `GET /.well-known/oauth-authorization-server HTTP/1.1\r\nHost: ${own}\r\nHost: ${second(served.port)}\r\nConnection: close\r\n\r\n`,
        );
        expect(response.status).toBe(400);
        expect(JSON.parse(response.body)).toEqual({
          errors: [{ message: expect.any(String), code: 40028 }],
        });
        for (const [name, value] of Object.entries(alwaysOnOf(api))) {
          expect(response.headers[name], name).toBe(String(value));
        }
      },
    );

    // Node routes these; Hono's node server refuses them itself, and its refusal gets the body.
    it.each([
      ['a backslash in the path', get('/v1\\books')],
      ['an asterisk target', `OPTIONS * HTTP/1.1\r\n${host}\r\n`],
      ['an absolute-form target with a backslash', get('http://shelf.test/v1\\books')],
      ['a Host with a space', 'GET /v1/books HTTP/1.1\r\nHost: a b\r\n\r\n'],
    ])('answers %s with the error body, never an empty one', async (_what, request) => {
      const response = await rawRequest(served.port, request);
      expect(response.status).toBeGreaterThanOrEqual(200);
      if (response.status >= 400) {
        expect(response.status).toBeLessThan(500);
        expect(JSON.parse(response.body).errors[0]).toEqual({
          message: expect.any(String),
          code: expect.any(Number),
        });
      }
    });
  },
);
