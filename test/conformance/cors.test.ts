import { conventions, cors } from 'api-conventions';
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix } from './_matrix.ts';
import { expectHeaderSet, ownApi } from './_security.ts';

const quiet = { logger: { error() {}, warn() {} } };
const app = 'https://app.example.com';
const exposed = [
  'ETag',
  'Location',
  'Retry-After',
  'X-RateLimit-Limit',
  'X-RateLimit-Remaining',
  'X-RateLimit-Reset',
  'RateLimit',
  'RateLimit-Policy',
  'Deprecation',
  'Sunset',
  'Link',
];

const varyOf = (res: Response) =>
  (res.headers.get('vary') ?? '').split(',').map((v) => v.trim().toLowerCase());

const preflight = (origin: string, method = 'POST', headers = 'authorization, content-type') => ({
  method: 'OPTIONS',
  headers: {
    origin,
    'access-control-request-method': method,
    'access-control-request-headers': headers,
  },
});

describeMatrix(
  'CORS on the bookshelf',
  () => createBookshelf(quiet),
  (served) => {
    it('lets the contract’s origin read answers, with credentials and the exposed headers (spec 4.8)', async () => {
      const res = await served.fetch('/v1/books', { headers: { origin: app } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(app);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      const list = (res.headers.get('access-control-expose-headers') ?? '').split(', ');
      for (const name of exposed) expect(list).toContain(name);
      expect(varyOf(res)).toContain('origin');
    });

    it('lets the allowed origin read an error body too (spec 4.8, 7.1.2)', async () => {
      const res = await served.fetch('/v1/books/no-such-book', { headers: { origin: app } });
      expect(res.status).toBe(404);
      expect(res.headers.get('access-control-allow-origin')).toBe(app);
      expect(varyOf(res)).toContain('origin');
    });

    it.each([
      ['a foreign origin', 'https://evil.example.org'],
      ['a look-alike with a longer host', 'https://app.example.com.evil.io'],
      ['a look-alike with a prefix', 'https://evilapp.example.com'],
      ['the same host over plain HTTP', 'http://app.example.com'],
      ['the same host on another port', 'https://app.example.com:8443'],
      ['the opaque origin null', 'null'],
      ['an origin with a path', 'https://app.example.com/'],
    ])('gives %s no CORS header, and Vary: Origin (spec 4.8)', async (_what, origin) => {
      const res = await served.fetch('/v1/books', { headers: { origin } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBeNull();
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      expect(res.headers.get('access-control-expose-headers')).toBeNull();
      expect(varyOf(res)).toContain('origin');
    });

    it('sends Vary: Origin on a request without Origin, and on 404 and 405 (RFC 9110 §12.5.5)', async () => {
      for (const [path, method, status] of [
        ['/v1/books', 'GET', 200],
        ['/v1/nothing-here', 'GET', 404],
        ['/v1/books', 'DELETE', 405],
      ] as const) {
        const res = await served.fetch(path, { method });
        expect(res.status).toBe(status);
        expect(varyOf(res), path).toContain('origin');
        expect(res.headers.get('access-control-allow-origin')).toBeNull();
      }
    });

    it('answers a preflight with 204 and the route table’s methods, without a token (spec 4.8)', async () => {
      const res = await served.fetchAs('anonymous', '/v1/books', preflight(app));
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(app);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      const methods = res.headers.get('access-control-allow-methods')!.split(', ');
      expect(methods).toEqual(expect.arrayContaining(['GET', 'POST']));
      expect(methods).not.toContain('DELETE');
      const allowed = res.headers.get('access-control-allow-headers')!.toLowerCase().split(', ');
      expect(allowed).toEqual(
        expect.arrayContaining(['authorization', 'content-type', 'if-match']),
      );
      expect(res.headers.get('access-control-max-age')).toBe('600');
      expect(varyOf(res)).toEqual(
        expect.arrayContaining([
          'origin',
          'access-control-request-method',
          'access-control-request-headers',
        ]),
      );
      expect(await res.text()).toBe('');
      expectHeaderSet(res);
    });

    it('lists an item’s methods in a preflight on /v1/books/{id} (spec 4.8)', async () => {
      const res = await served.fetchAs(
        'anonymous',
        '/v1/books/dune',
        preflight(app, 'PATCH', 'authorization, content-type, if-match'),
      );
      expect(res.status).toBe(204);
      const methods = res.headers.get('access-control-allow-methods')!.split(', ');
      expect(methods).toEqual(expect.arrayContaining(['GET', 'PUT', 'PATCH', 'DELETE']));
      expect(methods).not.toContain('POST');
    });

    it.each(['https://evil.example.org', 'https://app.example.com.evil.io', 'null'])(
      'refuses a preflight from %s with 403 and the error body (spec 4.8)',
      async (origin) => {
        const res = await served.fetchAs('anonymous', '/v1/books', preflight(origin));
        expect(res.status).toBe(403);
        expect(res.headers.get('access-control-allow-origin')).toBeNull();
        expect(res.headers.get('access-control-allow-methods')).toBeNull();
        const body = await res.json();
        expect(body.errors[0].code).toBe(40303);
        expectHeaderSet(res);
      },
    );

    it('answers a plain OPTIONS without Origin with the router’s 204 and Allow (RFC 9110 §9.3.7)', async () => {
      const res = await served.fetch('/v1/books', { method: 'OPTIONS' });
      expect(res.status).toBe(204);
      expect(res.headers.get('allow')).toContain('POST');
      expect(res.headers.get('access-control-allow-methods')).toBeNull();
    });
  },
);

describeMatrix(
  'CORS options on every host',
  () =>
    conventions({
      routes: {
        '/v1/things': { GET: () => ({ things: [], hasNext: false }), POST: () => ({ made: true }) },
      },
      plugins: [
        cors({
          origins: [/^https:\/\/[a-z0-9-]+\.example\.net$/, 'https://one.example.org'],
          exposeHeaders: ['ETag'],
          maxAge: 60,
        }),
      ],
    }),
  (served) => {
    it('admits origins an anchored RegExp matches, and not their look-alikes (spec 4.8)', async () => {
      const ok = await served.fetch('/v1/things', {
        headers: { origin: 'https://shop.example.net' },
      });
      expect(ok.headers.get('access-control-allow-origin')).toBe('https://shop.example.net');
      expect(ok.headers.get('access-control-allow-credentials')).toBeNull();
      expect(ok.headers.get('access-control-expose-headers')).toBe('ETag');
      for (const origin of ['https://shop.example.net.evil.io', 'https://a.b.example.net']) {
        const res = await served.fetch('/v1/things', { headers: { origin } });
        expect(res.headers.get('access-control-allow-origin'), origin).toBeNull();
      }
    });

    it('answers a preflight on a route of the table with its methods where the host routes by itself (spec 4.8)', async () => {
      const res = await served.fetch('/v1/things', preflight('https://one.example.org'));
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-max-age')).toBe('60');
      expect(res.headers.get('access-control-allow-methods')!.split(', ')).toEqual(
        expect.arrayContaining(['GET', 'POST']),
      );
    });
  },
  ownApi,
);

describeMatrix(
  'CORS with a function and a wildcard',
  () =>
    conventions({
      routes: { '/v1/things': { GET: () => ({ things: [], hasNext: false }) } },
      plugins: [cors({ origins: '*' })],
    }),
  (served) => {
    it('sends * without credentials for any origin but null (spec 4.8)', async () => {
      const res = await served.fetch('/v1/things', { headers: { origin: 'https://any.example' } });
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(res.headers.get('access-control-allow-credentials')).toBeNull();
      const none = await served.fetch('/v1/things', { headers: { origin: 'null' } });
      expect(none.headers.get('access-control-allow-origin')).toBeNull();
    });
  },
  ownApi,
);
