/**
 * One spelling per token: base64url with non-zero spare bits in its last character is refused
 * wherever the library decodes it (RFC 4648 §3.5), so a token cannot be re-spelt past a cache
 * entry or a blocklist keyed on its text.
 */
import { conventions, csrf, type RequestContext, readCookie } from 'api-conventions';
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { linkTargets } from './_links.ts';
import { describeMatrix } from './_matrix.ts';
import { ownApi } from './_security.ts';

const quiet = { logger: { error() {}, warn() {} } };
const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** The other spellings of base64url `text` that differ only in its last character's spare bits. */
function respellings(text: string): string[] {
  const spare = text.length % 4 === 2 ? 4 : text.length % 4 === 3 ? 2 : 0;
  const last = alphabet.indexOf(text[text.length - 1]!);
  return Array.from(
    { length: (1 << spare) - 1 },
    (_, i) => text.slice(0, -1) + alphabet[last | (i + 1)],
  );
}

describeMatrix(
  'base64url spelt one way only',
  () => createBookshelf(quiet),
  (served) => {
    it('answers an access token whose signature is re-spelt in its spare bits with 401 invalid_token (RFC 4648 §3.5, RFC 6750 §3.1)', async () => {
      const token = (await served.authorization('alice'))!.slice('Bearer '.length);
      const dot = token.lastIndexOf('.');
      const others = respellings(token.slice(dot + 1)).map((sig) => token.slice(0, dot + 1) + sig);
      // An Ed25519 signature is 64 bytes: 86 characters, the last with 4 spare bits.
      expect(others).toHaveLength(15);
      for (const other of others) {
        const res = await served.fetchAs('anonymous', '/v1/me', {
          headers: { authorization: `Bearer ${other}` },
        });
        expect(res.status, other.slice(-4)).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
      }
      const own = await served.fetchAs('anonymous', '/v1/me', {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(own.status).toBe(200);
    });

    it('refuses a refresh token re-spelt in its spare bits with invalid_grant, and keeps the real one (RFC 6749 §5.2)', async () => {
      const demo = `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`;
      const token = (body: string) =>
        served.fetchAs('anonymous', '/v1/oauth2/token', {
          method: 'POST',
          headers: { authorization: demo, 'content-type': 'application/x-www-form-urlencoded' },
          body,
        });
      const login = await token('grant_type=password&username=bob&password=builder');
      const refresh = (await login.json()).refresh_token as string;
      // Its family's place, then 32 random bytes: 43 characters, the last with 2 spare bits.
      const dot = refresh.lastIndexOf('.');
      const others = respellings(refresh.slice(dot + 1)).map((r) => refresh.slice(0, dot + 1) + r);
      expect(others).toHaveLength(3);
      for (const other of others) {
        const res = await token(`grant_type=refresh_token&refresh_token=${other}`);
        expect(res.status).toBe(400);
        expect((await res.json()).error).toBe('invalid_grant');
      }
      expect((await token(`grant_type=refresh_token&refresh_token=${refresh}`)).status).toBe(200);
    });

    it('answers a cursor whose MAC is re-spelt in its spare bits with 400 (spec 4.4, RFC 4648 §3.5)', async () => {
      const res = await served.fetch('/v1/books?after=&limit=3');
      const next = linkTargets(res.headers.get('link')).next!;
      const cursor = new URL(next, 'http://x').searchParams.get('after')!;
      for (const other of respellings(cursor)) {
        const altered = await served.fetch(`/v1/books?after=${other}&limit=3`);
        expect(altered.status).toBe(400);
        expect((await altered.json()).errors[0].code).toBe(40011);
      }
      expect((await served.fetch(`/v1/books?after=${cursor}&limit=3`)).status).toBe(200);
    });
  },
);

const secret = 'a test secret of thirty-two bytes or more, never used in production';

describeMatrix(
  'CSRF tokens spelt one way only',
  () => {
    const protection = csrf({ secret });
    const session = (ctx: RequestContext) =>
      readCookie(ctx.headers.get('cookie'), '__Host-session') ?? 'none';
    return conventions({
      routes: {
        '/v1/csrf-token': {
          GET: async (ctx) => ({ token: await protection.issueToken(session(ctx)) }),
        },
        '/v1/notes': { POST: () => ({ saved: true }) },
      },
      plugins: [protection],
    });
  },
  (served) => {
    it('answers a session token whose MAC is re-spelt in its spare bits with 403 (spec 4.8, RFC 4648 §3.5)', async () => {
      const cookie = { cookie: '__Host-session=alice-1' };
      const { token } = await (await served.fetch('/v1/csrf-token', { headers: cookie })).json();
      const post = (csrfToken: string) =>
        served.fetch('/v1/notes', {
          method: 'POST',
          headers: { ...cookie, 'content-type': 'application/json', 'x-csrf-token': csrfToken },
          body: '{}',
        });
      // An HMAC-SHA-256 is 32 bytes: 43 characters, the last with 2 spare bits.
      const [kind, mask, mac] = token.split('.');
      const others = respellings(mac).map((m) => `${kind}.${mask}.${m}`);
      expect(others).toHaveLength(3);
      for (const other of others) {
        const res = await post(other);
        expect(res.status).toBe(403);
        expect((await res.json()).errors[0].code).toBe(40306);
      }
      expect((await post(token)).status).toBe(200);
    });
  },
  ownApi,
);
