/**
 * The bearer checks (RFC 6750) give the same answers on every host: the challenge header, the
 * error body, a token from the header, a form body or the query, scopes and users per route.
 * A small API of its own, so the suite does not depend on how the bookshelf is wired.
 */
import { expect, it } from 'vitest';
import { bearer, conventions, createTokenKeys, type RequestContext } from '../../src/index.ts';
import { issueAccessToken } from '../../src/oauth.ts';
import { describeMatrix } from './_matrix.ts';

const issuer = 'https://auth.example.com';
const audience = 'https://api.example.com';
const quiet = { error: () => {}, warn: () => {} };
const keys = await createTokenKeys({ logger: quiet });
const realm = 'shelf "test"';
const challenge = 'Bearer realm="shelf \\"test\\""';

function build() {
  return conventions({
    lint: 'off',
    logger: quiet,
    plugins: [bearer({ keys, issuer, audience, realm, query: true })],
    routes: {
      '/v1/books': {
        GET: (ctx: RequestContext) => ({
          books: [],
          hasNext: false,
          subject: ctx.identity?.subject ?? null,
          scopes: [...(ctx.identity?.scopes ?? [])],
        }),
        POST: {
          handler: (ctx: RequestContext) => ({ received: ctx.body as object }),
          config: { accepts: ['json', 'form'], scopes: ['books:write'] },
        },
      },
      '/v1/me': {
        GET: {
          handler: (ctx: RequestContext) => ({ id: ctx.identity?.subject }),
          config: { user: true },
        },
      },
      '/v1/status': { GET: { handler: () => ({ up: true }), config: { auth: false } } },
    },
  });
}

const token = async (
  claims: {
    subject?: string | undefined;
    clientId?: string;
    scope?: string;
    ttlSeconds?: number;
    now?: number;
  } = {},
) =>
  (
    await issueAccessToken(keys, {
      issuer,
      audience,
      subject: 'alice',
      clientId: 'demo-client',
      scope: 'books:read books:write',
      ttlSeconds: 60,
      ...claims,
    })
  ).token;

const bearerOf = (t: string) => ({ authorization: `Bearer ${t}` });
const form = 'application/x-www-form-urlencoded';

describeMatrix('bearer checks (RFC 6750)', build, (served) => {
  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') =>
    served.fetchAs('anonymous', path, { method, headers });

  it('answers 401 with a Bearer challenge, no error attribute and the error body when no token is sent (RFC 6750 §3.1, spec 5.8)', async () => {
    const res = await get('/v1/books');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(challenge);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await res.json()).errors[0].code).toBe(40100);
  });

  it('answers HEAD without a token with 401 and the challenge', async () => {
    const res = await get('/v1/books', {}, 'HEAD');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe(challenge);
  });

  it('serves a route with auth: false without a token', async () => {
    expect((await get('/v1/status')).status).toBe(200);
  });

  it('accepts the token in the Authorization header, scheme in any case, and puts the identity on the context (RFC 6750 §2.1)', async () => {
    const t = await token();
    for (const scheme of ['Bearer', 'bearer']) {
      const res = await get('/v1/books', { authorization: `${scheme} ${t}` });
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({
        subject: 'alice',
        scopes: ['books:read', 'books:write'],
      });
    }
  });

  it('answers 401 invalid_token to a forged token (RFC 6750 §3.1)', async () => {
    const t = await token();
    const [h, p, s] = t.split('.');
    // The first character of the signature carries six whole bits: changing it changes the signature.
    const forged = `${h}.${p}.${s![0] === 'A' ? 'B' : 'A'}${s!.slice(1)}`;
    const res = await get('/v1/books', bearerOf(forged));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(
      /^Bearer realm="shelf \\"test\\"", error="invalid_token", error_description="[^"\\]*"$/,
    );
    expect((await res.json()).errors[0].code).toBe(40101);
  });

  it('answers 401 invalid_token to an expired token (spec 5.6)', async () => {
    const t = await token({ ttlSeconds: 60, now: Date.now() - 120_000 });
    const res = await get('/v1/books', bearerOf(t));
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it('answers 403 insufficient_scope naming the scope (RFC 6750 §3.1, spec 5.8)', async () => {
    const t = await token({ scope: 'books:read' });
    const res = await served.fetchAs('anonymous', '/v1/books', {
      method: 'POST',
      headers: { ...bearerOf(t), 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(
      `${challenge}, error="insufficient_scope", scope="books:write"`,
    );
    expect((await res.json()).errors[0].code).toBe(40301);
  });

  it('answers 403 to a client-credentials token on a route that needs a user', async () => {
    const res = await get('/v1/me', bearerOf(await token({ subject: undefined, clientId: 'svc' })));
    expect(res.status).toBe(403);
    expect((await res.json()).errors[0].code).toBe(40310);
    expect((await get('/v1/me', bearerOf(await token()))).status).toBe(200);
  });

  it('reads the token from a form body and hides it from the handler (RFC 6750 §2.2)', async () => {
    const t = await token();
    const res = await served.fetchAs('anonymous', '/v1/books', {
      method: 'POST',
      headers: { 'content-type': form },
      body: `title=Dune&access_token=${t}`,
    });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: { title: 'Dune' } });
  });

  it('answers 400 invalid_request to a token sent two ways (RFC 6750 §3.1)', async () => {
    const t = await token();
    const res = await served.fetchAs('anonymous', '/v1/books', {
      method: 'POST',
      headers: { ...bearerOf(t), 'content-type': form },
      body: `access_token=${t}`,
    });
    expect(res.status).toBe(400);
    expect(res.headers.get('www-authenticate')).toBe(`${challenge}, error="invalid_request"`);
    const query = await get(`/v1/books?access_token=${t}`, bearerOf(t));
    expect(query.status).toBe(400);
  });

  it('accepts the query token when enabled and answers Cache-Control: private (RFC 6750 §2.3)', async () => {
    const res = await get(`/v1/books?access_token=${await token()}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private');
  });
});
