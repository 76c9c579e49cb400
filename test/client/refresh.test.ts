/**
 * api-conventions/client: OAuth tokens of two seconds, refreshed as they lapse, on every host of
 * the bookshelf through a counting proxy of the tests' own.
 */
import { createClient } from 'api-conventions/client';
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix } from '../conformance/_matrix.ts';
import { alice } from './_credentials.ts';
import { proxyFor } from './_proxy.ts';

/** `fetch` that tells the client its access tokens last `seconds` (`expires_in`), not two. */
const tokensOf =
  (seconds: number): typeof fetch =>
  async (input, init) => {
    const res = await fetch(input, init);
    if (!String(input).endsWith('/v1/oauth2/token') || !res.ok) return res;
    const body = (await res.json()) as Record<string, unknown>;
    return Response.json({ ...body, expires_in: seconds }, { status: res.status });
  };

describeMatrix(
  'the client with 2-second access tokens',
  () => createBookshelf({ logger: { error() {}, warn() {} }, oauth: { tokenTtl: 2 } }),
  (served) => {
    const proxy = proxyFor(served);
    const client = () => createClient({ baseUrl: proxy.url, oauth: alice });

    it('keeps calls succeeding over 10 s of 2-second tokens through refreshes (RFC 6749 §6, RFC 6750 §3.1)', async () => {
      const c = client();
      const from = proxy.seen.length;
      const started = Date.now();
      let calls = 0;
      while (Date.now() - started < 10_000) {
        await c.get('/v1/me');
        calls++;
        await new Promise((r) => setTimeout(r, 250));
      }
      expect(calls).toBeGreaterThan(10);
      const grants = proxy
        .since(from, (s) => s.target === '/v1/oauth2/token')
        .map((s) => new URLSearchParams(s.body).get('grant_type'));
      expect(grants[0]).toBe('password');
      expect(grants.filter((g) => g === 'refresh_token').length).toBeGreaterThanOrEqual(3);
      // Each call was answered 200, or 304 from the cache; a 401 was renewed and retried.
      const statuses = new Set(
        proxy.since(from, (s) => s.target === '/v1/me').map((s) => s.status),
      );
      expect([...statuses].every((s) => [200, 304, 401].includes(s))).toBe(true);
    }, 30_000);

    it('renews a token before it expires, so no call is refused for it (RFC 6749 §6)', async () => {
      // Told one second, the client renews after 0.75 s; the service's token lives at least 1 s
      // (its exp is a whole second, two after the issuing second). So a 401 here means the
      // client kept a token past the end it knew of.
      const c = createClient({ baseUrl: proxy.url, oauth: alice, fetch: tokensOf(1) });
      const from = proxy.seen.length;
      const started = Date.now();
      while (Date.now() - started < 4_000) {
        await c.get('/v1/me');
        await new Promise((r) => setTimeout(r, 100));
      }
      const grants = proxy
        .since(from, (s) => s.target === '/v1/oauth2/token')
        .map((s) => new URLSearchParams(s.body).get('grant_type'));
      expect(grants.filter((g) => g === 'refresh_token').length).toBeGreaterThanOrEqual(3);
      const refused = proxy.since(from, (s) => s.target === '/v1/me' && s.status === 401);
      expect(refused).toEqual([]);
    }, 15_000);

    it('refreshes once after invalid_token and retries the call (RFC 6750 §3.1)', async () => {
      // The client is told its tokens last an hour, so it never renews one before it lapses:
      // only the service's invalid_token can make it refresh. (With the true two seconds, it
      // renews ahead of time and the test would pass without the refresh after a 401.)
      const c = createClient({ baseUrl: proxy.url, oauth: alice, fetch: tokensOf(3600) });
      await c.get('/v1/me');
      await new Promise((r) => setTimeout(r, 2100));
      const from = proxy.seen.length;
      const me = await c.get<{ id: string }>('/v1/me');
      expect(me.id).toBe('alice');
      const grants = proxy.since(from, (s) => s.target === '/v1/oauth2/token');
      expect(grants.map((s) => new URLSearchParams(s.body).get('grant_type'))).toEqual([
        'refresh_token',
      ]);
      const calls = proxy.since(from, (s) => s.target === '/v1/me').map((s) => s.status);
      // Refused, then retried with the new token (a conditional GET: 200, or 304 from the cache).
      expect(calls).toHaveLength(2);
      expect(calls[0]).toBe(401);
      expect([200, 304]).toContain(calls[1]);
    });
  },
  { hostsAtOnce: true },
);
