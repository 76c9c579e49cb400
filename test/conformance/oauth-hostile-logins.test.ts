/**
 * The bookshelf's sign-in and token endpoints against hostile logins, on every host: a 200-way
 * password race, the sign-in endpoint counted with the token endpoint, one address locking a
 * client out, and a replayed authorization code.
 */
import { createHash, randomBytes } from 'node:crypto';
import { request } from 'node:http';
import { MemoryStore } from 'api-conventions';
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { demoRedirectUri } from '../../examples/bookshelf/oauth.ts';
import { describeMatrix, type Served } from './_matrix.ts';

const quiet = { logger: { error() {}, warn() {} } };
const form = 'application/x-www-form-urlencoded';
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;
const demo = basic('demo-client', 'demo-secret');
const web = basic('demo-web', 'demo-web-secret');

/** POSTs a form from a given local address (127.0.0.0/8 is all loopback): the caller's network. */
function postFrom(
  served: Served,
  path: string,
  body: string,
  from: string,
  authorization?: string,
): Promise<{ status: number; location?: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { 'content-type': form };
    if (authorization) headers.authorization = authorization;
    const req = request(
      { host: '127.0.0.1', port: served.port, path, method: 'POST', localAddress: from, headers },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, location: res.headers.location, body: text }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const token = (served: Served, body: string, from = '127.0.0.1', auth = demo) =>
  postFrom(served, '/v1/oauth2/token', body, from, auth);

/** Signs a user in at the bookshelf's sign-in endpoint for demo-web with a fresh PKCE pair. */
async function signIn(served: Served, username: string, password: string, from = '127.0.0.1') {
  const verifier = randomBytes(32).toString('base64url');
  const params = new URLSearchParams({
    response_type: 'code',
    client_id: 'demo-web',
    redirect_uri: demoRedirectUri,
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    username,
    password,
  });
  const res = await postFrom(served, '/v1/oauth2/authorize', params.toString(), from);
  const code = res.location ? new URL(res.location).searchParams.get('code') : null;
  const exchange = `grant_type=authorization_code&code=${code}&redirect_uri=${encodeURIComponent(demoRedirectUri)}&code_verifier=${verifier}`;
  return { status: res.status, code, exchange };
}

describeMatrix(
  'OAuth against hostile logins',
  // A rate limit high enough that only the login counters answer 429 here.
  () => createBookshelf({ ...quiet, rateLimit: { limit: 100_000, window: 3600 } }),
  (served) => {
    it('revokes the access token a replayed authorization code issued (RFC 6749 §4.1.2)', async () => {
      // First: the tests after it lock alice and bob out.
      const from = '127.0.0.4';
      const { exchange } = await signIn(served, 'alice', 'wonderland', from);
      const first = await token(served, exchange, from, web);
      expect(first.status).toBe(200);
      const { access_token } = JSON.parse(first.body);
      const me = () =>
        served.fetchAs('anonymous', '/v1/me', {
          headers: { authorization: `Bearer ${access_token}` },
        });
      expect((await me()).status).toBe(200);
      const replay = await token(served, exchange, from, web);
      expect(replay.status).toBe(400);
      expect(JSON.parse(replay.body).error).toBe('invalid_grant');
      const after = await me();
      expect(after.status).toBe(401);
      expect(after.headers.get('www-authenticate')).toContain('invalid_token');
    });
    it('checks at most 10 of 200 concurrent guesses for one user and then refuses the right password with 429 (RFC 6749 §4.3.2, RFC 9700 §2.4)', async () => {
      const guesses = await Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          token(served, `grant_type=password&username=bob&password=guess-${i}`),
        ),
      );
      const wrong = guesses.filter((r) => r.status === 400).length;
      expect(wrong).toBeLessThanOrEqual(10);
      expect(wrong + guesses.filter((r) => r.status === 429).length).toBe(200);
      const right = await token(served, 'grant_type=password&username=bob&password=builder');
      expect(right.status).toBe(429);
      expect(JSON.parse(right.body)).toMatchObject({ errors: [{ code: 42900 }] });
    });

    it('counts the sign-in endpoint with the token endpoint: bob locked at one is locked at the other, and no code is issued (RFC 6749 §10.10)', async () => {
      // bob is locked by the guesses above, at the token endpoint.
      const locked = await signIn(served, 'bob', 'builder');
      expect(locked.status).toBe(429);
      expect(locked.code).toBeNull();
      for (let i = 0; i < 10; i++) {
        expect((await signIn(served, 'alice', `guess-${i}`)).status).toBe(403);
      }
      expect((await signIn(served, 'alice', 'wonderland')).status).toBe(429);
      const grant = await token(served, 'grant_type=password&username=alice&password=wonderland');
      expect(grant.status).toBe(429);
    });

    it('locks a client out only from the address its 101 wrong secrets came from (RFC 6749 §2.3.1)', async () => {
      const attacker = '127.0.0.2';
      for (let i = 0; i < 101; i++) {
        const res = await token(
          served,
          'grant_type=client_credentials',
          attacker,
          basic('demo-client', `guess-${i}`),
        );
        expect(res.status).toBe(i < 100 ? 401 : 429);
      }
      expect((await token(served, 'grant_type=client_credentials', attacker)).status).toBe(429);
      expect((await token(served, 'grant_type=client_credentials', '127.0.0.3')).status).toBe(200);
    });
  },
);

describeMatrix(
  'OAuth after a flood of failed logins with made-up client ids',
  // The bound of the OAuth state's store made small, so a flood of 1,200 fills it if it can.
  () =>
    createBookshelf({
      ...quiet,
      rateLimit: { limit: 100_000, window: 3600 },
      oauth: { store: new MemoryStore({ maxKeys: 1000 }) },
    }),
  (served) => {
    it('keeps refresh, password grants and sign-in working for everyone (RFC 6749 §10.10)', async () => {
      const before = await token(served, 'grant_type=password&username=alice&password=wonderland');
      const { refresh_token } = JSON.parse(before.body);
      for (let batch = 0; batch < 12; batch++) {
        const answers = await Promise.all(
          Array.from({ length: 100 }, (_, i) =>
            token(
              served,
              'grant_type=client_credentials',
              `127.1.${batch}.${i + 1}`,
              basic(`ghost-${batch}-${i}`, 'x'),
            ),
          ),
        );
        expect(answers.every((r) => r.status === 401)).toBe(true);
      }
      const refreshed = await token(
        served,
        `grant_type=refresh_token&refresh_token=${refresh_token}`,
      );
      expect(refreshed.status).toBe(200);
      expect(
        (await token(served, 'grant_type=password&username=bob&password=builder')).status,
      ).toBe(200);
      const { exchange } = await signIn(served, 'alice', 'wonderland');
      expect((await token(served, exchange, '127.0.0.1', web)).status).toBe(200);
    });
  },
);
