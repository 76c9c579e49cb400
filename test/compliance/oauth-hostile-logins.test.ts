/**
 * Hostile logins against the OAuth server, in process, on a memory store and on a real
 * redis-server: a 200-way password race, the sign-in endpoint, one network locking a client out,
 * a flood of made-up client ids, and a replayed authorization code.
 */
import { MemoryStore, type Store } from 'api-conventions';
import type { OAuthServerOptions } from 'api-conventions/oauth';
import { RedisStore, redisCommand } from 'api-conventions/redis';
import { describe, expect, it } from 'vitest';
import { describeRedis, redisForSuite } from '../stores/_redis-servers.ts';
import { basic, oauthOptions, testTokens, users } from './_oauth-app.ts';
import { home, inProcess } from './_oauth-inproc.ts';

const web = basic('demo-web', 'demo-web-secret');
const statuses = (answers: Response[]) => {
  const out: Record<number, number> = {};
  for (const r of answers) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
};

/** The compliance service's options with a password check that counts its calls. */
function counted(overrides: Partial<OAuthServerOptions>, store: Store, tokens = testTokens().side) {
  const calls = { checked: 0 };
  const options = oauthOptions(
    {
      verifyUser: (username, password) => {
        calls.checked++;
        const user = Object.hasOwn(users, username) ? users[username] : undefined;
        return user && user.password === password
          ? { subject: username, scopes: user.scopes }
          : undefined;
      },
      ...overrides,
    },
    store,
    tokens,
  );
  return { options, calls };
}

interface StoreKind {
  make(bound?: number): Store;
  /** How many failure counters the store holds, when it can tell. */
  counters?(): Promise<number>;
}

function hostileLogins(name: string, kind: () => StoreKind): void {
  describe(`hostile logins on ${name}`, () => {
    it('checks at most maxFailures of 200 concurrent guesses for one user, and refuses the right password after them with 429 (RFC 6749 §4.3.2, RFC 9700 §2.4)', async () => {
      const { options, calls } = counted({}, kind().make());
      const svc = inProcess(options);
      const guesses = await Promise.all(
        Array.from({ length: 200 }, (_, i) => svc.password('alice', `guess-${i}`)),
      );
      expect(calls.checked).toBeLessThanOrEqual(10);
      const seen = statuses(guesses);
      expect(seen[400] ?? 0).toBeLessThanOrEqual(10);
      expect((seen[400] ?? 0) + (seen[429] ?? 0)).toBe(200);
      const before = calls.checked;
      const right = await svc.password('alice', 'wonderland');
      expect(right.status).toBe(429);
      expect(calls.checked).toBe(before);
      // The guesses refused unchecked counted against nobody else: bob and the client still work.
      expect((await svc.password('bob', 'builder')).status).toBe(200);
    });

    it('counts sign-in failures with the token endpoint: a user locked at either is locked at both, and no code is issued past the limit (RFC 6749 §10.10)', async () => {
      const { options, calls } = counted({ bruteForce: { maxFailures: 3 } }, kind().make());
      const svc = inProcess(options);
      for (let i = 0; i < 3; i++) expect((await svc.password('alice', 'x')).status).toBe(400);
      const locked = await svc.signIn('alice', 'wonderland');
      expect(locked.res.status).toBe(429);
      expect(locked.code).toBeUndefined();
      const before = calls.checked;
      const race = await Promise.all(
        Array.from({ length: 50 }, (_, i) => svc.signIn('bob', `guess-${i}`)),
      );
      expect(calls.checked - before).toBeLessThanOrEqual(3);
      expect(race.every((r) => r.code === undefined)).toBe(true);
      expect((await svc.password('bob', 'builder')).status).toBe(429);
      expect((await svc.signIn('bob', 'builder')).res.status).toBe(429);
    });

    it('locks a client out only from the network its wrong secrets came from (RFC 6749 §2.3.1, RFC 6177)', async () => {
      const svc = inProcess(counted({}, kind().make()).options);
      const attacker = '203.0.113.5';
      for (let i = 0; i < 101; i++) {
        const res = await svc.post(
          '/v1/oauth2/token',
          'grant_type=client_credentials',
          basic('demo-web', `guess-${i}`),
          attacker,
        );
        expect(res.status).toBe(i < 100 ? 401 : 429);
      }
      const user = '198.51.100.7';
      const { code, verifier } = await svc.signIn('alice', 'wonderland', user);
      expect((await svc.exchange(code!, verifier, user)).status).toBe(200);
      const again = await svc.signIn('alice', 'wonderland', attacker);
      expect((await svc.exchange(again.code!, again.verifier, attacker)).status).toBe(429);
      // IPv6 is counted by /56, as the rate limiter counts it.
      const v6 = (host: string) => `2001:db8:aa:${host}`;
      for (let i = 0; i < 100; i++) {
        await svc.post(
          '/v1/oauth2/token',
          'grant_type=client_credentials',
          basic('demo-client', 'x'),
          v6('bb01::7'),
        );
      }
      const sameNet = await svc.post(
        '/v1/oauth2/token',
        'grant_type=client_credentials',
        undefined,
        v6('bbff::1'),
      );
      expect(sameNet.status).toBe(429);
      const otherNet = await svc.post(
        '/v1/oauth2/token',
        'grant_type=client_credentials',
        undefined,
        v6('cc00::1'),
      );
      expect(otherNet.status).toBe(200);
    });

    it('stops a guesser spread over many networks at the per-client ceiling (RFC 6749 §2.3.1)', async () => {
      const bruteForce = {
        maxClientFailures: 5,
        maxClientTotalFailures: 12,
        clientWindowSeconds: 900,
      };
      const svc = inProcess(counted({ bruteForce }, kind().make()).options);
      for (let i = 0; i < 12; i++) {
        const res = await svc.post(
          '/v1/oauth2/token',
          'grant_type=client_credentials',
          basic('demo-client', 'x'),
          `198.51.100.${i}`,
        );
        expect(res.status).toBe(401);
      }
      const fresh = await svc.post(
        '/v1/oauth2/token',
        'grant_type=client_credentials',
        undefined,
        '192.0.2.200',
      );
      expect(fresh.status).toBe(429);
      expect(Number(fresh.headers.get('retry-after'))).toBeGreaterThan(800);
    });

    it('keeps refresh, password and code grants working after a flood of failed logins with made-up client ids (RFC 6749 §10.10)', async () => {
      const k = kind();
      const svc = inProcess(counted({}, k.make(1000)).options);
      const { refresh_token } = await (await svc.password('bob', 'builder')).json();
      const flood = [];
      for (let i = 0; i < 1200; i++) {
        const from = `10.1.${i >> 8}.${i & 255}`;
        flood.push(
          svc.post(
            '/v1/oauth2/token',
            'grant_type=client_credentials',
            basic(`ghost-${i}`, 'x'),
            from,
          ),
        );
        if (flood.length === 100)
          expect(statuses(await Promise.all(flood.splice(0)))).toEqual({ 401: 100 });
      }
      const refreshed = await svc.post(
        '/v1/oauth2/token',
        `grant_type=refresh_token&refresh_token=${refresh_token}`,
      );
      expect(refreshed.status).toBe(200);
      expect((await svc.password('alice', 'wonderland')).status).toBe(200);
      const { code, verifier } = await svc.signIn('alice', 'wonderland');
      expect((await svc.exchange(code!, verifier)).status).toBe(200);
    });

    it('counts made-up client ids by network only: one network gets 429 after 100 and writes one counter (RFC 6749 §10.10)', async () => {
      const k = kind();
      const svc = inProcess(counted({}, k.make()).options);
      const seen: number[] = [];
      for (let i = 0; i < 300; i++) {
        const res = await svc.post(
          '/v1/oauth2/token',
          'grant_type=client_credentials',
          basic(`ghost-${i}`, 'x'),
          '192.0.2.66',
        );
        seen.push(res.status);
      }
      expect(seen.slice(0, 100).every((s) => s === 401)).toBe(true);
      expect(seen.slice(100).every((s) => s === 429)).toBe(true);
      if (k.counters) expect(await k.counters()).toBe(1);
      expect((await svc.password('bob', 'builder', home)).status).toBe(200);
    });

    it('revokes the access tokens a replayed code issued, those refreshed from it included (RFC 6749 §4.1.2, RFC 7009 §2.1)', async () => {
      const { side, revoked } = testTokens();
      const svc = inProcess(counted({}, kind().make(), side).options);
      const active = async (token: string) =>
        (await (await svc.post('/v1/oauth2/introspect', `token=${token}`, web)).json()).active;
      const { code, verifier } = await svc.signIn('alice', 'wonderland');
      const first = await (await svc.exchange(code!, verifier)).json();
      const second = await (
        await svc.post(
          '/v1/oauth2/token',
          `grant_type=refresh_token&refresh_token=${first.refresh_token}`,
          web,
        )
      ).json();
      expect(await active(first.access_token)).toBe(true);
      expect(await active(second.access_token)).toBe(true);
      const replay = await svc.exchange(code!, verifier);
      expect(replay.status).toBe(400);
      expect(await active(first.access_token)).toBe(false);
      expect(await active(second.access_token)).toBe(false);
      expect(revoked.size).toBe(2);
    });

    it('leaves no live token from two concurrent redemptions of one code (RFC 6749 §4.1.2)', async () => {
      for (let round = 0; round < 5; round++) {
        const { side } = testTokens();
        const svc = inProcess(counted({}, kind().make(), side).options);
        const { code, verifier } = await svc.signIn('alice', 'wonderland');
        const answers = await Promise.all([
          svc.exchange(code!, verifier),
          svc.exchange(code!, verifier),
        ]);
        // The second use revokes the grant; the first is refused too when the revocation came
        // before its tokens were out, else its tokens are revoked.
        expect(answers.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
        for (const answer of answers) {
          const body = await answer.json();
          if (answer.status !== 200) {
            expect(body.error).toBe('invalid_grant');
            continue;
          }
          const check = await svc.post('/v1/oauth2/introspect', `token=${body.access_token}`, web);
          expect((await check.json()).active).toBe(false);
          const refresh = `grant_type=refresh_token&refresh_token=${body.refresh_token}`;
          expect((await svc.post('/v1/oauth2/token', refresh, web)).status).toBe(400);
        }
      }
    });
  });
}

hostileLogins('a MemoryStore', () => ({
  make: (bound) => new MemoryStore(bound === undefined ? {} : { maxKeys: bound }),
}));

describeRedis('hostile logins on a real redis-server', () => {
  const redis = redisForSuite();
  hostileLogins('RedisStore', () => ({
    make: () => new RedisStore({ command: redisCommand(redis()) }),
    counters: async () => (await redis().keys('oauth:bf:*')).length,
  }));
});
