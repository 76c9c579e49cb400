/**
 * A Redis Cluster master failover, on a local cluster of three masters with a replica each: the
 * master that serves a request's keys hangs (SIGSTOP) until its replica takes over. Every
 * request is answered meanwhile, a 503 with the error body, and its store calls share one store
 * budget: a rate limit that fails open spends it, and the job status read after it is refused
 * without asking Redis, instead of waiting a bound of its own. Counted, never timed (the
 * measured answer time is in docs/redis.md, "When Redis fails").
 */
import { conventions, createJobs, rateLimit } from 'api-conventions';
import { type RedisCommand, RedisStore, redisCommand } from 'api-conventions/redis';
import { createCluster } from 'redis';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadHost, type Running } from '../../examples/bookshelf/hosts/host.ts';
import {
  describeRedis,
  type RedisCluster,
  type RedisServer,
  startCluster,
} from './_redis-servers.ts';

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

describeRedis(
  'A Redis Cluster master failover, with one store budget per request',
  () => {
    let cluster: RedisCluster;
    let client: ReturnType<typeof createCluster>;
    let running: Running;
    let paused: RedisServer | undefined;
    /** Commands sent to Redis since the last reset: the store calls that asked it. */
    let sent = 0;
    /** A job id whose status key lives on the same master as the limiter's key. */
    let id = '';

    beforeAll(async () => {
      cluster = await startCluster({ replicas: 1, nodeTimeoutMs: 1000 });
      client = createCluster({
        rootNodes: cluster.ports.map((port) => ({ url: `redis://127.0.0.1:${port}` })),
        defaults: { socket: { reconnectStrategy: (n: number) => Math.min(100 * (n + 1), 1000) } },
      });
      client.on('error', () => {});
      await client.connect();
      const command = redisCommand(client);
      const counted: RedisCommand = (args, key) => {
        sent++;
        return command(args, key);
      };
      const store = new RedisStore({ command: counted });
      const jobs = createJobs({ path: '/v1/imports', store });
      const api = conventions({
        logger: { error() {}, warn() {} },
        plugins: [
          // Documented in docs/redis.md: requests go through uncounted while the store fails.
          rateLimit({ store, onStoreFailure: 'open', policies: [{ limit: 1000, window: 3600 }] }),
          jobs,
        ],
      });
      running = await (await loadHost('node'))(api, { port: 0, host: '127.0.0.1' });
      // The anonymous caller's counters live under the hash tag {ip:127.0.0.1}.
      const master = await cluster.masterOf('{ip:127.0.0.1}');
      for (let i = 0; id === ''; i++) {
        const candidate = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
        if ((await cluster.masterOf(`job:${candidate}`)) === master) id = candidate;
      }
      paused = master;
    }, 90_000);

    afterAll(async () => {
      paused?.resume();
      await running?.close();
      client?.destroy();
      await cluster?.stop();
    });

    const status = () => fetch(`http://127.0.0.1:${running.port}/v1/imports/${id}`);

    it('answers each request during the failover with one 503, its store calls asking Redis once', async () => {
      // The first request teaches the master the limit's script (NOSCRIPT, then EVAL).
      expect((await status()).status).toBe(404);
      sent = 0;
      const healthy = await status();
      expect(healthy.status).toBe(404);
      // The limit's script and the status read: both reach Redis while it answers.
      expect(sent).toBe(2);

      paused!.pause();
      for (let i = 0; i < 3; i++) {
        sent = 0;
        const answer = await status();
        expect(answer.status).toBe(503);
        // The limit's script waited the request's whole budget (and let it through); the status
        // read was then refused without a command. One bound, not one per call.
        expect(sent).toBe(1);
        expect(await answer.json()).toEqual({
          errors: [{ message: expect.stringMatching(/250 ms/), code: 50301 }],
        });
      }

      // The replica takes over; once the old master is back (as a replica), service resumes.
      const replicaPromoted = async () => {
        const live = cluster.servers.find((s) => s !== paused)!;
        // While the cluster only suspects the old master, no live master serves the slot yet.
        const now = await cluster.masterOf('{ip:127.0.0.1}', live.port).catch(() => paused);
        return now !== paused;
      };
      for (let i = 0; i < 100 && !(await replicaPromoted()); i++) await sleep(100);
      expect(await replicaPromoted()).toBe(true);
      paused!.resume();
      let code = 503;
      for (let i = 0; i < 100 && code === 503; i++) {
        await sleep(100);
        code = (await status()).status;
      }
      expect(code).toBe(404);
    }, 60_000);
  },
  true,
);
