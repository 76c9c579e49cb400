/**
 * Two bookshelf instances sharing one real redis-server and one set of keys: refresh-token
 * families and authorization codes hold across them (RFC 9700 §4.14.2, RFC 6749 §4.1.2).
 */
import { createHash, randomBytes } from 'node:crypto';
import { createTokenKeys } from 'api-conventions';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import type { Running } from '../../examples/bookshelf/hosts/host.ts';
import { serve } from '../../examples/bookshelf/hosts/node.ts';
import { demoRedirectUri } from '../../examples/bookshelf/oauth.ts';
import { connectSharedState, type SharedState } from '../../examples/bookshelf/shared-state.ts';
import { describeRedis, type RedisServer, startRedis } from '../stores/_redis-servers.ts';

const quiet = { error() {}, warn() {} };
const form = 'application/x-www-form-urlencoded';
const basic = (id: string, secret: string) =>
  `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

describeRedis('OAuth state on Redis, two instances', () => {
  let redis: RedisServer;
  let shared: SharedState;
  let a: Running;
  let b: Running;

  beforeAll(async () => {
    redis = await startRedis();
    shared = await connectSharedState(redis.url);
    const keys = createTokenKeys({ logger: quiet });
    const build = () =>
      createBookshelf({ logger: quiet, store: shared.store, oauth: { keys, logger: quiet } });
    [a, b] = await Promise.all([
      serve(build(), { port: 0, host: '127.0.0.1' }),
      serve(build(), { port: 0, host: '127.0.0.1' }),
    ]);
  }, 30_000);

  afterAll(async () => {
    await Promise.all([a?.close(), b?.close()]);
    await shared?.close();
    await redis?.stop();
  });

  const token = (on: Running, body: string, auth = basic('demo-client', 'demo-secret')) =>
    fetch(`http://127.0.0.1:${on.port}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': form },
      body,
    });

  /**
   * Two concurrent uses of one refresh token or code: at most one succeeds, and the replay
   * revokes the grant, so whatever the winner got is dead too (RFC 9700 §4.14.2, RFC 6749 §4.1.2).
   */
  async function expectNothingLive(answers: Response[], auth?: string) {
    expect(answers.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    expect(answers.some((r) => r.status === 400)).toBe(true);
    for (const answer of answers.filter((r) => r.status === 200)) {
      const { access_token, refresh_token } = await answer.json();
      const me = await fetch(`http://127.0.0.1:${b.port}/v1/me`, {
        headers: { authorization: `Bearer ${access_token}` },
      });
      expect(me.status).toBe(401);
      const again = await token(a, `grant_type=refresh_token&refresh_token=${refresh_token}`, auth);
      expect(again.status).toBe(400);
    }
  }

  it('lets at most one of two concurrent refreshes succeed across the instances (RFC 9700 §4.14.2)', async () => {
    for (let round = 0; round < 5; round++) {
      const login = await token(a, 'grant_type=password&username=alice&password=wonderland');
      const { refresh_token } = await login.json();
      const body = `grant_type=refresh_token&refresh_token=${refresh_token}`;
      const answers = await Promise.all([token(a, body), token(b, body)]);
      await expectNothingLive(answers);
    }
  });

  it('rotates on one instance and detects the replay on the other, revoking the family (RFC 9700 §4.14.2)', async () => {
    const first = await (
      await token(a, 'grant_type=password&username=bob&password=builder')
    ).json();
    const second = await (
      await token(b, `grant_type=refresh_token&refresh_token=${first.refresh_token}`)
    ).json();
    expect(second.refresh_token).toBeDefined();
    const replay = await token(a, `grant_type=refresh_token&refresh_token=${first.refresh_token}`);
    expect(replay.status).toBe(400);
    const after = await token(b, `grant_type=refresh_token&refresh_token=${second.refresh_token}`);
    expect((await after.json()).error).toBe('invalid_grant');
  });

  it('redeems a code issued by one instance at most once on the other (RFC 6749 §4.1.2)', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const params = new URLSearchParams({
      response_type: 'code',
      client_id: 'demo-web',
      redirect_uri: demoRedirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      username: 'alice',
      password: 'wonderland',
    });
    const signIn = await fetch(`http://127.0.0.1:${a.port}/v1/oauth2/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': form },
      body: params.toString(),
    });
    const code = new URL(signIn.headers.get('location')!).searchParams.get('code')!;
    const body = `grant_type=authorization_code&code=${code}&redirect_uri=${encodeURIComponent(demoRedirectUri)}&code_verifier=${verifier}`;
    const web = basic('demo-web', 'demo-web-secret');
    const answers = await Promise.all([token(b, body, web), token(a, body, web)]);
    await expectNothingLive(answers, web);
  });

  /** Signs alice in on `on` and answers the code, its verifier and the token-request body. */
  async function codeFrom(on: Running) {
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const params = new URLSearchParams({
      response_type: 'code',
      client_id: 'demo-web',
      redirect_uri: demoRedirectUri,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      username: 'alice',
      password: 'wonderland',
    });
    const signIn = await fetch(`http://127.0.0.1:${on.port}/v1/oauth2/authorize`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': form },
      body: params.toString(),
    });
    const code = new URL(signIn.headers.get('location')!).searchParams.get('code')!;
    return `grant_type=authorization_code&code=${code}&redirect_uri=${encodeURIComponent(demoRedirectUri)}&code_verifier=${verifier}`;
  }

  it('revokes on every instance the access token a code replayed on another one issued (RFC 6749 §4.1.2)', async () => {
    const web = basic('demo-web', 'demo-web-secret');
    const body = await codeFrom(a);
    const first = await token(b, body, web);
    expect(first.status).toBe(200);
    const { access_token } = await first.json();
    expect((await token(a, body, web)).status).toBe(400);
    const me = await fetch(`http://127.0.0.1:${b.port}/v1/me`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    expect(me.status).toBe(401);
  });

  it('checks at most 10 of 100 concurrent guesses for one user spread over two instances (RFC 6749 §4.3.2, RFC 9700 §2.4)', async () => {
    const guesses = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        token(i % 2 ? a : b, `grant_type=password&username=bob&password=guess-${i}`),
      ),
    );
    const wrong = guesses.filter((r) => r.status === 400).length;
    expect(wrong).toBeLessThanOrEqual(10);
    // Nothing else than wrong (400) or refused unchecked (429); on a machine loaded by the
    // parallel suites a store call of this burst may pass the guard's 1 s and be a 503 (refused).
    expect(guesses.filter((r) => ![400, 429, 503].includes(r.status))).toEqual([]);
    for (const on of [a, b]) {
      const right = await token(on, 'grant_type=password&username=bob&password=builder');
      expect(right.status).toBe(429);
    }
  });
});
