/**
 * The authorization server stays available to everyone: one user's flood of
 * valid logins or refreshes neither fills the store nor ends another user's sign-in, on a memory
 * store and on a real redis-server; a user keeps at most `maxRefreshFamilies` families with one
 * client, the least recently used (a revoked one before any) ending first.
 */
import { MemoryStore, type Store } from 'api-conventions';
import { RedisStore, redisCommand } from 'api-conventions/redis';
import { describe, expect, it } from 'vitest';
import { describeRedis, redisForSuite } from '../stores/_redis-servers.ts';
import { demo, oauthOptions } from './_oauth-app.ts';
import { type InProcess, inProcess } from './_oauth-inproc.ts';

interface StoreKind {
  make(): Store;
  /** How many keys of refresh-token state the store holds, when it can tell. */
  refreshKeys?(): Promise<number>;
}

/** `count` password grants of alice, 5 at a time (fewer than the per-user limit of concurrent attempts), each from an address of its own. */
async function flood(svc: InProcess, count: number): Promise<Record<number, number>> {
  const seen: Record<number, number> = {};
  for (let i = 0; i < count; i += 5) {
    const batch = await Promise.all(
      Array.from({ length: Math.min(5, count - i) }, (_, j) => {
        const n = i + j;
        return svc.password('alice', 'wonderland', `10.9.${n >> 8}.${n & 255}`);
      }),
    );
    for (const r of batch) seen[r.status] = (seen[r.status] ?? 0) + 1;
  }
  return seen;
}

const refreshOf = (svc: InProcess, token: string, from?: string) =>
  svc.post(
    '/v1/oauth2/token',
    `grant_type=refresh_token&refresh_token=${encodeURIComponent(token)}`,
    demo,
    from,
  );

async function tokensOf(res: Response): Promise<{ refresh_token: string; access_token: string }> {
  expect(res.status).toBe(200);
  return res.json();
}

function availability(name: string, kind: () => StoreKind): void {
  describe(`availability on ${name}`, () => {
    it("keeps another user's sign-in working after one user's 600 valid password grants (RFC 6749 §10.10, RFC 9700 §4.14.2)", async () => {
      const k = kind();
      const svc = inProcess(oauthOptions({}, k.make()));
      expect(await flood(svc, 600)).toEqual({ 200: 600 });
      if (k.refreshKeys) expect(await k.refreshKeys()).toBeLessThanOrEqual(40);
      const bob = await tokensOf(await svc.password('bob', 'builder'));
      expect((await refreshOf(svc, bob.refresh_token)).status).toBe(200);
      const { code, verifier } = await svc.signIn('bob', 'builder');
      expect((await svc.exchange(code!, verifier)).status).toBe(200);
      // Alice's newest sign-in still works: only her oldest families ended.
      const alice = await tokensOf(await svc.password('alice', 'wonderland'));
      expect((await refreshOf(svc, alice.refresh_token)).status).toBe(200);
    });

    it("keeps another user's sign-in working after 600 refreshes of one family (RFC 9700 §4.14.2)", async () => {
      const k = kind();
      const svc = inProcess(oauthOptions({}, k.make()));
      let token = (await tokensOf(await svc.password('alice', 'wonderland'))).refresh_token;
      for (let i = 0; i < 600; i++) {
        token = (await tokensOf(await refreshOf(svc, token, `10.8.${i >> 8}.${i & 255}`)))
          .refresh_token;
      }
      if (k.refreshKeys) expect(await k.refreshKeys()).toBeLessThanOrEqual(10);
      expect((await svc.password('bob', 'builder')).status).toBe(200);
    });

    it('refuses a token with a family’s place that the family never had, and revokes nothing (RFC 9700 §4.14.2)', async () => {
      const svc = inProcess(oauthOptions({}, kind().make()));
      const real = (await tokensOf(await svc.password('alice', 'wonderland'))).refresh_token;
      const place = real.split('.').slice(0, 3).join('.');
      const forged = `${place}.${'A'.repeat(43)}`;
      const refused = await refreshOf(svc, forged);
      expect(refused.status).toBe(400);
      expect((await refused.json()).error).toBe('invalid_grant');
      expect((await svc.post('/v1/oauth2/revoke', `token=${forged}`)).status).toBe(200);
      expect((await refreshOf(svc, real)).status).toBe(200);
    });

    it('ends the least recently used of a user’s families past maxRefreshFamilies, a revoked one first (RFC 9700 §4.14.2)', async () => {
      const svc = inProcess(oauthOptions({ maxRefreshFamilies: 3 }, kind().make()));
      const login = async () =>
        (await tokensOf(await svc.password('alice', 'wonderland'))).refresh_token;
      const one = await login();
      const two = await login();
      const three = await login();
      // One is used again, so two is now the least recently used.
      const oneNext = (await tokensOf(await refreshOf(svc, one))).refresh_token;
      const four = await login();
      const refused = await refreshOf(svc, two);
      expect(refused.status).toBe(400);
      expect((await refused.json()).error).toBe('invalid_grant');
      const oneLast = (await tokensOf(await refreshOf(svc, oneNext))).refresh_token;
      const threeNext = (await tokensOf(await refreshOf(svc, three))).refresh_token;
      // Four is now the least recently used; revoking three frees its place first (RFC 7009 §2.1).
      expect((await svc.post('/v1/oauth2/revoke', `token=${threeNext}`)).status).toBe(200);
      const five = await login();
      expect((await refreshOf(svc, four)).status).toBe(200);
      expect((await refreshOf(svc, oneLast)).status).toBe(200);
      expect((await refreshOf(svc, five)).status).toBe(200);
      // Bob's families are his own: alice's count never ends them.
      const bob = (await tokensOf(await svc.password('bob', 'builder'))).refresh_token;
      for (let i = 0; i < 4; i++) await login();
      expect((await refreshOf(svc, bob)).status).toBe(200);
    });
  });
}

availability('a MemoryStore that refuses new keys when full (maxKeys 400)', () => ({
  make: () => new MemoryStore({ maxKeys: 400 }),
}));

describeRedis('availability on a real redis-server', () => {
  const redis = redisForSuite();
  availability('RedisStore', () => ({
    make: () => new RedisStore({ command: redisCommand(redis()) }),
    // Every key of the server but its failure counters (bf:, which expire with their window).
    refreshKeys: async () =>
      (await redis().keys('oauth:*')).filter((k) => !k.startsWith('oauth:bf:')).length,
  }));
});
