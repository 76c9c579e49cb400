/**
 * The app's own routes are first-class: on every host with a router of its own, a
 * route the app declares itself (`GET /v1/native` with a scope, `GET /v1/native-public` with
 * `auth: false`, examples/bookshelf/app-routes.ts) gets what a table route gets: the bearer
 * checks and challenge (RFC 6750 §3), the rate limit counted by identity, the CORS preflight from
 * the route view, the always-on headers; its handler reads the caller through the host's accessor.
 */
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix } from './_matrix.ts';

const origin = 'https://app.example.com';

describeMatrix(
  'app-owned routes',
  () =>
    createBookshelf({
      logger: { error() {}, warn() {} },
      security: { extraOrigins: [origin] },
    }),
  (served) => {
    it('answers 401 with the Bearer challenge without a token (RFC 6750 §3)', async () => {
      const res = await served.fetchAs('anonymous', '/v1/native');
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="[^"]+"$/);
      expect((await res.json()).errors[0].code).toBe(40100);
    });

    it('answers 200 with a token, the handler reading the verified identity', async () => {
      const res = await served.fetchAs('alice', '/v1/native');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        native: true,
        subject: 'alice',
        scopes: ['books:read', 'books:write'],
      });
    });

    it('answers 403 insufficient_scope for a token without the route’s scope (RFC 6750 §3.1)', async () => {
      const res = await served.fetchAs('bob', '/v1/native');
      expect(res.status).toBe(403);
      expect(res.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
      expect(res.headers.get('www-authenticate')).toContain('scope="books:write"');
    });

    it('lets a route that says auth: false through without a token', async () => {
      const res = await served.fetchAs('anonymous', '/v1/native-public');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ native: true, subject: null, scopes: [] });
    });

    it('answers a preflight with Authorization with Allow-Methods and Allow-Headers (spec 4.8)', async () => {
      const res = await served.fetchAs('anonymous', '/v1/native', {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'GET',
          'access-control-request-headers': 'authorization',
        },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS');
      expect(res.headers.get('access-control-allow-headers')?.toLowerCase()).toContain(
        'authorization',
      );
    });

    it('gives a cross-origin answer the CORS headers', async () => {
      const res = await served.fetchAs('alice', '/v1/native', { headers: { origin } });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('vary')).toContain('Origin');
    });

    it('counts the caller by identity and sends the rate-limit headers (spec 8)', async () => {
      const first = await served.fetchAs('alice', '/v1/native');
      const second = await served.fetchAs('alice', '/v1/native');
      const limit = Number(first.headers.get('x-ratelimit-limit'));
      expect(limit).toBeGreaterThan(0);
      expect(Number(second.headers.get('x-ratelimit-remaining'))).toBe(
        Number(first.headers.get('x-ratelimit-remaining')) - 1,
      );
      // bob is counted on his own budget, not alice's (nor the network's).
      const bob = await served.fetchAs('bob', '/v1/books');
      expect(Number(bob.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(
        Number(second.headers.get('x-ratelimit-remaining')),
      );
    });

    it('sends the always-on and security headers (spec 4.8)', async () => {
      for (const user of ['alice', 'anonymous'] as const) {
        const res = await served.fetchAs(user, '/v1/native');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      }
    });

    it('answers a wrong method on an app route 405 with Allow from the route view', async () => {
      const res = await served.fetchAs('alice', '/v1/native', { method: 'DELETE' });
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toBe('GET, HEAD, OPTIONS');
    });
  },
  { only: ['express', 'express4', 'fastify', 'fetch', 'koa'] },
);
