/**
 * Identity-provider failures that cannot be amplified, against a local
 * provider over real HTTP that counts its fetches: a failed fetch starts the cooldown like a
 * good one, concurrent misses share one fetch, an oversized or gzip-bomb key set is refused
 * without being read whole, a withdrawn key ends the cached verifications under it at the next
 * refetch, and `maxTokenAge` bounds a provider's tokens. Time is the bearer's injected clock.
 */
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import type { RequestInput } from '../../src/host.ts';
import { type BearerOptions, bearer, conventions } from '../../src/index.ts';
import { hugeBytes, type LocalProvider, shapes, startProvider } from '../conformance/_idp.ts';

const okta = shapes[2]!;
const quiet = { error: () => {}, warn: () => {} };

let clock = Date.now();
const seconds = () => Math.floor(clock / 1000);

const providers: LocalProvider[] = [];
afterAll(() => Promise.all(providers.map((p) => p.close())));

/** A provider of its own for each test, so that its fetch count is the test's. */
let provider: LocalProvider;
beforeEach(async () => {
  clock = Date.now();
  provider = await startProvider();
  providers.push(provider);
});

function service(options: Partial<BearerOptions> = {}) {
  const api = conventions({
    lint: 'off',
    logger: quiet,
    plugins: [
      bearer({
        jwksUri: provider.jwksUri,
        issuer: okta.issuer,
        audience: okta.audience,
        logRefusals: false,
        now: () => clock,
        ...options,
      }),
    ],
    routes: { '/v1/whoami': { GET: () => ({ ok: true }) } },
  });
  return async (token: string) => {
    const input: RequestInput = {
      method: 'GET',
      url: '/v1/whoami',
      headers: new Headers({ authorization: `Bearer ${token}` }),
      readBody: undefined,
    };
    const response = await api.handle(input);
    return { status: response.status, body: JSON.parse(response.body as string) };
  };
}

/** Okta's claims for alice, issued now by the test clock, living 5 minutes unless told. */
const claims = (extra: Record<string, unknown> = {}) => ({
  ...okta.claims(['books:read']),
  iat: seconds(),
  nbf: seconds(),
  exp: seconds() + 300,
  ...extra,
});

/** A token signed by a key the provider never published, under a `kid` made up for it. */
const madeUp = (i: number) =>
  provider.sign(claims(), { key: provider.hidden, kid: `made-up-${i}` });

const unavailable = {
  errors: [{ message: expect.stringContaining('identity provider'), code: 50302 }],
};

describe('a failing identity provider is asked once per cooldown', () => {
  it.each(['error', 'garbage', 'not-a-set'] as const)(
    'makes one fetch for 100 sequential unknown kids while the provider answers %s, and one more after the cooldown',
    async (mode) => {
      const call = service();
      provider.mode(mode);
      for (let i = 0; i < 100; i++) {
        expect(await call(await madeUp(i))).toEqual({ status: 503, body: unavailable });
      }
      expect(provider.fetches).toBe(1);
      clock += 30_000;
      expect((await call(await madeUp(100))).status).toBe(503);
      expect(provider.fetches).toBe(2);
      // Back up: once the cooldown has passed, the set is fetched and a made-up kid is just 401.
      provider.mode('up');
      clock += 30_000;
      expect((await call(await madeUp(101))).status).toBe(401);
      expect((await call(await provider.sign(claims()))).status).toBe(200);
      expect(provider.fetches).toBe(3);
    },
  );

  it('makes one fetch for 300 unknown kids at concurrency 8, and for 300 at once', async () => {
    const call = service();
    provider.mode('error');
    const tokens = await Promise.all(Array.from({ length: 300 }, (_, i) => madeUp(i)));
    const statuses: number[] = [];
    let next = 0;
    const worker = async () => {
      while (next < tokens.length) statuses.push((await call(tokens[next++]!)).status);
    };
    await Promise.all(Array.from({ length: 8 }, worker));
    expect(statuses).toEqual(tokens.map(() => 503));
    expect(provider.fetches).toBe(1);
    clock += 30_000;
    const together = await Promise.all(tokens.map((token) => call(token)));
    expect(together.map((r) => r.status)).toEqual(tokens.map(() => 503));
    expect(provider.fetches).toBe(2);
  });

  it('keeps verifying tokens of cached keys while the provider fails, and answers 503 for unknown kids', async () => {
    const call = service();
    expect((await call(await provider.sign(claims()))).status).toBe(200);
    expect(provider.fetches).toBe(1);
    provider.mode('error');
    clock += 30_000;
    for (let i = 0; i < 50; i++) {
      expect((await call(await madeUp(i))).status).toBe(503);
      // A new token of a key the set holds: verified from the cached set, no fetch.
      const known = await provider.sign(claims({ jti: `known-${i}` }), {
        key: provider.keys[i % 2],
      });
      expect((await call(known)).status).toBe(200);
    }
    expect(provider.fetches).toBe(2);
  });

  it('answers 401 without a fetch for unknown kids within the cooldown of a good fetch', async () => {
    const call = service();
    expect((await call(await provider.sign(claims()))).status).toBe(200);
    for (let i = 0; i < 100; i++) expect((await call(await madeUp(i))).status).toBe(401);
    expect(provider.fetches).toBe(1);
  });
});

describe('the key set is read up to jwksMaxBytes', () => {
  it.each(['huge', 'huge-chunked'] as const)(
    'refuses a 50 MiB key set (%s) without reading it whole',
    async (mode) => {
      const call = service();
      provider.mode(mode);
      const token = await provider.sign(claims());
      expect(await call(token)).toEqual({ status: 503, body: unavailable });
      expect(provider.fetches).toBe(1);
      const answer = await provider.lastAnswer();
      expect(answer.finished).toBe(false);
      expect(answer.sent).toBeLessThan(hugeBytes / 2);
      // The refusal is a failed fetch: the cooldown holds.
      expect((await call(token)).status).toBe(503);
      expect(provider.fetches).toBe(1);
    },
  );

  it('refuses a small gzip that inflates to 200 MiB (a gzip bomb)', async () => {
    const call = service();
    provider.mode('gzip-bomb');
    const token = await provider.sign(claims());
    expect(await call(token)).toEqual({ status: 503, body: unavailable });
    expect((await call(token)).status).toBe(503);
    expect(provider.fetches).toBe(1);
  });

  it('accepts a set up to the bound, and refuses it past a lower one', async () => {
    // Three RSA keys and an EC key: about 1.4 KB of JWK set.
    await provider.rotate('RS256');
    await provider.rotate('RS256');
    const token = await provider.sign(claims());
    expect((await service()(token)).status).toBe(200);
    expect((await service({ jwksMaxBytes: 1024 })(token)).status).toBe(503);
  });
});

describe("the verified-token cache does not outlive the provider's key", () => {
  it('refuses a cached token once a refetch finds its key withdrawn (unknown kid after the cooldown)', async () => {
    const call = service();
    const [rsa, ec] = provider.keys;
    const earlier = await provider.sign(claims(), { key: rsa });
    const other = await provider.sign(claims(), { key: ec });
    expect((await call(earlier)).status).toBe(200);
    expect((await call(other)).status).toBe(200);
    provider.withdraw(rsa!.kid);
    clock += 30_000;
    expect((await call(await madeUp(0))).status).toBe(401);
    expect((await call(earlier)).status).toBe(401);
    // Keys still in the set keep their cached tokens.
    expect((await call(other)).status).toBe(200);
    expect(provider.fetches).toBe(2);
  });

  it('refuses a cached token once the set, past jwksMaxAgeMs, is refetched without its key', async () => {
    const call = service({ jwksMaxAgeMs: 60_000 });
    const [rsa, ec] = provider.keys;
    const earlier = await provider.sign(claims(), { key: rsa });
    expect((await call(earlier)).status).toBe(200);
    provider.withdraw(rsa!.kid);
    clock += 60_000;
    expect((await call(await provider.sign(claims(), { key: ec }))).status).toBe(200);
    expect((await call(earlier)).status).toBe(401);
    expect(provider.fetches).toBe(2);
  });
});

describe('maxTokenAge bounds the tokens of a provider', () => {
  it('refuses a token whose exp is 10^15, and one issued a year ahead, with 401 invalid_token', async () => {
    const call = service();
    const forever = await provider.sign(claims({ exp: 1e15 }));
    const year = 365 * 86_400;
    const ahead = await provider.sign(
      claims({ iat: seconds() + year, nbf: undefined, exp: seconds() + year + 300 }),
    );
    for (const token of [forever, ahead]) {
      expect(await call(token)).toEqual({
        status: 401,
        body: { errors: [{ message: 'The access token is not valid.', code: 40101 }] },
      });
    }
  });

  it('accepts a day by default, and what maxTokenAge allows, with iat ahead only within clockTolerance', async () => {
    const day = await provider.sign(claims({ exp: seconds() + 86_400 }));
    expect((await service()(day)).status).toBe(200);
    expect((await service({ maxTokenAge: 3600 })(day)).status).toBe(401);
    const week = await provider.sign(claims({ exp: seconds() + 7 * 86_400 }));
    expect((await service()(week)).status).toBe(401);
    expect((await service({ maxTokenAge: 7 * 86_400 })(week)).status).toBe(200);
    const soon = await provider.sign(claims({ iat: seconds() + 30, nbf: undefined }));
    expect((await service()(soon)).status).toBe(401);
    expect((await service({ clockTolerance: 60 })(soon)).status).toBe(200);
  });
});
