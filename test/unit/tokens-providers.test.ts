/**
 * The bearer plugin as a resource server for other issuers: its start-up checks, verify-only
 * key sets that keep each JWK's `kid` and `alg`, the claim rules (`typ`, `scope`/`scp`,
 * `azp`/`cid`, `scopesOf`) and the development log of why a token was refused.
 */
import { afterAll, describe, expect, it, vi } from 'vitest';
import type { RequestInput } from '../../src/host.ts';
import {
  bearer,
  conventions,
  createTokenKeys,
  type Logger,
  type RequestContext,
} from '../../src/index.ts';
import { shapes, startProvider } from '../conformance/_idp.ts';

const provider = await startProvider();
afterAll(() => provider.close());
const okta = shapes[2]!;
const oktaAt = { issuer: okta.issuer, audience: okta.audience };
const entra = shapes[3]!;

const req = (token: string): RequestInput => ({
  method: 'GET',
  url: '/v1/whoami',
  headers: new Headers({ authorization: `Bearer ${token}` }),
  readBody: undefined,
});

function api(
  plugin: ReturnType<typeof bearer>,
  logger: Logger = { error: vi.fn(), warn: vi.fn() },
) {
  return conventions({
    lint: 'off',
    logger,
    plugins: [plugin],
    routes: {
      '/v1/whoami': {
        GET: (ctx: RequestContext) => ({
          client: ctx.identity?.clientId ?? null,
          scopes: [...(ctx.identity?.scopes ?? [])].sort(),
        }),
      },
    },
  });
}

async function call(plugin: ReturnType<typeof bearer>, token: string, logger?: Logger) {
  const response = await api(plugin, logger).handle(req(token));
  return { status: response.status, body: JSON.parse(response.body as string) };
}

describe('bearer({ jwksUri }): start-up checks', () => {
  const base = { issuer: okta.issuer, audience: okta.audience };
  it.each([
    [
      'keys and jwksUri together',
      { keys: createTokenKeys(), jwksUri: provider.jwksUri },
      /not both/,
    ],
    [
      'HS256 with jwksUri (RFC 8725 §2.1)',
      { jwksUri: provider.jwksUri, algorithms: ['HS256'] },
      /HS256/,
    ],
    [
      'none among the algorithms (RFC 8725 §3.2)',
      { jwksUri: provider.jwksUri, algorithms: ['none'] },
      /none/,
    ],
    ['a relative jwksUri', { jwksUri: '/jwks' }, /absolute URL/],
    ['a jwksUri of another scheme', { jwksUri: 'ftp://idp.example.com/jwks' }, /https/],
    ['an unknown tokenType', { jwksUri: provider.jwksUri, tokenType: 'id+jwt' }, /tokenType/],
    ['neither keys nor jwksUri', {}, /jwksUri/],
    [
      'a jwksMaxBytes below 1 KiB',
      { jwksUri: provider.jwksUri, jwksMaxBytes: 10 },
      /jwksMaxBytes must be a whole number from 1024/,
    ],
    [
      'a maxTokenAge of 0',
      { jwksUri: provider.jwksUri, maxTokenAge: 0 },
      /maxTokenAge must be a whole number from 1/,
    ],
    [
      'a jwksMaxAgeMs shorter than jwksCooldownMs',
      { jwksUri: provider.jwksUri, jwksMaxAgeMs: 1000 },
      /jwksMaxAgeMs \(1000\) must be at least jwksCooldownMs \(30000\)/,
    ],
  ])('refuses %s with a TypeError that says what to do', (_name, options, message) => {
    expect(() => bearer({ ...base, ...(options as object) })).toThrow(message);
  });

  it('refuses a plain-http jwksUri to another host in production, and allows it locally', () => {
    vi.stubEnv('NODE_ENV', 'production');
    try {
      expect(() => bearer({ ...base, jwksUri: 'http://idp.example.com/jwks' })).toThrow(
        /https in production/,
      );
      expect(() => bearer({ ...base, jwksUri: provider.jwksUri })).not.toThrow();
    } finally {
      vi.unstubAllEnvs();
    }
  });
});

describe('bearer({ jwksUri }): claim rules', () => {
  it('reads the client from cid (Okta) and the scopes from an scp array', async () => {
    const plugin = bearer({ jwksUri: provider.jwksUri, ...oktaAt, logRefusals: false });
    const token = await provider.sign(okta.claims(['books:read']), { typ: undefined });
    expect(await call(plugin, token)).toEqual({
      status: 200,
      body: { client: okta.clientId, scopes: ['books:read', 'openid'] },
    });
  });

  it('takes the scopes from scopesOf when given (Entra ID app roles)', async () => {
    const plugin = bearer({
      jwksUri: provider.jwksUri,
      issuer: entra.issuer,
      audience: entra.audience,
      scopesOf: (claims) => (Array.isArray(claims.roles) ? (claims.roles as string[]) : []),
      logRefusals: false,
    });
    const token = await provider.sign({ ...entra.claims([]), roles: ['Books.ReadWrite.All'] });
    expect((await call(plugin, token)).body.scopes).toEqual(['Books.ReadWrite.All']);
  });

  it("requires RFC 9068's at+jwt when tokenType says so, and JWT is then refused", async () => {
    const plugin = bearer({
      jwksUri: provider.jwksUri,
      ...oktaAt,
      tokenType: 'at+jwt',
      logRefusals: false,
    });
    const claims = okta.claims(['books:read']);
    expect((await call(plugin, await provider.sign(claims, { typ: 'JWT' }))).status).toBe(401);
    expect((await call(plugin, await provider.sign(claims, { typ: 'at+jwt' }))).status).toBe(200);
  });

  it('refuses scopes of the wrong type (RFC 8725 §3.10): scope must be a string', async () => {
    const plugin = bearer({ jwksUri: provider.jwksUri, ...oktaAt, logRefusals: false });
    const token = await provider.sign({ ...okta.claims([]), scope: ['books:read'] });
    expect((await call(plugin, token)).status).toBe(401);
  });
});

describe('bearer: the development log of refusals', () => {
  it('says why a token was refused, never the token, and stays quiet when told to', async () => {
    const logger = { error: vi.fn(), warn: vi.fn() };
    const plugin = bearer({ jwksUri: provider.jwksUri, ...oktaAt, logRefusals: true });
    const wrongAudience = await provider.sign({ ...okta.claims([]), aud: 'api://other' });
    expect((await call(plugin, wrongAudience, logger)).status).toBe(401);
    const expired = await provider.sign({
      ...okta.claims([]),
      exp: 1_000_000,
      iat: 999_000,
      nbf: 999_000,
    });
    expect((await call(plugin, expired, logger)).status).toBe(401);
    const lines = logger.warn.mock.calls.map((args) => String(args[0]));
    expect(lines).toEqual([
      expect.stringMatching(/refused: claim "aud"/),
      expect.stringMatching(/refused: expired/),
    ]);
    for (const line of lines) {
      expect(line).not.toContain(wrongAudience);
      expect(line).not.toContain(expired.split('.')[2]);
    }
    const silent = { error: vi.fn(), warn: vi.fn() };
    const quiet = bearer({ jwksUri: provider.jwksUri, ...oktaAt, logRefusals: false });
    await call(quiet, wrongAudience, silent);
    expect(silent.warn).not.toHaveBeenCalled();
  });
});

describe("createTokenKeys: a provider's public keys as a verify-only set", () => {
  it("keeps each JWK's own kid and alg (RS256, ES256) and verifies the provider's tokens", async () => {
    const keys = await createTokenKeys({ keys: provider.keys.map((k) => ({ publicKey: k.jwk })) });
    expect(keys.kids).toEqual(provider.keys.map((k) => k.kid));
    expect(keys.canSign).toBe(false);
    expect(keys.jwks().keys.map((k) => k.alg)).toEqual(provider.keys.map((k) => k.alg));
    const plugin = bearer({ keys, ...oktaAt, tokenType: 'jwt', logRefusals: false });
    for (const key of provider.keys) {
      const token = await provider.sign(okta.claims(['books:read']), { key });
      expect((await call(plugin, token)).status).toBe(200);
    }
  });

  it('reads an RSA public key from PEM with its alg, and asks for the alg when it is missing', async () => {
    const rsa = provider.keys[0]!;
    const keys = await createTokenKeys({
      keys: [{ publicKey: rsa.pem, alg: 'RS256', kid: rsa.kid }],
    });
    expect(keys.find(rsa.kid)?.alg).toBe('RS256');
    const { alg: _alg, ...bare } = rsa.jwk;
    await expect(createTokenKeys({ keys: [{ publicKey: bare }] })).rejects.toThrow(
      /RS256' or 'PS256/,
    );
    await expect(createTokenKeys({ keys: [{ publicKey: rsa.jwk, alg: 'ES256' }] })).rejects.toThrow(
      /does not fit/,
    );
  });
});

describe('bearer({ jwksUri, clientIds }): a provider whose access tokens carry no aud (Cognito)', () => {
  const issuer = 'https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEfGhI';
  const now = () => Math.floor(Date.now() / 1000);
  const access = (extra: Record<string, unknown> = {}) => ({
    sub: '8f1c2d3e-4a5b-4c6d-8e7f-9a0b1c2d3e4f',
    iss: issuer,
    client_id: '3n4b5urk1ft4fl3mg5e62d9ado',
    origin_jti: 'a1b2c3',
    event_id: 'e1',
    token_use: 'access',
    scope: 'books/read openid',
    auth_time: now() - 10,
    iat: now(),
    exp: now() + 300,
    jti: 'c0ffee',
    username: 'alice',
    ...extra,
  });
  const plugin = () =>
    bearer({
      jwksUri: provider.jwksUri,
      issuer,
      clientIds: ['3n4b5urk1ft4fl3mg5e62d9ado'],
      logRefusals: false,
    });

  it('accepts an access token of a listed client without aud', async () => {
    const token = await provider.sign(access(), { typ: undefined });
    expect(await call(plugin(), token)).toEqual({
      status: 200,
      body: { client: '3n4b5urk1ft4fl3mg5e62d9ado', scopes: ['books/read', 'openid'] },
    });
  });

  it('refuses another client, and an ID token of the listed one (token_use: id)', async () => {
    expect(
      (await call(plugin(), await provider.sign(access({ client_id: 'someone-else' })))).status,
    ).toBe(401);
    const { client_id: _c, token_use: _t, scope: _s, ...rest } = access();
    const idToken = await provider.sign({
      ...rest,
      aud: '3n4b5urk1ft4fl3mg5e62d9ado',
      token_use: 'id',
    });
    expect((await call(plugin(), idToken)).status).toBe(401);
  });

  it('requires audience unless clientIds is given with jwksUri', () => {
    expect(() => bearer({ jwksUri: provider.jwksUri, issuer } as never)).toThrow(
      /audience is required/,
    );
    expect(() => bearer({ keys: createTokenKeys(), issuer, clientIds: ['x'] } as never)).toThrow(
      /audience is required/,
    );
  });
});
