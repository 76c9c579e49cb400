import {
  decodeJwt,
  decodeProtectedHeader,
  exportJWK,
  exportPKCS8,
  exportSPKI,
  generateKeyPair,
} from 'jose';
import { describe, expect, it, vi } from 'vitest';
import type { ApiResponse, RequestInput } from '../../src/host.ts';
import {
  bearer,
  conventions,
  createTokenKeys,
  MemoryStore,
  type RequestContext,
  rateLimit,
  type TokenKeys,
} from '../../src/index.ts';
import { issueAccessToken } from '../../src/oauth.ts';

const issuer = 'https://auth.example.com';
const audience = 'https://api.example.com';
const quiet = { error: vi.fn(), warn: vi.fn() };

function req(
  method: string,
  url: string,
  headers: Record<string, string> = {},
  body?: string,
): RequestInput {
  const raw = body === undefined ? undefined : new TextEncoder().encode(body);
  return {
    method,
    url,
    headers: new Headers(headers),
    readBody: raw === undefined ? undefined : () => Promise.resolve(raw),
  };
}

async function app(options: Partial<Parameters<typeof bearer>[0]> = {}) {
  const keys = (await options.keys) ?? (await createTokenKeys({ logger: quiet }));
  const plugin = bearer({ keys, issuer, audience, ...options });
  const api = conventions({
    lint: 'off',
    logger: quiet,
    plugins: [plugin],
    routes: {
      '/v1/me': {
        GET: {
          handler: (ctx: RequestContext) => ({
            ...ctx.identity,
            scopes: [...(ctx.identity?.scopes ?? [])],
          }),
          config: { user: true },
        },
      },
      '/v1/books': {
        GET: (ctx: RequestContext) => ({ books: [], who: ctx.identity?.subject ?? null }),
        POST: {
          handler: (ctx: RequestContext) => ({ body: ctx.body }),
          config: { scopes: ['books:write'], accepts: ['json', 'form'] },
        },
      },
      '/v1/open': { GET: { handler: () => ({ open: true }), config: { auth: false } } },
      '/v1/maybe': {
        GET: {
          handler: (ctx: RequestContext) => ({ who: ctx.identity?.subject ?? null }),
          config: { auth: 'optional' },
        },
      },
    },
  });
  const handle = async (input: RequestInput): Promise<ApiResponse> => api.handle(input);
  const token = async (claims: Partial<Parameters<typeof issueAccessToken>[1]> = {}) =>
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
  return { keys, plugin, handle, token };
}

const body = (r: ApiResponse) => JSON.parse(r.body as string);
const header = (r: ApiResponse, name: string) => r.headers[name];

/** An access token from `keys` for this file's issuer and audience: alice's, no scope, 60 s. */
const issued = (keys: TokenKeys, claims: Partial<Parameters<typeof issueAccessToken>[1]> = {}) =>
  issueAccessToken(keys, {
    issuer,
    audience,
    subject: 'alice',
    clientId: 'c',
    scope: '',
    ttlSeconds: 60,
    ...claims,
  });

describe('createTokenKeys', () => {
  it('generates one development key per process with a loud warning', async () => {
    const warn = vi.fn();
    const a = await createTokenKeys({ logger: { error: vi.fn(), warn } });
    const b = await createTokenKeys({ logger: { error: vi.fn(), warn } });
    expect(warn).toHaveBeenCalledTimes(2);
    expect(warn.mock.calls[0]![0]).toMatch(/DEVELOPMENT TOKEN KEY/);
    expect(a.jwks()).toEqual(b.jwks());
    expect(a.jwks().keys[0]).toMatchObject({
      kty: 'OKP',
      crv: 'Ed25519',
      alg: 'EdDSA',
      use: 'sig',
    });
    expect(a.jwks().keys[0]).not.toHaveProperty('d');
  });

  it('refuses to run without keys in production', async () => {
    await expect(createTokenKeys({ development: false })).rejects.toThrow(TypeError);
  });

  it('shares keys between instances given the same key material', async () => {
    const { privateKey } = await generateKeyPair('ES256', { extractable: true });
    const jwk = await exportJWK(privateKey);
    const one = await createTokenKeys({ keys: [{ privateKey: jwk }] });
    const two = await createTokenKeys({ keys: [{ privateKey: jwk }] });
    expect(one.jwks()).toEqual(two.jwks());
    expect(one.signing.alg).toBe('ES256');
    const { handle } = await app({ keys: two });
    const { token } = await issued(one);
    const r = await handle(req('GET', '/v1/books', { authorization: `Bearer ${token}` }));
    expect(r.status).toBe(200);
  });

  it('reads PEM keys and verifies with a public key alone', async () => {
    const pair = await generateKeyPair('ES256', { extractable: true });
    const signer = await createTokenKeys({
      keys: [{ privateKey: await exportPKCS8(pair.privateKey), alg: 'ES256', kid: 'es-1' }],
    });
    const verifier = await createTokenKeys({
      keys: [
        { publicKey: await exportSPKI(pair.publicKey), alg: 'ES256', kid: 'es-1' },
        { kid: 'hs', secret: 'k'.repeat(32) },
      ],
    });
    expect(verifier.signing.kid).toBe('hs');
    expect(verifier.jwks().keys.map((k) => k.kid)).toEqual(['es-1']);
    const { handle } = await app({ keys: verifier });
    const { token } = await issued(signer);
    expect(
      (await handle(req('GET', '/v1/books', { authorization: `Bearer ${token}` }))).status,
    ).toBe(200);
    await expect(
      createTokenKeys({ keys: [{ publicKey: await exportSPKI(pair.publicKey) }] }),
    ).rejects.toThrow(/alg/);
    // A set of public keys only verifies (an identity provider's keys): it loads, and says why
    // it cannot issue when asked to.
    const verifyOnly = await createTokenKeys({
      keys: [{ publicKey: await exportJWK(pair.publicKey) }],
    });
    expect(verifyOnly.canSign).toBe(false);
    expect(() => verifyOnly.signing).toThrow(/only verifies/);
    await expect(issued(verifyOnly)).rejects.toThrow(/only verifies/);
  });

  it('never publishes an HS256 secret and asks for its kid', async () => {
    await expect(createTokenKeys({ keys: [{ secret: 'x'.repeat(32) }] })).rejects.toThrow(/kid/);
    await expect(createTokenKeys({ keys: [{ kid: 'h', secret: 'short' }] })).rejects.toThrow(
      /32 bytes/,
    );
    const keys = await createTokenKeys({ keys: [{ kid: 'h', secret: 'x'.repeat(32) }] });
    expect(keys.jwks()).toEqual({ keys: [] });
    expect(keys.signing.alg).toBe('HS256');
  });

  it('reports misspelt options', async () => {
    await expect(createTokenKeys({ kyes: [] } as never)).rejects.toThrow(/Did you mean `keys`/);
  });
});

describe('issueAccessToken (RFC 9068 §2)', () => {
  it('makes an at+jwt with every required claim', async () => {
    const keys = await createTokenKeys({ logger: quiet });
    const t = await issueAccessToken(keys, {
      issuer,
      audience,
      subject: 'alice',
      clientId: 'demo-client',
      scope: 'books:read',
      ttlSeconds: 120,
    });
    const header = decodeProtectedHeader(t.token);
    expect(header).toEqual({ alg: 'EdDSA', typ: 'at+jwt', kid: keys.signing.kid });
    const claims = decodeJwt(t.token);
    expect(claims).toMatchObject({
      iss: issuer,
      aud: audience,
      sub: 'alice',
      client_id: 'demo-client',
      scope: 'books:read',
      jti: t.jti,
    });
    expect(claims.exp! - claims.iat!).toBe(120);
    expect(t).toMatchObject({ expiresIn: 120, expiresAt: claims.exp });
  });

  it('names the client as sub when there is no user (RFC 9068 §2.2)', async () => {
    const keys = await createTokenKeys({ logger: quiet });
    const t = await issueAccessToken(keys, {
      issuer,
      audience,
      clientId: 'svc',
      scope: '',
      ttlSeconds: 60,
    });
    expect(decodeJwt(t.token)).toMatchObject({ sub: 'svc', client_id: 'svc' });
  });
});

describe('bearer plugin', () => {
  it('puts the verified identity on ctx.identity', async () => {
    const { handle, token } = await app();
    const r = await handle(req('GET', '/v1/me', { authorization: `Bearer ${await token()}` }));
    expect(r.status).toBe(200);
    expect(body(r)).toMatchObject({
      subject: 'alice',
      clientId: 'demo-client',
      scopes: ['books:read', 'books:write'],
      via: 'bearer',
    });
  });

  it('answers 401 without an error attribute when no token is sent', async () => {
    const { handle } = await app();
    const r = await handle(req('GET', '/v1/books'));
    expect(r.status).toBe(401);
    expect(header(r, 'www-authenticate')).toBe('Bearer realm="api"');
    expect(body(r).errors[0].code).toBe(40100);
  });

  it('skips routes with auth: false and reads optional ones', async () => {
    const { handle, token } = await app();
    expect((await handle(req('GET', '/v1/open'))).status).toBe(200);
    expect(body(await handle(req('GET', '/v1/maybe')))).toEqual({ who: null });
    const r = await handle(req('GET', '/v1/maybe', { authorization: `Bearer ${await token()}` }));
    expect(body(r)).toEqual({ who: 'alice' });
  });

  it('remembers a verified token and still refuses it once expired', async () => {
    let now = Date.now();
    const { handle, token, plugin } = await app({ now: () => now });
    const t = await token({ ttlSeconds: 10, now });
    expect((await handle(req('GET', '/v1/books', { authorization: `Bearer ${t}` }))).status).toBe(
      200,
    );
    expect(plugin.tokenVerifier.size).toBe(1);
    now += 11_000;
    const r = await handle(req('GET', '/v1/books', { authorization: `Bearer ${t}` }));
    expect(r.status).toBe(401);
    expect(header(r, 'www-authenticate')).toMatch(/error="invalid_token"/);
  });

  it('refuses a revoked token at once, cached or not', async () => {
    const { handle, plugin, keys } = await app();
    const t = await issued(keys);
    const auth = { authorization: `Bearer ${t.token}` };
    // Verified on the first request, answered from the cache on the second.
    expect((await handle(req('GET', '/v1/books', auth))).status).toBe(200);
    expect((await handle(req('GET', '/v1/books', auth))).status).toBe(200);
    await plugin.revoke(t.jti, t.expiresAt);
    const r = await handle(req('GET', '/v1/books', auth));
    expect(r.status).toBe(401);
    expect(body(r).errors[0].message).toMatch(/revoked/);
    await expect(plugin.verify(t.token)).rejects.toMatchObject({ status: 401 });
  });

  it('refuses a revoked token that a full cache had let go of', async () => {
    const { handle, plugin, keys } = await app({ cacheSize: 1 });
    const first = await issued(keys);
    const second = await issued(keys, { subject: 'bob' });
    const auth = (t: { token: string }) => ({ authorization: `Bearer ${t.token}` });
    expect((await handle(req('GET', '/v1/books', auth(first)))).status).toBe(200);
    expect((await handle(req('GET', '/v1/books', auth(first)))).status).toBe(200);
    // The cache holds one token: bob's verification makes it forget alice's.
    expect((await handle(req('GET', '/v1/books', auth(second)))).status).toBe(200);
    expect(plugin.tokenVerifier.size).toBe(1);
    await plugin.revoke(first.jti, first.expiresAt);
    const r = await handle(req('GET', '/v1/books', auth(first)));
    expect(r.status).toBe(401);
    expect(body(r).errors[0].message).toMatch(/revoked/);
    expect((await handle(req('GET', '/v1/books', auth(second)))).status).toBe(200);
  });

  it('checks scopes and users per route', async () => {
    const { handle, token } = await app();
    const reader = await token({ scope: 'books:read' });
    const r = await handle(
      req(
        'POST',
        '/v1/books',
        { authorization: `Bearer ${reader}`, 'content-type': 'application/json' },
        '{}',
      ),
    );
    expect(r.status).toBe(403);
    expect(header(r, 'www-authenticate')).toBe(
      'Bearer realm="api", error="insufficient_scope", scope="books:write"',
    );
    const client = await token({ subject: undefined, clientId: 'svc' });
    const me = await handle(req('GET', '/v1/me', { authorization: `Bearer ${client}` }));
    expect(me.status).toBe(403);
    expect(body(me).errors[0].code).toBe(40310);
  });

  it('reads a token from a form body and refuses two methods', async () => {
    const { handle, token } = await app();
    const t = await token();
    const form = { 'content-type': 'application/x-www-form-urlencoded' };
    const ok = await handle(req('POST', '/v1/books', form, `access_token=${t}&title=x`));
    expect(ok.status).toBe(200);
    expect(body(ok)).toEqual({ body: { title: 'x' } });
    const two = await handle(
      req('POST', '/v1/books', { ...form, authorization: `Bearer ${t}` }, `access_token=${t}`),
    );
    expect(two.status).toBe(400);
    expect(header(two, 'www-authenticate')).toBe('Bearer realm="api", error="invalid_request"');
  });

  it('refuses the query token unless enabled, and marks such responses private', async () => {
    const off = await app();
    const t = await off.token();
    expect((await off.handle(req('GET', `/v1/books?access_token=${t}`))).status).toBe(400);
    const on = await app({ query: true, keys: off.keys });
    const r = await on.handle(req('GET', `/v1/books?access_token=${t}`));
    expect(r.status).toBe(200);
    expect(header(r, 'cache-control')).toBe('private');
  });

  it('gives an identity whose scopes cannot change, as later requests share it', async () => {
    const { plugin, token } = await app();
    const identity = await plugin.verify(await token({ scope: 'books:read' }));
    expect(() => (identity.scopes as Set<string>).add('admin')).toThrow(TypeError);
    expect(() => (identity.scopes as Set<string>).delete('books:read')).toThrow(TypeError);
    expect(Object.isFrozen(identity)).toBe(true);
    expect([...identity.scopes]).toEqual(['books:read']);
  });

  it('answers 503 and accepts no token when the revocation store fails', async () => {
    const broken = new MemoryStore();
    broken.get = () => {
      throw new Error('down');
    };
    const { handle, token } = await app({ store: broken });
    const r = await handle(req('GET', '/v1/books', { authorization: `Bearer ${await token()}` }));
    expect(r.status).toBe(503);
  });

  it('names a cached caller before routing for the rate limiter, spending no crypto on others', async () => {
    const keys = await createTokenKeys({ logger: quiet });
    const seen: (string | undefined)[] = [];
    const limiter = {
      name: 'rate-limit',
      onRequest(ctx: RequestContext) {
        seen.push(ctx.hasCredentials ? 'unverified' : ctx.identity?.subject);
      },
    };
    const api = conventions({
      lint: 'off',
      logger: quiet,
      plugins: [limiter, bearer({ keys, issuer, audience })],
      routes: { '/v1/x': { GET: () => ({ ok: true }) } },
    });
    const { token } = await issued(keys);
    const auth = { authorization: `Bearer ${token}` };
    expect((await api.handle(req('GET', '/v1/x', auth))).status).toBe(200);
    expect((await api.handle(req('GET', '/v1/x', auth))).status).toBe(200);
    expect((await api.handle(req('GET', '/v1/x', { authorization: 'Bearer nope' }))).status).toBe(
      401,
    );
    expect((await api.handle(req('GET', '/v1/nothing', auth))).status).toBe(404);
    expect(seen).toEqual(['unverified', 'alice', 'unverified', 'unverified']);
  });

  it('still checks the scopes of a token the cache vouched for before routing (RFC 6750 §3.1)', async () => {
    const keys = await createTokenKeys({ logger: quiet });
    const api = conventions({
      lint: 'off',
      logger: quiet,
      plugins: [
        rateLimit({ policies: [{ limit: 100, window: 60 }] }),
        bearer({ keys, issuer, audience }),
      ],
      routes: {
        '/v1/x': {
          GET: () => ({ ok: true }),
          DELETE: { handler: () => undefined, config: { scopes: ['books:write'] } },
        },
      },
    });
    const { token } = await issued(keys, { scope: 'books:read' });
    const auth = { authorization: `Bearer ${token}` };
    // The first request verifies the token and caches it; the next ones are vouched for.
    expect((await api.handle(req('GET', '/v1/x', auth))).status).toBe(200);
    for (let i = 0; i < 2; i++) {
      const refused = await api.handle(req('DELETE', '/v1/x', auth));
      expect(refused.status).toBe(403);
      expect(header(refused, 'www-authenticate')).toContain('error="insufficient_scope"');
    }
    // A query token beside the vouched header is still two methods at once (RFC 6750 §2).
    const both = await api.handle(req('GET', `/v1/x?access_token=${token}`, auth));
    expect(both.status).toBe(400);
  });

  it('lets the rate limiter count a caller by subject and refused tokens by address', async () => {
    const keys = await createTokenKeys({ logger: quiet });
    const api = conventions({
      lint: 'off',
      logger: quiet,
      plugins: [
        rateLimit({ policies: [{ limit: 3, window: 60 }] }),
        bearer({ keys, issuer, audience }),
      ],
      routes: { '/v1/x': { GET: () => ({ ok: true }) } },
    });
    const { token } = await issued(keys);
    const send = (authorization?: string) =>
      api.handle({
        method: 'GET',
        url: '/v1/x',
        headers: new Headers(authorization ? { authorization } : {}),
        remoteAddress: '203.0.113.9',
      });
    const remaining = async (authorization?: string) => {
      const r = await send(authorization);
      return [r.status, r.headers['x-ratelimit-remaining']];
    };
    // A token is counted as its subject, seen before or not (verified first, then counted).
    expect(await remaining(`Bearer ${token}`)).toEqual([200, '2']);
    expect(await remaining(`Bearer ${token}`)).toEqual([200, '1']);
    // Made-up tokens count against the address, in a budget of their own; once it is spent
    // they meet 429 before any signature check.
    for (let n = 0; n < 3; n++) expect(await remaining('Bearer a.b.c')).toEqual([401, undefined]);
    expect((await send('Bearer a.b.c')).status).toBe(429);
    // The known caller keeps its own count, and requests without credentials theirs.
    expect(await remaining(`Bearer ${token}`)).toEqual([200, '0']);
    expect(await remaining()).toEqual([401, '2']);
  });

  it('takes the promise of the keys, so an app can be built synchronously', async () => {
    const keys = createTokenKeys({ logger: quiet });
    const plugin = bearer({ keys, issuer, audience });
    const api = conventions({
      lint: 'off',
      logger: quiet,
      plugins: [plugin],
      routes: { '/v1/x': { GET: () => ({ ok: true }) } },
    });
    const { token } = await issued(await keys);
    const r = await api.handle(req('GET', '/v1/x', { authorization: `Bearer ${token}` }));
    expect(r.status).toBe(200);
    expect(await plugin.keys).toBe(await keys);
  });

  it('rejects bad route settings at start-up', async () => {
    const keys = await createTokenKeys({ logger: quiet });
    const plugin = bearer({ keys, issuer, audience });
    expect(() =>
      conventions({
        lint: 'off',
        plugins: [plugin],
        routes: { '/x': { GET: { handler: () => ({}), config: { scopes: ['a b'] } } } },
      }),
    ).toThrow(/scopes/);
    expect(() =>
      conventions({
        lint: 'off',
        plugins: [plugin],
        routes: { '/x': { GET: { handler: () => ({}), config: { auth: false, user: true } } } },
      }),
    ).toThrow(/auth: false/);
    expect(() => bearer({ keys, issuer } as never)).toThrow(/audience/);
    expect(() => bearer({ keys: {} as TokenKeys, issuer, audience })).toThrow(/createTokenKeys/);
  });
});
