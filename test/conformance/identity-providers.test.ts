/**
 * Resource servers for any OAuth 2.0 / OpenID Connect provider: `bearer({ jwksUri, issuer,
 * audience })` against a local provider serving its JWK set over real HTTP, on every host.
 * Tokens shaped as Keycloak, Auth0, Okta and Entra ID issue them are accepted; the RFC 8725 and
 * RFC 9068 §4 refusals hold (401 `invalid_token`, RFC 6750 §3.1); a rotated-in key works without
 * a restart, and a withdrawn one takes its cached tokens with it; a provider that cannot be
 * reached gives 503 with the error body (spec 5.8), and is asked once per cooldown.
 */
import { createHmac } from 'node:crypto';
import { afterAll, expect, it } from 'vitest';
import { bearer, conventions, type RequestContext } from '../../src/index.ts';
import { type ProviderShape, shapes, startProvider } from './_idp.ts';
import { describeMatrix } from './_matrix.ts';

const provider = await startProvider();
afterAll(() => provider.close());

const quiet = { error: () => {}, warn: () => {} };

// Long enough for a first fetch on a loaded CI machine (400 ms once answered 503 there), short
// enough that the provider that hangs is given up on within the test.
const jwksTimeoutMs = 2_000;

function build(shape: ProviderShape, jwks = { jwksCooldownMs: 0, jwksTimeoutMs }) {
  return () =>
    conventions({
      lint: 'off',
      logger: quiet,
      plugins: [
        bearer({
          jwksUri: provider.jwksUri,
          issuer: shape.issuer,
          audience: shape.audience,
          // By default a rotation is seen at once, and a provider that hangs is given up on quickly.
          ...jwks,
          logRefusals: false,
        }),
      ],
      routes: {
        '/v1/whoami': {
          GET: {
            handler: (ctx: RequestContext) => ({
              subject: ctx.identity?.subject ?? null,
              clientId: ctx.identity?.clientId ?? null,
              scopes: [...(ctx.identity?.scopes ?? [])].sort(),
            }),
            config: { scopes: ['books:read'] },
          },
        },
        '/v1/shelves': {
          GET: {
            handler: () => ({ shelves: [], hasNext: false }),
            config: { scopes: ['books:write'] },
          },
        },
      },
    });
}

const bearerOf = (token: string) => ({ authorization: `Bearer ${token}` });

async function expectInvalidToken(response: Response): Promise<void> {
  expect(response.status).toBe(401);
  expect(response.headers.get('www-authenticate')).toMatch(
    /^Bearer realm="api", error="invalid_token"/,
  );
  const body = await response.json();
  expect(body.errors[0]).toMatchObject({ code: 40101 });
}

for (const shape of shapes) {
  describeMatrix(`a ${shape.name}-shaped token (jwksUri)`, build(shape), (served) => {
    const get = (path: string, token: string) =>
      served.fetchAs('anonymous', path, { headers: bearerOf(token) });

    it('is accepted with the subject, the client and the scopes read from its claims', async () => {
      for (const key of provider.keys.slice(0, 2)) {
        const token = await provider.sign(shape.claims(['books:read']), { key, typ: shape.typ });
        const response = await get('/v1/whoami', token);
        expect(response.status).toBe(200);
        expect(await response.json()).toEqual({
          subject: shape.subject,
          clientId: shape.clientId,
          scopes: expect.arrayContaining(['books:read']),
        });
      }
    });

    it('is refused with 403 insufficient_scope when it lacks the route scope (RFC 6750 §3.1)', async () => {
      const token = await provider.sign(shape.claims(['books:read']), { typ: shape.typ });
      const response = await get('/v1/shelves', token);
      expect(response.status).toBe(403);
      expect(response.headers.get('www-authenticate')).toContain('error="insufficient_scope"');
    });
  });
}

const keycloak = shapes[0]!;

describeMatrix('tokens a provider did not sign as expected', build(keycloak), (served) => {
  const get = (token: string) =>
    served.fetchAs('anonymous', '/v1/whoami', { headers: bearerOf(token) });
  const good = () => keycloak.claims(['books:read']);

  it('refuses another issuer, another audience and an expired token (RFC 9068 §4 steps 3, 5, 7)', async () => {
    await expectInvalidToken(
      await get(await provider.sign({ ...good(), iss: 'https://evil.example.com/realms/shelf' })),
    );
    await expectInvalidToken(await get(await provider.sign({ ...good(), aud: 'another-api' })));
    const past = Math.floor(Date.now() / 1000) - 600;
    await expectInvalidToken(
      await get(await provider.sign({ ...good(), iat: past, nbf: past, exp: past + 300 })),
    );
  });

  it('refuses alg none (RFC 8725 §3.2) and HS256 signed with the public key (algorithm confusion, RFC 8725 §2.1)', async () => {
    const b64 = (v: unknown) => Buffer.from(JSON.stringify(v)).toString('base64url');
    const unsigned = `${b64({ alg: 'none', typ: 'JWT' })}.${b64(good())}.`;
    await expectInvalidToken(await get(unsigned));
    for (const key of provider.keys.slice(0, 2)) {
      for (const secret of [key.pem, JSON.stringify(key.jwk)]) {
        const input = `${b64({ alg: 'HS256', typ: 'JWT', kid: key.kid })}.${b64(good())}`;
        const mac = createHmac('sha256', secret).update(input).digest('base64url');
        await expectInvalidToken(await get(`${input}.${mac}`));
      }
    }
  });

  it('refuses a token of another type (RFC 8725 §3.11) and a signature by a key the set does not hold', async () => {
    await expectInvalidToken(await get(await provider.sign(good(), { typ: 'logout+jwt' })));
    // Signed by the hidden key but naming a published kid: the signature fails.
    await expectInvalidToken(
      await get(await provider.sign(good(), { key: provider.hidden, kid: provider.keys[0]!.kid })),
    );
  });

  it('accepts a token of a key rotated in after start-up, without a restart', async () => {
    expect((await get(await provider.sign(good()))).status).toBe(200);
    const fresh = await provider.rotate('ES256');
    const before = provider.fetches;
    expect((await get(await provider.sign(good(), { key: fresh }))).status).toBe(200);
    expect(provider.fetches).toBe(before + 1);
  });

  it('answers 503 with the error body when the key set cannot be fetched for an unknown kid, and keeps known keys working', async () => {
    const known = await provider.sign(good());
    expect((await get(known)).status).toBe(200);
    const unknown = await provider.sign(good(), { key: provider.hidden });
    for (const mode of ['error', 'hang'] as const) {
      provider.mode(mode);
      try {
        const response = await get(unknown);
        expect(response.status).toBe(503);
        expect(response.headers.get('retry-after')).toBe('5');
        expect(await response.json()).toEqual({
          errors: [{ message: expect.stringContaining('identity provider'), code: 50302 }],
        });
        // A key fetched before still verifies from the cached set.
        expect((await get(known)).status).toBe(200);
      } finally {
        provider.mode('up');
      }
    }
    // Once the provider is back, the unknown key is just unknown: 401.
    await expectInvalidToken(await get(unknown));
  });
});

describeMatrix(
  'a provider that fails, with the default cooldown',
  build(keycloak, { jwksCooldownMs: 30_000, jwksTimeoutMs }),
  (served) => {
    const get = (token: string) =>
      served.fetchAs('anonymous', '/v1/whoami', { headers: bearerOf(token) });

    it('is asked once for 20 tokens with made-up kids while it answers 500 (a failed fetch starts the cooldown)', async () => {
      const before = provider.fetches;
      provider.mode('error');
      try {
        for (let i = 0; i < 20; i++) {
          const token = await provider.sign(keycloak.claims(['books:read']), {
            key: provider.hidden,
            kid: `made-up-${i}`,
          });
          expect((await get(token)).status).toBe(503);
        }
      } finally {
        provider.mode('up');
      }
      expect(provider.fetches - before).toBe(1);
    });
  },
);

describeMatrix('a key the provider withdraws', build(keycloak), (served) => {
  const get = (token: string) =>
    served.fetchAs('anonymous', '/v1/whoami', { headers: bearerOf(token) });

  it('takes the tokens verified under it with it at the next refetch, cached ones included', async () => {
    const key = await provider.rotate('ES256');
    const earlier = await provider.sign(keycloak.claims(['books:read']), { key });
    expect((await get(earlier)).status).toBe(200);
    provider.withdraw(key.kid);
    const before = provider.fetches;
    // An unknown kid makes the set be fetched again (the cooldown is 0 here).
    await expectInvalidToken(
      await get(await provider.sign(keycloak.claims(['books:read']), { key: provider.hidden })),
    );
    expect(provider.fetches).toBe(before + 1);
    await expectInvalidToken(await get(earlier));
  });
});
