/**
 * A deliberately non-conforming service of the tests' own: a plain Express app with one planted
 * violation per check of the auditor, each named in a comment with the rule it breaks.
 */
import type { AddressInfo } from 'node:net';
import express from 'express';

/** The paths the tests audit, each carrying its planted violations. */
export const plantedPaths = [
  '/v1/books',
  '/v1/authors',
  '/v1/search',
  '/v1/notes',
  '/v1/orders',
  '/v1/account',
  '/v1/private',
  '/v1/feed',
  '/v1/book_list',
  '/v1/index.php',
  '/v1/order/1',
  '/books',
] as const;

/** Its OpenAPI document: a bare-array schema, an untyped date, a wrong error schema, an example POST. */
export const plantedDocument = {
  openapi: '3.0.3',
  info: { title: 'Non-conforming', version: '1' },
  paths: {
    '/v1/authors': {
      get: {
        responses: {
          // 2.7: a bare array.
          '200': {
            description: 'ok',
            content: {
              'application/json': { schema: { type: 'array', items: { type: 'object' } } },
            },
          },
          // 7.1.5: not the spec's error body.
          '404': {
            description: 'no',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { error: { type: 'string' } } },
              },
            },
          },
        },
      },
    },
    '/v1/notes': {
      get: {
        responses: {
          // 2.6: a date as an epoch number.
          '200': {
            description: 'ok',
            content: {
              'application/json': {
                schema: { type: 'object', properties: { createdAt: { type: 'integer' } } },
              },
            },
          },
        },
      },
      post: {
        requestBody: { content: { 'application/json': { example: { text: 'hello' } } } },
        responses: { '201': { description: 'created' } },
      },
    },
    // 4.1.5: a space in the path.
    '/v1/my notes': { get: { responses: { '200': { description: 'ok' } } } },
  },
};

/** Builds the app (not yet listening). */
export function nonConformingApp(): express.Express {
  const app = express();
  app.disable('x-powered-by');
  // Express logs the errors it answers (the 413) unless its environment is 'test'.
  app.set('env', 'test');
  // 7.2: a long URI gets 414, but as plain text.
  app.use((req, res, next) => {
    if (req.url.length > 10_000) res.status(414).type('text/plain').send('URI too long');
    else next();
  });
  // 4.1.3: an upper-case path is redirected to the lower-case one, not 404.
  app.use((req, res, next) => {
    if (/[A-Z]/.test(req.path)) res.redirect(301, req.path.toLowerCase());
    else next();
  });
  app.get('/openapi.json', (_req, res) => {
    res.json(plantedDocument);
  });
  // 4.7 (ETag never yields 304) and 2.6 (dates that are not RFC 3339).
  app.get('/v1/books', (_req, res) => {
    res.setHeader('content-type', 'application/json');
    res.setHeader('etag', '"v1"');
    res.end(
      JSON.stringify({
        books: [{ id: 1, createdAt: '11/23/2026', updatedAt: 1_700_000_000 }],
        hasNext: false,
      }),
    );
  });
  // 2.7: a bare array; no 405 for other methods (Express answers 404); no 406.
  app.get('/v1/authors', (_req, res) => {
    res.json([{ id: 1, name: 'Jane Austen' }]);
  });
  // 4.2: HEAD differs from GET, and OPTIONS without Allow.
  app.head('/v1/search', (_req, res) => {
    res.status(404).end();
  });
  app.options('/v1/search', (_req, res) => {
    res.sendStatus(200);
  });
  // 7.1.1: a 200 hiding an error.
  app.get('/v1/search', (_req, res) => {
    res.json({ error: 'Nothing matched.', code: 404 });
  });
  // 4.6: JSON sent as text/plain; 4.7: no Date.
  app.get('/v1/notes', (_req, res) => {
    res.sendDate = false;
    res.type('text/plain').send(JSON.stringify({ notes: [], hasNext: false }));
  });
  // 4.6: anything is taken (no 415); 4.3: a create answers 200; 7.2: the 413 is an HTML page.
  app.post('/v1/notes', express.json({ limit: '100kb' }), (_req, res) => {
    res.json({ ok: true, id: 1 });
  });
  // 2.8 (paged, no hasNext), 8.3 (Remaining above Limit), 9.8 (sunset a month after), 4.7 (immutable).
  app.get('/v1/orders', (_req, res) => {
    const now = Math.floor(Date.now() / 1000);
    res.set({
      'x-ratelimit-limit': '10',
      'x-ratelimit-remaining': '50',
      'x-ratelimit-reset': '60',
      deprecation: `@${now}`,
      sunset: new Date((now + 30 * 86_400) * 1000).toUTCString(),
      'cache-control': 'public, immutable',
    });
    res.json({ orders: [{ id: 1 }], page: 1, total: 40 });
  });
  // 5.8 and 5.6: a Basic challenge where a Bearer one belongs.
  app.get('/v1/account', (_req, res) => {
    res
      .status(401)
      .set('www-authenticate', 'Basic realm="x"')
      .json({ errors: [{ message: 'Who are you?', code: 40100 }] });
  });
  // 5.8: 403 to a caller nobody knows.
  app.get('/v1/private', (_req, res) => {
    res.status(403).json({ errors: [{ message: 'No.', code: 40300 }] });
  });
  // 4.5: XML by default.
  app.get('/v1/feed', (_req, res) => {
    res.type('application/xml').send('<feed/>');
  });
  // 4.1.6 and 4.1.4: underscores and a singular; 4.1.2: a .php path; 9.1: no version.
  app.get('/v1/book_list', (_req, res) => {
    res.json({ books: [], hasNext: false });
  });
  app.get('/v1/index.php', (_req, res) => {
    res.json({ name: 'index' });
  });
  // 4.1.4: a collection named in the singular.
  app.get('/v1/order/:id', (req, res) => {
    res.json({ id: req.params.id });
  });
  app.get('/books', (_req, res) => {
    res.json({ books: [], hasNext: false });
  });
  // 8.2: past its limit of 3, a 429 without Retry-After or the error body.
  let calls = 0;
  app.get('/v1/limited', (_req, res) => {
    calls++;
    res.set({
      'x-ratelimit-limit': '3',
      'x-ratelimit-remaining': String(Math.max(0, 3 - calls)),
      'x-ratelimit-reset': '60',
    });
    if (calls > 3) res.status(429).type('text/plain').send('Slow down');
    else res.json({ limited: true });
  });
  // 4.9: a token for anyone who asks, and without token_type for a client that authenticates.
  app.post('/v1/oauth2/token', (_req, res) => {
    res.json({ access_token: 'x' });
  });
  return app;
}

/** Starts the app on port 0; resolves to its base URL and a close function. */
export async function startNonConforming(): Promise<{ base: string; close: () => Promise<void> }> {
  const app = nonConformingApp();
  const server = await new Promise<import('node:http').Server>((resolve) => {
    const s = app.listen(0, '127.0.0.1', () => resolve(s));
  });
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
