import { conventions, ok, type Plugin, securityHeaders } from 'api-conventions';
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix } from './_matrix.ts';
import { rawRequest } from './_raw.ts';
import { expectHeaderSet, ownApi } from './_security.ts';

const quiet = { logger: { error() {}, warn() {} } };
const json = { 'content-type': 'application/json' };
const dune = { title: 'Dune', authorId: 'frank-herbert', year: 1965 };

describeMatrix(
  'security headers on the bookshelf',
  () => createBookshelf(quiet),
  (served) => {
    it.each([
      ['GET', '/v1/books', undefined, 200],
      ['HEAD', '/v1/books', undefined, 200],
      ['GET', '/v1/books/no-such-book', undefined, 404],
      ['GET', '/v1/nothing-here', undefined, 404],
      ['GET', '/v1/Books', undefined, 404],
      ['DELETE', '/v1/books', undefined, 405],
      ['OPTIONS', '/v1/books', undefined, 204],
      ['POST', '/v1/books', '{"title":', 400],
      ['POST', '/v1/books', JSON.stringify({ title: 1 }), 400],
    ] as const)(
      'sends the header set on %s %s → %i (spec 4.8)',
      async (method, path, body, status) => {
        const res = await served.fetch(path, {
          method,
          ...(body === undefined ? {} : { body, headers: json }),
        });
        expect(res.status).toBe(status);
        expectHeaderSet(res);
        expect(res.headers.get('strict-transport-security')).toBeNull();
        expect(res.headers.get('public-key-pins')).toBeNull();
      },
    );

    it('sends the header set on 201 and 204 (spec 4.8)', async () => {
      const made = await served.fetch('/v1/books', {
        method: 'POST',
        headers: json,
        body: JSON.stringify(dune),
      });
      expect(made.status).toBe(201);
      expectHeaderSet(made);
      const gone = await served.fetch(
        new URL(made.headers.get('location')!, served.url('/')).pathname,
        {
          method: 'DELETE',
        },
      );
      expect(gone.status).toBe(204);
      expectHeaderSet(gone);
    });

    it('sends the header set on the bookshelf’s 304 (spec 4.8, RFC 9110 §15.4.5)', async () => {
      const first = await served.fetch('/v1/books/pride-and-prejudice');
      const etag = first.headers.get('etag');
      expect(etag).not.toBeNull();
      const res = await served.fetch('/v1/books/pride-and-prejudice', {
        headers: { 'if-none-match': etag! },
      });
      expect(res.status).toBe(304);
      expectHeaderSet(res);
    });

    it('sends the header set on a 413 (spec 4.8)', async () => {
      const res = await served.fetch('/v1/books', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ ...dune, title: 'x'.repeat(1_100_000) }),
      });
      expect(res.status).toBe(413);
      expectHeaderSet(res);
    });

    it('sends the header set on an answer to a request line the host cannot route (spec 4.8)', async () => {
      const res = await rawRequest(
        served.port,
        'GET /v1/books/%E0%A4%A HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n',
      );
      expect(res.status).toBe(400);
      expectHeaderSet(res);
    });

    it('sends no HSTS on plain HTTP, even when a client claims HTTPS through an untrusted proxy header (RFC 6797 §7.2)', async () => {
      const res = await served.fetch('/v1/books', { headers: { 'x-forwarded-proto': 'https' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('strict-transport-security')).toBeNull();
    });
  },
);

/** A 304 the way a validator feature makes one: in the send phase, from the final bytes. */
const notModified: Plugin = {
  name: 'not-modified',
  onSend(ctx, sent) {
    if (sent.status === 200 && ctx.headers.get('if-none-match') === '"v1"') {
      sent.status = 304;
      sent.body = null;
    }
  },
};

describeMatrix(
  'security headers on every outcome',
  () =>
    conventions({
      routes: {
        '/v1/docs': {
          GET: {
            handler: () => ok({ page: 'docs' }),
            config: {
              securityHeaders: {
                frameOptions: 'sameorigin',
                contentSecurityPolicy: "default-src 'self'",
                referrerPolicy: 'same-origin',
                crossOriginResourcePolicy: 'cross-origin',
              },
            },
          },
        },
        '/v1/things': { GET: () => ({ things: [], hasNext: false }) },
        '/v1/faults': {
          GET: () => {
            throw new Error('a fault on purpose');
          },
        },
      },
      plugins: [securityHeaders({ xssProtection: '0' }), notModified],
      logger: quiet.logger,
    }),
  (served) => {
    it('sends X-XSS-Protection: 0 when configured so (spec 4.8)', async () => {
      const res = await served.fetch('/v1/things');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-xss-protection')).toBe('0');
      expect(res.headers.get('x-frame-options')).toBe('deny');
    });

    it('sends the header set on a 304 (spec 4.8, RFC 9110 §15.4.5)', async () => {
      const res = await served.fetch('/v1/things', { headers: { 'if-none-match': '"v1"' } });
      expect(res.status).toBe(304);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('x-frame-options')).toBe('deny');
      expect(res.headers.get('content-security-policy')).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
    });

    it('sends the header set on a 500 from a handler (spec 4.8)', async () => {
      const res = await served.fetch('/v1/faults');
      expect(res.status).toBe(500);
      expect(res.headers.get('x-frame-options')).toBe('deny');
      expect(res.headers.get('content-security-policy')).toBe(
        "default-src 'none'; frame-ancestors 'none'",
      );
    });

    it('sends the header set on the host’s own routes and the host’s own errors (spec 4.8)', async () => {
      for (const path of ['/v1/native-plain', '/v1/native-things', '/v1/native-failures']) {
        const res = await served.fetch(path);
        // node:http has no router of its own: there the paths are the table's 404s.
        const status = served.adapter === 'node' ? 404 : path.endsWith('failures') ? 500 : 200;
        expect(res.status, path).toBe(status);
        expect(res.headers.get('x-frame-options'), path).toBe('deny');
        expect(res.headers.get('x-xss-protection'), path).toBe('0');
        expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      }
    });

    it('lets a route change a value of the set and keeps the rest (spec 4.8)', async () => {
      const res = await served.fetch('/v1/docs');
      expect(res.status).toBe(200);
      expect(res.headers.get('x-frame-options')).toBe('sameorigin');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'self'");
      expect(res.headers.get('x-xss-protection')).toBe('0');
      const head = await served.fetch('/v1/docs', { method: 'HEAD' });
      expect(head.headers.get('x-frame-options')).toBe('sameorigin');
    });

    it('sends Referrer-Policy: no-referrer and Cross-Origin-Resource-Policy: same-origin by default, on every outcome', async () => {
      for (const path of ['/v1/things', '/v1/faults', '/v1/nothing-here', '/v1/native-things']) {
        const res = await served.fetch(path);
        expect(res.headers.get('referrer-policy'), path).toBe('no-referrer');
        expect(res.headers.get('cross-origin-resource-policy'), path).toBe('same-origin');
      }
    });

    it('lets a route change Referrer-Policy and Cross-Origin-Resource-Policy', async () => {
      const res = await served.fetch('/v1/docs');
      expect(res.headers.get('referrer-policy')).toBe('same-origin');
      expect(res.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
    });
  },
  ownApi,
);

describeMatrix(
  'Referrer-Policy and Cross-Origin-Resource-Policy by option',
  () =>
    conventions({
      routes: { '/v1/things': { GET: () => ({ things: [], hasNext: false }) } },
      plugins: [
        securityHeaders({
          referrerPolicy: 'strict-origin-when-cross-origin',
          crossOriginResourcePolicy: false,
        }),
      ],
      logger: quiet.logger,
    }),
  (served) => {
    it('sends the configured Referrer-Policy and no Cross-Origin-Resource-Policy when turned off', async () => {
      for (const path of ['/v1/things', '/v1/nothing-here']) {
        const res = await served.fetch(path);
        expect(res.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
        expect(res.headers.get('cross-origin-resource-policy'), path).toBeNull();
        expect(res.headers.get('x-frame-options'), path).toBe('deny');
      }
    });
  },
  ownApi,
);

const pins = [
  'd6qzRu9zOECb90Uez27xWltNsj0e1Md7GkYYkVoZWmM=',
  'E9CZ9INDbd+2eRQozYqqbQ2yXLVKB9+xcprMF+44U1g=',
];

describeMatrix(
  'HSTS, Public-Key-Pins and requireHttps behind a trusted proxy',
  () =>
    conventions({
      routes: { '/v1/things': { GET: () => ({ things: [], hasNext: false }) } },
      plugins: [
        securityHeaders({
          hsts: { maxAge: 600, includeSubDomains: true },
          publicKeyPins: { pins, maxAge: 60 },
          requireHttps: true,
        }),
      ],
      trustProxy: ['loopback'],
    }),
  (served) => {
    const viaHttps = { headers: { 'x-forwarded-for': '192.0.2.1', 'x-forwarded-proto': 'https' } };

    it('refuses a plain-HTTP request with 403 and the error body, without a redirect (spec 4.8)', async () => {
      for (const path of ['/v1/things', '/v1/nothing-here']) {
        const res = await served.fetch(path);
        expect(res.status, path).toBe(403);
        expect(res.headers.get('location')).toBeNull();
        expect(await res.json()).toEqual({
          errors: [
            {
              message:
                'This service accepts HTTPS requests only; send the request again over https://.',
              code: 40302,
            },
          ],
        });
        expect(res.headers.get('strict-transport-security')).toBeNull();
        expectHeaderSet(res);
      }
    });

    it('serves a request a trusted proxy forwarded as HTTPS, with HSTS and the pins (RFC 6797 §8.1, RFC 7469 §2.1)', async () => {
      const res = await served.fetch('/v1/things', viaHttps);
      expect(res.status).toBe(200);
      expect(res.headers.get('strict-transport-security')).toBe('max-age=600; includeSubDomains');
      expect(res.headers.get('public-key-pins')).toBe(
        `pin-sha256="${pins[0]}"; pin-sha256="${pins[1]}"; max-age=60`,
      );
      expectHeaderSet(res);
    });

    it('reads Forwarded: proto=https from a trusted proxy too (RFC 7239 §5.4)', async () => {
      const res = await served.fetch('/v1/things', {
        headers: { forwarded: 'for=192.0.2.1;proto=https' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('strict-transport-security')).toBe('max-age=600; includeSubDomains');
    });

    it('sends HSTS on errors over HTTPS too (RFC 6797 §8.1)', async () => {
      const res = await served.fetch('/v1/nothing-here', viaHttps);
      expect(res.status).toBe(404);
      expect(res.headers.get('strict-transport-security')).toBe('max-age=600; includeSubDomains');
    });
  },
  { plain: true },
);

describeMatrix(
  'requireHttps with no trusted proxy',
  () =>
    conventions({
      routes: { '/v1/things': { GET: () => ({ things: [], hasNext: false }) } },
      plugins: [securityHeaders({ requireHttps: true })],
    }),
  (served) => {
    it('ignores X-Forwarded-Proto from an untrusted peer and refuses the request (spec 4.8)', async () => {
      const res = await served.fetch('/v1/things', { headers: { 'x-forwarded-proto': 'https' } });
      expect(res.status).toBe(403);
      expect((await res.json()).errors[0].code).toBe(40302);
    });
  },
  { plain: true },
);
