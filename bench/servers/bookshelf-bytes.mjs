/**
 * bookshelf-bytes: the framework `BENCH_HOST` names (node:http, Express, Fastify, or Hono on
 * @hono/node-server for the fetch host) answering `GET /v1/books?per_page=20` with exactly the
 * bytes the bookshelf sends for it to the bench's token (alice, `books:read`), built on every
 * request by `JSON.stringify` from a plain object of strings, numbers and booleans: the ceiling
 * for the bookshelf on that framework. The bytes are taken from the bookshelf itself
 * at start-up (its own token endpoint, then the page), and the server refuses to start if
 * `JSON.stringify` of the parsed page is not those very bytes.
 *
 * With `BENCH_HEAD=1` (node:http only) it also sends the bookshelf's own response headers for
 * that request (security headers, rate-limit counts, caching, `Vary`, `Link`: taken once at
 * start-up, sent unchanged; Node adds `Date` as the bookshelf does): how much of the gap is
 * Node writing a longer head, which no convention can avoid. With `BENCH_HEAD=line` it sends a
 * head of the same length in bytes as that one, but as `Content-Type` and one `X-Head` line:
 * the head's bytes without its many lines, to tell which of the two costs.
 *
 * With `BENCH_TEXT=fixed` it sends the text taken at start-up on every request instead of
 * writing it anew: the strictest ceiling, a server that only copies a string to the socket.
 */
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { loadHost } from '../../examples/bookshelf/hosts/host.ts';
import { ORIGIN } from '../lib/tokens.mjs';
import { HOST, PORT, ready } from './_server.mjs';

const stack = process.env.BENCH_HOST ?? 'node';
const PATH = '/v1/books?per_page=20';

/** The bookshelf's page for the bench's request: its text and its response headers. */
async function bookshelfPage() {
  const serve = await loadHost('node');
  const running = await serve(createBookshelf({ logger: { error() {}, warn() {} } }), {
    port: 0,
    host: HOST,
  });
  try {
    const base = `http://${HOST}:${running.port}`;
    const token = await fetch(`${base}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=password&username=alice&password=wonderland&scope=books%3Aread',
    }).then((res) => res.json());
    const res = await fetch(`${base}${PATH}`, {
      // As the bench asks: its token, and the Origin its load generator sends.
      headers: { authorization: `Bearer ${token.access_token}`, origin: ORIGIN },
    });
    if (res.status !== 200) throw new Error(`the bookshelf answered ${res.status}`);
    const skip = new Set([
      'date',
      'connection',
      'keep-alive',
      'content-length',
      'transfer-encoding',
    ]);
    const headers = Object.fromEntries([...res.headers].filter(([name]) => !skip.has(name)));
    return { text: await res.text(), headers };
  } finally {
    await running.close();
  }
}

const { text, headers: bookshelfHeaders } = await bookshelfPage();
const plain = JSON.parse(text);
if (JSON.stringify(plain) !== text) {
  console.error('bookshelf-bytes: JSON.stringify of the page is not the bytes the bookshelf sent');
  process.exit(1);
}

const type = 'application/json';
const textMode = process.env.BENCH_TEXT ?? '';
if (!['', 'fixed'].includes(textMode)) {
  console.error('bookshelf-bytes: BENCH_TEXT is fixed (the text taken at start-up) or unset');
  process.exit(2);
}
/** The body of one response: written by `JSON.stringify` each time, or the text taken once. */
const bodyText = textMode === 'fixed' ? () => text : () => JSON.stringify(plain);
const headMode = process.env.BENCH_HEAD ?? '';
if (!['', '1', 'line'].includes(headMode)) {
  console.error(
    'bookshelf-bytes: BENCH_HEAD is 1 (the bookshelf head) or line (its bytes in one line)',
  );
  process.exit(2);
}
if (headMode !== '' && stack !== 'node') {
  console.error('bookshelf-bytes: BENCH_HEAD is for BENCH_HOST=node only');
  process.exit(2);
}
/** The head's lines as Node writes them (`name: value` and CRLF), content-length left out. */
const lineBytes = (headers) =>
  Object.entries(headers).reduce((n, [name, value]) => n + name.length + value.length + 4, 0);
/** What the node server sends beside `content-length` with `BENCH_HEAD` set. */
const sentHeaders =
  headMode === 'line'
    ? {
        'content-type': type,
        'x-head': 'x'.repeat(
          lineBytes(bookshelfHeaders) - lineBytes({ 'content-type': type, 'x-head': '' }),
        ),
      }
    : bookshelfHeaders;
if (headMode === 'line' && lineBytes(sentHeaders) !== lineBytes(bookshelfHeaders)) {
  console.error('bookshelf-bytes: the one-line head is not as long as the bookshelf head');
  process.exit(1);
}
if (stack === 'node') {
  const { createServer } = await import('node:http');
  const server = createServer((req, res) => {
    if (req.method === 'GET' && req.url === PATH) {
      const body = bodyText();
      res.writeHead(
        200,
        headMode === ''
          ? { 'content-type': type, 'content-length': Buffer.byteLength(body) }
          : { ...sentHeaders, 'content-length': Buffer.byteLength(body) },
      );
      res.end(body);
      return;
    }
    res.writeHead(404, { 'content-length': 0 });
    res.end();
  });
  server.listen(PORT, HOST, () => ready(server.address().port));
} else if (stack === 'express' || stack === 'express4') {
  const { default: express } = await import('express');
  const app = express();
  app.get('/v1/books', (_req, res) => {
    res.type(type).send(bodyText());
  });
  const server = app.listen(PORT, HOST, () => ready(server.address().port));
} else if (stack === 'fastify') {
  const { default: Fastify } = await import('fastify');
  const app = Fastify({ logger: false });
  app.get('/v1/books', (_req, reply) => {
    reply.type(type).send(bodyText());
  });
  await app.listen({ host: HOST, port: PORT });
  ready(app.server.address().port);
} else if (stack === 'fetch') {
  const { serve } = await import('@hono/node-server');
  const { Hono } = await import('hono');
  const app = new Hono();
  app.get('/v1/books', (c) => c.body(bodyText(), 200, { 'content-type': type }));
  serve({ fetch: app.fetch, hostname: HOST, port: PORT }, (info) => ready(info.port));
} else {
  console.error(
    `bookshelf-bytes: BENCH_HOST must be node, express, fastify or fetch, got "${stack}"`,
  );
  process.exit(2);
}
