/**
 * Compliance of the bearer checks: RFC 6750 (bearer usage), RFC 9068 (JWT access tokens) and
 * RFC 8725 (JWT best practices). Every refusal is also checked while a valid copy of the same
 * token sits in the verified-token cache.
 */
import { createHmac, sign as cryptoSign, KeyObject } from 'node:crypto';
import { exportJWK, exportSPKI, generateKeyPair, SignJWT } from 'jose';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiResponse, RequestInput } from '../../src/host.ts';
import {
  type BearerPlugin,
  bearer,
  conventions,
  createTokenKeys,
  type RequestContext,
  rateLimit,
  type TokenKeys,
} from '../../src/index.ts';
import { issueAccessToken } from '../../src/oauth.ts';

const issuer = 'https://auth.example.com';
const audience = 'https://api.example.com';
const quiet = { error: vi.fn(), warn: vi.fn() };

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

function request(
  headers: Record<string, string> = {},
  url = '/v1/books',
  method = 'GET',
  body?: string,
): RequestInput {
  const raw = body === undefined ? undefined : new TextEncoder().encode(body);
  return {
    method,
    url,
    headers: new Headers(headers),
    readBody: raw && (() => Promise.resolve(raw)),
  };
}

const asymmetric = await createTokenKeys({ logger: quiet });
const hmac = await createTokenKeys({ keys: [{ kid: 'hs-1', secret: 'k'.repeat(40) }] });

interface Setup {
  keys: TokenKeys;
  plugin: BearerPlugin;
  send(
    headers?: Record<string, string>,
    url?: string,
    method?: string,
    body?: string,
  ): Promise<ApiResponse>;
  good(): Promise<{ token: string; jti: string; expiresAt: number }>;
  sign(payload: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>;
}

function setup(keys: TokenKeys, extra: Partial<Parameters<typeof bearer>[0]> = {}): Setup {
  const plugin = bearer({ keys, issuer, audience, ...extra });
  const api = conventions({
    lint: 'off',
    logger: quiet,
    plugins: [plugin],
    routes: {
      '/v1/books': {
        GET: (ctx: RequestContext) => ({ books: [], by: ctx.identity?.subject ?? null }),
        POST: {
          handler: () => ({ ok: true }),
          config: { accepts: ['form', 'json'], scopes: ['books:write'] },
        },
      },
      '/v1/me': { GET: { handler: () => ({ ok: true }), config: { user: true } } },
    },
  });
  const claims = () => ({
    iss: issuer,
    aud: audience,
    sub: 'alice',
    client_id: 'demo-client',
    scope: 'books:read books:write',
    jti: crypto.randomUUID(),
    iat: Math.floor(Date.now() / 1000),
    exp: Math.floor(Date.now() / 1000) + 60,
  });
  return {
    keys,
    plugin,
    send: async (headers, url, method, body) => api.handle(request(headers, url, method, body)),
    good: () =>
      issueAccessToken(keys, {
        issuer,
        audience,
        subject: 'alice',
        clientId: 'demo-client',
        scope: 'books:read books:write',
        ttlSeconds: 60,
      }),
    sign: (payload, header = {}) =>
      new SignJWT({ ...claims(), ...payload })
        .setProtectedHeader({
          alg: keys.signing.alg,
          kid: keys.signing.kid,
          typ: 'at+jwt',
          ...header,
        })
        .sign(keys.signing.signKey!),
  };
}

const bearerOf = (token: string) => ({ authorization: `Bearer ${token}` });
const parse = (r: ApiResponse) => JSON.parse(r.body as string);

function expectInvalidToken(r: ApiResponse): void {
  expect(r.status).toBe(401);
  expect(r.headers['www-authenticate']).toMatch(
    /^Bearer realm="api", error="invalid_token", error_description="[^"]*"$/,
  );
  expect(parse(r).errors[0].code).toBe(40101);
}

/** Sends a valid token first, so it is cached, then `bad`; `bad` must be refused either way. */
async function refusedEvenWhenCached(s: Setup, bad: (good: string) => Promise<string> | string) {
  const { token } = await s.good();
  expect((await s.send(bearerOf(token))).status).toBe(200);
  expect(s.plugin.tokenVerifier.size).toBeGreaterThan(0);
  const forged = await bad(token);
  expect(forged).not.toBe(token);
  expectInvalidToken(await s.send(bearerOf(forged)));
  // The valid copy still works: the refusal did not poison the cache.
  expect((await s.send(bearerOf(token))).status).toBe(200);
}

describe.each([
  ['EdDSA', asymmetric],
  ['HS256', hmac],
])('bearer checks with %s keys', (_alg, keys) => {
  let s: Setup;
  beforeEach(() => {
    s = setup(keys);
  });

  describe('RFC 6750 §2.1 Authorization header', () => {
    it('accepts the Bearer scheme in any case (RFC 6750 §2.1, RFC 9110 §11.1)', async () => {
      const { token } = await s.good();
      for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR']) {
        const r = await s.send({ authorization: `${scheme} ${token}` });
        expect(r.status, scheme).toBe(200);
      }
    });

    it('answers 401 with a challenge without an error attribute when no token is sent (RFC 6750 §3.1)', async () => {
      for (const headers of [{}, { authorization: 'Basic ZGVtbzpzZWNyZXQ=' }] as Record<
        string,
        string
      >[]) {
        const r = await s.send(headers);
        expect(r.status).toBe(401);
        expect(r.headers['www-authenticate']).toBe('Bearer realm="api"');
        expect(parse(r).errors[0].code).toBe(40100);
      }
    });

    it('answers 400 invalid_request for Bearer without a token and for two joined headers (RFC 6750 §3.1)', async () => {
      const { token } = await s.good();
      for (const authorization of ['Bearer', 'Bearer   ', `Bearer ${token}, Bearer ${token}`]) {
        const r = await s.send({ authorization });
        expect(r.status, authorization).toBe(400);
        expect(r.headers['www-authenticate']).toBe('Bearer realm="api", error="invalid_request"');
      }
    });
  });

  describe('RFC 6750 §2.2 form body and §2.3 query', () => {
    const form = { 'content-type': 'application/x-www-form-urlencoded' };

    it('reads access_token from a form-urlencoded body (RFC 6750 §2.2)', async () => {
      const { token } = await s.good();
      const r = await s.send(form, '/v1/books', 'POST', `access_token=${token}`);
      expect(r.status).toBe(200);
    });

    it('refuses a token sent in the header and the body at once with 400 invalid_request (RFC 6750 §3.1)', async () => {
      const { token } = await s.good();
      const r = await s.send(
        { ...form, ...bearerOf(token) },
        '/v1/books',
        'POST',
        `access_token=${token}`,
      );
      expect(r.status).toBe(400);
      expect(r.headers['www-authenticate']).toMatch(/error="invalid_request"/);
    });

    it('refuses access_token twice in a body (RFC 6750 §3.1 invalid_request)', async () => {
      const { token } = await s.good();
      const parsed = {
        method: 'POST',
        url: '/v1/books',
        headers: new Headers(form),
        parsedBody: { value: { access_token: [token, token] } },
      };
      const plugin = s.plugin;
      const api = conventions({
        lint: 'off',
        logger: quiet,
        plugins: [bearer({ keys: plugin.keys, issuer, audience })],
        routes: { '/v1/books': { POST: { handler: () => ({}), config: { accepts: ['form'] } } } },
      });
      const r = await api.handle(parsed);
      expect(r.status).toBe(400);
    });

    it('reads a form token only on a route that reads form bodies, never on GET (RFC 6750 §2.2)', async () => {
      const { token } = await s.good();
      const r = await s.send(form, '/v1/books', 'GET', `access_token=${token}`);
      expect(r.status).toBe(401);
    });

    it('refuses a query token unless enabled, and marks answers private when enabled (RFC 6750 §2.3)', async () => {
      const { token } = await s.good();
      expect((await s.send({}, `/v1/books?access_token=${token}`)).status).toBe(400);
      const on = setup(keys, { query: true });
      const r = await on.send({}, `/v1/books?access_token=${token}`);
      expect(r.status).toBe(200);
      expect(r.headers['cache-control']).toBe('private');
      const twice = await on.send(bearerOf(token), `/v1/books?access_token=${token}`);
      expect(twice.status).toBe(400);
    });

    it('refuses a query token beside a header token the cache already vouched for (RFC 6750 §2)', async () => {
      const { token } = await s.good();
      // The rate limiter asks whether the request presents credentials: the cache vouches for
      // the header's token there, before authentication.
      const api = conventions({
        lint: 'off',
        logger: quiet,
        plugins: [
          rateLimit({ policies: [{ limit: 1000, window: 60 }] }),
          bearer({ keys: s.keys, issuer, audience, query: true }),
        ],
        routes: { '/v1/books': { GET: (ctx: RequestContext) => ({ by: ctx.identity?.subject }) } },
      });
      const first = await api.handle(request(bearerOf(token), '/v1/books'));
      expect(first.status).toBe(200);
      const again = await api.handle(request(bearerOf(token), '/v1/books'));
      expect(again.body).toBe('{"by":"alice"}');
      const twice = await api.handle(request(bearerOf(token), `/v1/books?access_token=${token}`));
      expect(twice.status).toBe(400);
    });
  });

  describe('RFC 6750 §3.1 scope and user', () => {
    it('answers 403 insufficient_scope naming the scope the route needs', async () => {
      const token = await s.sign({ scope: 'books:read' });
      const r = await s.send(
        { ...bearerOf(token), 'content-type': 'application/json' },
        '/v1/books',
        'POST',
        '{}',
      );
      expect(r.status).toBe(403);
      expect(r.headers['www-authenticate']).toBe(
        'Bearer realm="api", error="insufficient_scope", scope="books:write"',
      );
      expect(parse(r).errors[0].code).toBe(40301);
    });

    it('answers 403 to a token without a user on a user route (sub = client_id, RFC 9068 §2.2)', async () => {
      const token = await s.sign({ sub: 'svc', client_id: 'svc' });
      const r = await s.send(bearerOf(token), '/v1/me');
      expect(r.status).toBe(403);
      expect(parse(r).errors[0].code).toBe(40310);
    });
  });

  describe('RFC 9068 §4 and RFC 8725 validation, also with a valid copy in the cache', () => {
    it('refuses a token whose payload was changed (forged; RFC 9068 §4 step 5)', async () => {
      await refusedEvenWhenCached(s, (good) => {
        const [h, , sig] = good.split('.');
        const payload = {
          ...JSON.parse(Buffer.from(good.split('.')[1]!, 'base64url').toString()),
          sub: 'mallory',
        };
        return `${h}.${b64(payload)}.${sig}`;
      });
    });

    it('refuses a token whose signature was changed (RFC 8725 §3.3)', async () => {
      await refusedEvenWhenCached(s, (good) => {
        const sig = good.split('.')[2]!;
        const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1);
        return `${good.split('.').slice(0, 2).join('.')}.${flipped}`;
      });
    });

    it('refuses a token signed by another key under the same kid (forged)', async () => {
      const other =
        keys.signing.alg === 'HS256'
          ? await createTokenKeys({ keys: [{ kid: keys.signing.kid, secret: 'z'.repeat(40) }] })
          : await createTokenKeys({
              keys: [
                {
                  kid: keys.signing.kid,
                  privateKey: (await generateKeyPair('EdDSA', { extractable: true })).privateKey,
                },
              ],
            });
      await refusedEvenWhenCached(
        s,
        async () =>
          (
            await issueAccessToken(other, {
              issuer,
              audience,
              subject: 'alice',
              clientId: 'demo-client',
              scope: 'books:read books:write',
              ttlSeconds: 60,
            })
          ).token,
      );
    });

    it('refuses alg: none (RFC 8725 §2.1, §3.1)', async () => {
      await refusedEvenWhenCached(s, (good) => {
        const payload = good.split('.')[1];
        return `${b64({ alg: 'none', typ: 'at+jwt', kid: keys.signing.kid })}.${payload}.`;
      });
      await refusedEvenWhenCached(s, (good) => {
        const [, payload, sig] = good.split('.');
        return `${b64({ alg: 'none', typ: 'at+jwt', kid: keys.signing.kid })}.${payload}.${sig}`;
      });
    });

    it('refuses an expired token, cached or not (RFC 9068 §4 step 7, spec 5.6)', async () => {
      let now = Date.now();
      const t = setup(keys, { now: () => now });
      const { token } = await issueAccessToken(keys, {
        issuer,
        audience,
        subject: 'alice',
        clientId: 'c',
        scope: '',
        ttlSeconds: 5,
        now,
      });
      expect((await t.send(bearerOf(token))).status).toBe(200);
      now += 5_000;
      const r = await t.send(bearerOf(token));
      expectInvalidToken(r);
      expect(r.headers['www-authenticate']).toMatch(/expired/);
      const old = await s.sign({ exp: Math.floor(Date.now() / 1000) - 1 });
      expectInvalidToken(await s.send(bearerOf(old)));
    });

    it('refuses a wrong typ, or none (RFC 9068 §4 step 1, RFC 8725 §3.11)', async () => {
      for (const typ of ['JWT', 'application/jwt', undefined]) {
        await refusedEvenWhenCached(s, () => s.sign({}, { typ }));
      }
      // RFC 9068 §4: application/at+jwt is the same type.
      expect((await s.send(bearerOf(await s.sign({}, { typ: 'application/at+jwt' })))).status).toBe(
        200,
      );
    });

    it('refuses a wrong issuer or audience (RFC 9068 §4 steps 3-4, RFC 8725 §3.8, §3.9)', async () => {
      await refusedEvenWhenCached(s, () => s.sign({ iss: 'https://evil.example.com' }));
      await refusedEvenWhenCached(s, () => s.sign({ aud: 'https://other.example.com' }));
      expect(await s.send(bearerOf(await s.sign({ aud: ['x', audience] })))).toMatchObject({
        status: 200,
      });
    });

    it.each(['iss', 'sub', 'aud', 'exp', 'iat', 'jti', 'client_id'])(
      'refuses a token without %s (RFC 9068 §2.2)',
      async (claim) => {
        await refusedEvenWhenCached(s, () => s.sign({ [claim]: undefined }));
      },
    );

    it('refuses claims of the wrong type (RFC 8725 §3.10)', async () => {
      for (const bad of [
        { sub: 42 },
        { client_id: ['a'] },
        { scope: ['books:read'] },
        { jti: '' },
      ]) {
        await refusedEvenWhenCached(s, () => s.sign(bad));
      }
    });

    it('refuses critical header extensions it does not understand (RFC 7515 §4.1.11)', async () => {
      // Signed by hand: jose itself will not sign an extension it does not know.
      await refusedEvenWhenCached(s, async (good) => {
        const [h, p] = good.split('.');
        const header = {
          ...JSON.parse(Buffer.from(h!, 'base64url').toString()),
          crit: ['ext'],
          ext: true,
        };
        const input = `${b64(header)}.${p}`;
        const key = keys.signing.signKey!;
        const signature =
          key instanceof Uint8Array
            ? createHmac('sha256', key).update(input).digest()
            : cryptoSign(null, Buffer.from(input), KeyObject.from(key as CryptoKey));
        return `${input}.${signature.toString('base64url')}`;
      });
    });

    it('refuses a token that is not valid yet (nbf, RFC 7519 §4.1.5)', async () => {
      await refusedEvenWhenCached(s, () => s.sign({ nbf: Math.floor(Date.now() / 1000) + 300 }));
      expect((await s.send(bearerOf(await s.sign({ nbf: 1 })))).status).toBe(200);
    });

    it('reads typ without regard to case (RFC 9068 §4, RFC 2045 media types)', async () => {
      expect(await s.send(bearerOf(await s.sign({}, { typ: 'AT+JWT' })))).toMatchObject({
        status: 200,
      });
    });

    it('refuses a header or payload that is not a JSON object (RFC 7515 §5.2)', async () => {
      await refusedEvenWhenCached(s, (good) => {
        const [, p, sig] = good.split('.');
        return `${b64(['alg', 'EdDSA'])}.${p}.${sig}`;
      });
      await refusedEvenWhenCached(s, (good) => {
        const [h, , sig] = good.split('.');
        return `${h}.${Buffer.from('not json').toString('base64url')}.${sig}`;
      });
    });

    it('refuses an unknown kid', async () => {
      await refusedEvenWhenCached(s, () => s.sign({}, { kid: 'nope' }));
    });

    it('refuses an oversized token before any crypto (RFC 8725 §2.9 and §3.10 practice)', async () => {
      const huge = `${'a'.repeat(5000)}.${'b'.repeat(10)}.${'c'.repeat(10)}`;
      const r = await s.send(bearerOf(huge));
      expectInvalidToken(r);
      expect(r.headers['www-authenticate']).toMatch(/longer/);
    });

    it('refuses a revoked token at once, also when cached (RFC 7009 §2)', async () => {
      const t = await s.good();
      expect((await s.send(bearerOf(t.token))).status).toBe(200);
      await s.plugin.revoke(t.jti, t.expiresAt);
      expectInvalidToken(await s.send(bearerOf(t.token)));
    });
  });
});

describe('RFC 8725 §3.1 algorithm confusion', () => {
  it('refuses an HS256 token keyed with the public key of an EdDSA kid', async () => {
    const s = setup(asymmetric);
    const jwk = asymmetric.jwks().keys[0]!;
    await refusedEvenWhenCached(s, async () => {
      const secrets = [
        new TextEncoder().encode(JSON.stringify(jwk)),
        Buffer.from(jwk.x!, 'base64url'),
      ];
      return new SignJWT({
        iss: issuer,
        aud: audience,
        sub: 'alice',
        client_id: 'c',
        jti: 'j',
        iat: 1,
        exp: 4e9,
      })
        .setProtectedHeader({ alg: 'HS256', kid: jwk.kid!, typ: 'at+jwt' })
        .sign(secrets[0]!);
    });
  });

  it('refuses an HS256 token keyed with an ES256 public key in PEM', async () => {
    const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
    const keys = await createTokenKeys({ keys: [{ privateKey: await exportJWK(privateKey) }] });
    const s = setup(keys);
    const pem = await exportSPKI(publicKey);
    await refusedEvenWhenCached(s, () =>
      new SignJWT({
        iss: issuer,
        aud: audience,
        sub: 'alice',
        client_id: 'c',
        jti: 'j',
        iat: 1,
        exp: 4e9,
      })
        .setProtectedHeader({ alg: 'HS256', kid: keys.signing.kid, typ: 'at+jwt' })
        .sign(new TextEncoder().encode(pem)),
    );
  });

  it('refuses an EdDSA token naming an HS256 kid, and an ES256 alg on an EdDSA key', async () => {
    const both = await createTokenKeys({
      keys: [
        { privateKey: (await generateKeyPair('EdDSA', { extractable: true })).privateKey },
        { kid: 'hs-1', secret: 'k'.repeat(40), verifyOnly: true },
      ],
    });
    const s = setup(both);
    await refusedEvenWhenCached(s, () => s.sign({}, { kid: 'hs-1' }));
    const es = await generateKeyPair('ES256');
    await refusedEvenWhenCached(s, () =>
      new SignJWT({
        iss: issuer,
        aud: audience,
        sub: 'alice',
        client_id: 'c',
        jti: 'j',
        iat: 1,
        exp: 4e9,
      })
        .setProtectedHeader({ alg: 'ES256', kid: both.signing.kid, typ: 'at+jwt' })
        .sign(es.privateKey),
    );
  });
});

describe('Key rotation and the cache', () => {
  it('keeps verifying the old key after a new one signs, and refuses its tokens once removed, cached ones included', async () => {
    const keys = await createTokenKeys({
      keys: [{ privateKey: (await generateKeyPair('EdDSA', { extractable: true })).privateKey }],
    });
    const s = setup(keys);
    const old = await s.good();
    expect((await s.send(bearerOf(old.token))).status).toBe(200);
    const oldKid = keys.signing.kid;
    const fresh = await keys.add({
      privateKey: (await generateKeyPair('ES256', { extractable: true })).privateKey,
    });
    keys.signWith(fresh);
    const next = await s.good();
    expect((await s.send(bearerOf(next.token))).status).toBe(200);
    expect((await s.send(bearerOf(old.token))).status).toBe(200);
    expect(
      keys
        .jwks()
        .keys.map((k) => k.kid)
        .sort(),
    ).toEqual([oldKid, fresh].sort());
    keys.remove(oldKid);
    expectInvalidToken(await s.send(bearerOf(old.token)));
    expect((await s.send(bearerOf(next.token))).status).toBe(200);
  });
});

describe('Revocation across instances sharing a store', () => {
  it('refuses a revoked token on the other instance within revocationCheckMs', async () => {
    const { MemoryStore } = await import('../../src/index.ts');
    const store = new MemoryStore();
    let now = Date.now();
    const a = setup(asymmetric, { store, now: () => now, revocationCheckMs: 1000 });
    const b = setup(asymmetric, { store, now: () => now, revocationCheckMs: 1000 });
    const t = await a.good();
    expect((await b.send(bearerOf(t.token))).status).toBe(200);
    await a.plugin.revoke(t.jti, t.expiresAt);
    expectInvalidToken(await a.send(bearerOf(t.token)));
    // Still cached on b until the bound passes, then refused.
    expect((await b.send(bearerOf(t.token))).status).toBe(200);
    now += 1000;
    expectInvalidToken(await b.send(bearerOf(t.token)));
    // A first-seen revoked token is refused at once by a third instance.
    const c = setup(asymmetric, { store, now: () => now });
    expectInvalidToken(await c.send(bearerOf(t.token)));
  });
});
