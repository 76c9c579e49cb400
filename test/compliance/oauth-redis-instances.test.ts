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

  it('lets exactly one of two concurrent refreshes succeed across the instances (RFC 9700 §4.14.2)', async () => {
    for (let round = 0; round < 5; round++) {
      const login = await token(a, 'grant_type=password&username=alice&password=wonderland');
      const { refresh_token } = await login.json();
      const body = `grant_type=refresh_token&refresh_token=${refresh_token}`;
      const answers = await Promise.all([token(a, body), token(b, body)]);
      expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
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

  it('redeems a code issued by one instance exactly once on the other (RFC 6749 §4.1.2)', async () => {
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
    expect(answers.map((r) => r.status).sort()).toEqual([200, 400]);
  });
});
