/**
 * The store contract on a real redis-server, through node-redis and through ioredis, and what
 * is Redis's own: scripts by SHA with the NOSCRIPT fallback, ping at start-up, the command helper.
 */
import { RedisStore, redisCommand } from 'api-conventions/redis';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeRedis, freePort, type RedisServer, startRedis } from './_redis-servers.ts';
import { storeContract } from './contract.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** A store over an ioredis client to a port nobody listens on: every call rejects at once. */
async function unreachableStore(): Promise<RedisStore> {
  const client = new Redis({
    port: await freePort(),
    lazyConnect: true,
    enableOfflineQueue: false,
    retryStrategy: () => null,
    maxRetriesPerRequest: 0,
  });
  client.on('error', () => {});
  return new RedisStore({ command: redisCommand(client) });
}

/** The contract's options on a real server: real waits, a short ttl, some slack for the clock. */
const onServer = {
  advance: (ms: number) => sleep(ms),
  ttlMs: 400,
  slackMs: 100,
  makeFailingStore: unreachableStore,
};

describeRedis('Redis store on a real redis-server', () => {
  let server: RedisServer;
  let nodeClient: ReturnType<typeof createClient>;
  let ioClient: Redis;

  beforeAll(async () => {
    server = await startRedis();
    nodeClient = createClient({ url: server.url });
    nodeClient.on('error', () => {});
    await nodeClient.connect();
    ioClient = new Redis(server.port, '127.0.0.1');
  });

  afterAll(async () => {
    await nodeClient?.quit().catch(() => {});
    ioClient?.disconnect();
    await server?.stop();
  });

  storeContract(
    'RedisStore (node-redis)',
    () => new RedisStore({ command: redisCommand(nodeClient) }),
    onServer,
  );
  storeContract(
    'RedisStore (ioredis)',
    () => new RedisStore({ command: redisCommand(ioClient) }),
    onServer,
  );

  describe('RedisStore', () => {
    it('runs its scripts by SHA and sends them whole after SCRIPT FLUSH (NOSCRIPT)', async () => {
      const sent: string[] = [];
      const command = redisCommand(ioClient);
      const store = new RedisStore({
        command: (args, key) => {
          sent.push(args[0]!);
          return command(args, key);
        },
      });
      const check = {
        key: '{noscript}:k',
        algorithm: 'fixed-window',
        limit: 5,
        windowMs: 1000,
        cost: 1,
      } as const;
      await store.limit([check], Date.now());
      await ioClient.call('SCRIPT', 'FLUSH');
      sent.length = 0;
      const [verdict] = await store.limit([check], Date.now());
      expect(verdict).toMatchObject({ allowed: true, remaining: 3 });
      expect(sent).toEqual(['EVALSHA', 'EVAL']);
      sent.length = 0;
      await store.limit([check], Date.now());
      expect(sent).toEqual(['EVALSHA']);
    });

    it('ping() resolves on a live server and rejects with a clear error on a dead one', async () => {
      await new RedisStore({ command: redisCommand(nodeClient) }).ping();
      await expect((await unreachableStore()).ping()).rejects.toThrow(/^Redis is unreachable: /);
    });

    it('ping() gives up within its bound when the server does not answer', async () => {
      const store = new RedisStore({ command: () => new Promise(() => {}) });
      await expect(store.ping(50)).rejects.toThrow(/no answer to PING within 50 ms/);
    });

    it('redisCommand refuses what is not a client, saying what it takes', () => {
      expect(() => redisCommand({})).toThrow(/node-redis client or cluster/);
      expect(() => new RedisStore({} as never)).toThrow(/redisCommand\(client\)/);
    });
  });
});
