/**
 * The store contract on a real three-node Redis Cluster started here (`redis-server
 * --cluster-enabled yes` ×3 and `redis-cli --cluster create`), through node-redis's and ioredis's
 * cluster clients, and the rate limiter's keys spread over its slots.
 */
import { createRateLimiter } from 'api-conventions';
import { RedisStore, redisCommand } from 'api-conventions/redis';
import { Cluster } from 'ioredis';
import { createCluster } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RequestContext } from '../../src/core/kernel/context.ts';
import { describeRedis, type RedisCluster, startCluster } from './_redis-servers.ts';
import { storeContract } from './contract.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describeRedis(
  'Redis store on a three-node Redis Cluster',
  () => {
    let cluster: RedisCluster;
    let nodeClient: ReturnType<typeof createCluster>;
    let ioClient: Cluster;

    beforeAll(async () => {
      cluster = await startCluster();
      nodeClient = createCluster({
        rootNodes: cluster.ports.map((port) => ({ url: `redis://127.0.0.1:${port}` })),
      });
      nodeClient.on('error', () => {});
      await nodeClient.connect();
      ioClient = new Cluster(cluster.nodes);
    }, 60_000);

    afterAll(async () => {
      await nodeClient?.close().catch(() => {});
      ioClient?.disconnect();
      await cluster?.stop();
    });

    const onCluster = {
      advance: (ms: number) => sleep(ms),
      ttlMs: 400,
      slackMs: 100,
      makeFailingStore: () =>
        new RedisStore({
          command: () => Promise.reject(new Error('CLUSTERDOWN The cluster is down')),
        }),
    };

    storeContract(
      'RedisStore (node-redis cluster)',
      () => new RedisStore({ command: redisCommand(nodeClient) }),
      onCluster,
    );
    storeContract(
      'RedisStore (ioredis Cluster)',
      () => new RedisStore({ command: redisCommand(ioClient) }),
      onCluster,
    );

    describe('rate limits on the cluster', () => {
      it('keeps every policy of one caller in one slot and spreads callers over the nodes', async () => {
        const store = new RedisStore({ command: redisCommand(ioClient) });
        const limiter = createRateLimiter({
          store,
          prefix: `rl-${Date.now()}:`,
          policies: [
            { name: 'burst', limit: 5, window: 1, algorithm: 'sliding-window' },
            { name: 'hourly', limit: 100, window: 3600 },
            { name: 'smooth', limit: 50, window: 60, algorithm: 'gcra' },
          ],
        });
        const slots = new Set<number>();
        for (let i = 0; i < 30; i++) {
          const ctx = new RequestContext(
            { method: 'GET', url: '/', headers: new Map(), remoteAddress: `192.0.2.${i}` } as never,
            '/',
            '',
            () => false,
          );
          await expect(Promise.resolve(limiter.check(ctx))).resolves.toMatchObject({
            remaining: 4,
          });
          slots.add(Number(await ioClient.call('CLUSTER', 'KEYSLOT', `x{ip:192.0.2.${i}}`)));
        }
        expect(slots.size).toBeGreaterThan(1);
      });
    });
  },
  true,
);
