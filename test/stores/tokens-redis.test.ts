/**
 * Revocation of access tokens across instances sharing a real Redis (RFC 7009 §2): refused at
 * once by the instance that revoked, at once by any instance that has not seen the token, and
 * within `revocationCheckMs` by an instance that has it cached; a Redis that is down fails closed.
 */
import { createClient } from 'redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { ApiResponse } from '../../src/host.ts';
import { bearer, conventions, createTokenKeys } from '../../src/index.ts';
import { issueAccessToken } from '../../src/oauth.ts';
import { RedisStore, redisCommand } from '../../src/redis.ts';
import { describeRedis, type RedisServer, startRedis } from './_redis-servers.ts';

const issuer = 'https://auth.example.com';
const audience = 'https://api.example.com';
const quiet = { error: () => {}, warn: () => {} };

describeRedis('token revocation on a shared Redis', () => {
  let server: RedisServer;
  const clients: { destroy(): unknown }[] = [];
  let now = Date.now();

  async function instance(revocationCheckMs = 1000) {
    const client = createClient({ url: server.url });
    client.on('error', () => {}); // reconnects while the test kills Redis
    await client.connect();
    clients.push(client);
    const store = new RedisStore({ command: redisCommand(client) });
    const plugin = bearer({
      keys: await keys,
      issuer,
      audience,
      store,
      revocationCheckMs,
      now: () => now,
    });
    const api = conventions({
      lint: 'off',
      logger: quiet,
      plugins: [plugin],
      routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } },
    });
    const send = async (token: string): Promise<ApiResponse> =>
      api.handle({
        method: 'GET',
        url: '/v1/books',
        headers: new Headers({ authorization: `Bearer ${token}` }),
      });
    return { plugin, send };
  }

  const keys = createTokenKeys({ logger: quiet });
  const issue = async () =>
    issueAccessToken(await keys, {
      issuer,
      audience,
      subject: 'alice',
      clientId: 'c',
      scope: '',
      ttlSeconds: 600,
    });

  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    for (const c of clients) await Promise.resolve(c.destroy()).catch(() => {});
    await server?.stop();
  });

  it('refuses a revoked token at once here and on a first-seen instance, and within the bound on a cached one', async () => {
    const a = await instance();
    const b = await instance();
    const t = await issue();
    expect((await a.send(t.token)).status).toBe(200);
    expect((await b.send(t.token)).status).toBe(200);
    await a.plugin.revoke(t.jti, t.expiresAt);
    expect((await a.send(t.token)).status).toBe(401);
    const c = await instance();
    expect((await c.send(t.token)).status).toBe(401);
    // b has the token cached: served until the bound passes, refused after it.
    expect((await b.send(t.token)).status).toBe(200);
    now += 1000;
    const late = await b.send(t.token);
    expect(late.status).toBe(401);
    expect(late.headers['www-authenticate']).toMatch(/revoked/);
  });

  it('keeps a revocation only until the token expires (the id has a TTL)', async () => {
    const a = await instance();
    const t = await issue();
    await a.plugin.revoke(t.jti, t.expiresAt);
    const ttl = await redisTtl(`tokens:revoked:${t.jti}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(600_000 + 1000);
  });

  it('answers 503 and accepts no new token while Redis is down', async () => {
    const a = await instance();
    const t = await issue();
    await server.kill();
    try {
      expect((await a.send(t.token)).status).toBe(503);
    } finally {
      await server.restart();
    }
  });

  async function redisTtl(key: string): Promise<number> {
    const client = await createClient({ url: server.url }).connect();
    try {
      return Number(await client.pTTL(key));
    } finally {
      await client.quit();
    }
  }
});
