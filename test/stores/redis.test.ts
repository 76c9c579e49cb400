/**
 * The store contract on a real redis-server, through node-redis and through ioredis, and what
 * is Redis's own: scripts by SHA with the NOSCRIPT fallback, ping at start-up, the command helper.
 */
import { RedisStore, redisCommand } from 'api-conventions/redis';
import { Redis } from 'ioredis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitScript } from '../../src/stores/redis-scripts.ts';
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

    it('answers one fixed window with its own short script exactly as the general script does', async () => {
      // The one-check fast path against limitScript itself, call by call, on twin keys: costs
      // of 0 (a read), over the limit on a new counter (nothing stays), refusals and recovery.
      const store = new RedisStore({ command: redisCommand(ioClient) });
      const general = async (key: string, cost: number, now: number) => {
        const reply = (await ioClient.call(
          'EVAL',
          limitScript,
          '1',
          key,
          String(now),
          '1',
          'f',
          '3',
          '600',
          String(cost),
        )) as unknown[];
        return reply.map(Number);
      };
      const costs = [5, 0, 1, 1, 0, 2, 1, 1, 3, 0, 1];
      for (const [i, cost] of costs.entries()) {
        const now = Date.now();
        const [fast] = await store.limit(
          [{ key: 'twin:fast', algorithm: 'fixed-window', limit: 3, windowMs: 600, cost }],
          now,
        );
        const [allowed, remaining, resetAt, retryAfterMs] = await general(
          'twin:general',
          cost,
          now,
        );
        const where = `call ${i} (cost ${cost})`;
        expect(fast!.allowed, where).toBe(allowed === 1);
        expect(fast!.remaining, where).toBe(remaining);
        expect(Math.abs(fast!.resetAt - resetAt!), where).toBeLessThan(50);
        expect(Math.abs(fast!.retryAfterMs - retryAfterMs!), where).toBeLessThan(50);
        expect(await ioClient.exists('twin:fast'), where).toBe(
          await ioClient.exists('twin:general'),
        );
        expect(await ioClient.get('twin:fast'), where).toBe(await ioClient.get('twin:general'));
      }
      await sleep(700);
      const [fresh] = await store.limit(
        [{ key: 'twin:fast', algorithm: 'fixed-window', limit: 3, windowMs: 600, cost: 1 }],
        Date.now(),
      );
      expect(fresh).toMatchObject({ allowed: true, remaining: 2, retryAfterMs: 0 });
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
