/** The bookshelf behind bearer tokens: the contract's clients, users, scopes and /v1/me (spec 5). */
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix, type Served } from './_matrix.ts';

const quiet = { logger: { error() {}, warn() {} } };
const demo = `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`;
const json = { 'content-type': 'application/json' };

async function tokenFor(served: Served, body: string) {
  const res = await served.fetchAs('anonymous', '/v1/oauth2/token', {
    method: 'POST',
    headers: { authorization: demo, 'content-type': 'application/x-www-form-urlencoded' },
    body,
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { access_token: string; refresh_token?: string; expires_in: number };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

describeMatrix(
  'the bookshelf behind bearer tokens',
  () => createBookshelf(quiet),
  (served) => {
    it('answers a /v1 resource without a token with 401 and WWW-Authenticate: Bearer (spec 5.8, RFC 6750 §3)', async () => {
      for (const path of ['/v1/books', '/v1/books/emma', '/v1/me']) {
        const res = await served.fetchAs('anonymous', path);
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Bearer realm="[^"]+"$/);
        expect((await res.json()).errors[0].code).toBe(40100);
      }
    });

    it('leaves the OAuth endpoints open (spec 4.9, RFC 8414 §3)', async () => {
      for (const path of ['/.well-known/oauth-authorization-server', '/v1/oauth2/jwks']) {
        const res = await served.fetchAs('anonymous', path);
        expect(res.status).toBe(200);
      }
      const jwks = await (await served.fetchAs('anonymous', '/v1/oauth2/jwks')).json();
      expect(jwks.keys[0]).toMatchObject({ kid: expect.any(String), use: 'sig' });
      expect(jwks.keys[0].d).toBeUndefined();
    });

    it('gives alice her user and scopes at /v1/me', async () => {
      const res = await served.fetch('/v1/me');
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({
        id: 'alice',
        clientId: 'demo-client',
        scopes: ['books:read', 'books:write'],
      });
    });

    it('answers /v1/me with 403 for a token without a user (spec 5.8)', async () => {
      const { access_token } = await tokenFor(served, 'grant_type=client_credentials');
      const res = await served.fetchAs('anonymous', '/v1/me', { headers: bearer(access_token) });
      expect(res.status).toBe(403);
    });

    it('lets a client-credentials token read books, the public scope, and not write (spec 5.4)', async () => {
      const { access_token } = await tokenFor(served, 'grant_type=client_credentials');
      const read = await served.fetchAs('anonymous', '/v1/books', {
        headers: bearer(access_token),
      });
      expect(read.status).toBe(200);
      const write = await served.fetchAs('anonymous', '/v1/books', {
        method: 'POST',
        headers: { ...bearer(access_token), ...json },
        body: JSON.stringify({ title: 'Dune', authorId: 'frank-herbert', year: 1965 }),
      });
      expect(write.status).toBe(403);
      expect(write.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
      expect(write.headers.get('www-authenticate')).toContain('scope="books:write"');
    });

    it('lets bob read but not write books; alice may write (books:read, books:write)', async () => {
      const body = JSON.stringify({ title: 'Dune', authorId: 'frank-herbert', year: 1965 });
      expect((await served.fetchAs('bob', '/v1/books')).status).toBe(200);
      const bob = await served.fetchAs('bob', '/v1/books', { method: 'POST', headers: json, body });
      expect(bob.status).toBe(403);
      expect((await bob.json()).errors[0].code).toBe(40301);
      const bobDelete = await served.fetchAs('bob', '/v1/books/emma', { method: 'DELETE' });
      expect(bobDelete.status).toBe(403);
      const alice = await served.fetch('/v1/books', { method: 'POST', headers: json, body });
      expect(alice.status).toBe(201);
    });

    it('refuses a revoked access token with 401 invalid_token (RFC 7009 §2, spec 5.6)', async () => {
      const { access_token } = await tokenFor(
        served,
        'grant_type=password&username=bob&password=builder',
      );
      expect(
        (await served.fetchAs('anonymous', '/v1/books', { headers: bearer(access_token) })).status,
      ).toBe(200);
      const revoked = await served.fetchAs('anonymous', '/v1/oauth2/revoke', {
        method: 'POST',
        headers: { authorization: demo, 'content-type': 'application/x-www-form-urlencoded' },
        body: `token=${access_token}`,
      });
      expect(revoked.status).toBe(200);
      const res = await served.fetchAs('anonymous', '/v1/books', { headers: bearer(access_token) });
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    });
  },
);

describeMatrix(
  'the bookshelf with a short TOKEN_TTL',
  () => createBookshelf({ ...quiet, oauth: { tokenTtl: 2 } }),
  (served) => {
    it('answers an expired token with 401 invalid_token, and the refresh token gets a new one (spec 5.6, 5.7)', async () => {
      const first = await tokenFor(
        served,
        'grant_type=password&username=alice&password=wonderland',
      );
      // Two seconds, not one: `exp` is whole seconds, so a one-second token issued late in a
      // second could expire before the refreshed one is used on a busy machine.
      expect(first.expires_in).toBe(2);
      await new Promise((r) => setTimeout(r, 3100));
      const expired = await served.fetchAs('anonymous', '/v1/books', {
        headers: bearer(first.access_token),
      });
      expect(expired.status).toBe(401);
      expect(expired.headers.get('www-authenticate')).toContain('error="invalid_token"');
      const next = await tokenFor(
        served,
        `grant_type=refresh_token&refresh_token=${first.refresh_token}`,
      );
      const again = await served.fetchAs('anonymous', '/v1/books', {
        headers: bearer(next.access_token),
      });
      expect(again.status).toBe(200);
    });
  },
);
