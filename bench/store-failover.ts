/**
 * How long a request waits during a Redis Cluster master failover: a local cluster of three
 * masters with a replica each (test/stores/_redis-servers.ts), the master that serves the
 * requests' keys frozen (SIGSTOP) until its replica takes over, and sequential requests meanwhile.
 * Prints the statuses and answer times of each kind of request; the figures go to docs/redis.md
 * ("When Redis fails"). Measured, never asserted (CONTRIBUTING.md rule 19).
 *
 * - `bookshelf, new token`: the bookshelf on the cluster (every piece of state in it), `GET
 *   /v1/books` with a token seen for the first time, whose revocation key is on that master.
 * - `open limit + job status`: `rateLimit({ onStoreFailure: 'open' })` and a job's status
 *   (`createJobs`), both keys on that master: two store calls in one request.
 *
 * Usage: node --import tsx bench/store-failover.ts [--window-ms 3000]
 */
import { parseArgs } from 'node:util';
import { conventions, createJobs, rateLimit } from 'api-conventions';
import { RedisStore, redisCommand } from 'api-conventions/redis';
import { decodeJwt } from 'jose';
import { createCluster } from 'redis';
import { createBookshelf } from '../examples/bookshelf/app.ts';
import { loadHost, type Running } from '../examples/bookshelf/hosts/host.ts';
import { type RedisServer, startCluster } from '../test/stores/_redis-servers.ts';

const { values } = parseArgs({ options: { 'window-ms': { type: 'string', default: '3000' } } });
const windowMs = Number(values['window-ms']);

const cluster = await startCluster({ replicas: 1, nodeTimeoutMs: 1000 });
const client = createCluster({
  rootNodes: cluster.ports.map((port) => ({ url: `redis://127.0.0.1:${port}` })),
  defaults: { socket: { reconnectStrategy: (n: number) => Math.min(100 * (n + 1), 1000) } },
});
client.on('error', () => {});
await client.connect();
const store = new RedisStore({ command: redisCommand(client) });
const quiet = { error() {}, warn() {} };
const serve = await loadHost('node');
const running: Running[] = [];
const listen = async (api: Parameters<typeof serve>[0]) => {
  const server = await serve(api, { port: 0, host: '127.0.0.1' });
  running.push(server);
  return `http://127.0.0.1:${server.port}`;
};

const shelf = await listen(
  createBookshelf({ logger: quiet, store, oauth: { issuer: 'http://shelf.test' } }),
);
const jobs = createJobs({ path: '/v1/imports', store });
const open = await listen(
  conventions({
    logger: quiet,
    plugins: [
      rateLimit({ store, onStoreFailure: 'open', policies: [{ limit: 100_000, window: 3600 }] }),
      jobs,
    ],
  }),
);

/** The master that counts anonymous callers from 127.0.0.1 now: the one frozen next. */
const currentMaster = () => cluster.masterOf('{ip:127.0.0.1}');

/** Tokens issued while the cluster is whole, each with its revocation key on `master`. */
async function tokensOn(master: RedisServer, count: number): Promise<string[]> {
  const basic = `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`;
  const found: string[] = [];
  while (found.length < count) {
    const res = await fetch(`${shelf}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password&username=alice&password=wonderland',
    });
    const { access_token: token } = (await res.json()) as { access_token: string };
    const key = `tokens:revoked:${decodeJwt(token).jti}`;
    if ((await cluster.masterOf(key)) === master) found.push(token);
  }
  return found;
}

/** A job id whose status key is on `master`. */
async function jobOn(master: RedisServer): Promise<string> {
  for (let i = 0; ; i++) {
    const id = `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
    if ((await cluster.masterOf(`job:${id}`)) === master) return id;
  }
}

/** Each kind of request: how to prepare it for a master (before it freezes), then send one. */
const kinds: Record<string, (master: RedisServer) => Promise<() => Promise<Response>>> = {
  'bookshelf, new token': async (master) => {
    const tokens = await tokensOn(master, 40);
    return () =>
      fetch(`${shelf}/v1/books`, { headers: { authorization: `Bearer ${tokens.shift()}` } });
  },
  'open limit + job status': async (master) => {
    const id = await jobOn(master);
    return () => fetch(`${open}/v1/imports/${id}`);
  },
};

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

for (const [name, prepare] of Object.entries(kinds)) {
  const master = await currentMaster();
  const send = await prepare(master);
  // Warm up: each script known to each master, each connection open.
  await (await fetch(`${open}/v1/books`)).arrayBuffer();
  master.pause();
  const times: number[] = [];
  const statuses = new Map<number, number>();
  const until = performance.now() + windowMs;
  while (performance.now() < until && times.length < 40) {
    const start = performance.now();
    const res = await send();
    await res.arrayBuffer();
    times.push(performance.now() - start);
    statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
  }
  master.resume();
  console.log(
    `${name}: ${times.length} requests, statuses ${JSON.stringify(Object.fromEntries(statuses))}, ` +
      `answer time median ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms`,
  );
  // The old master rejoins as a replica; wait until the cluster serves every slot again.
  for (let i = 0; i < 100; i++) {
    const whole = await currentMaster().then(
      (now) => now !== master,
      () => false,
    );
    if (whole && (await fetch(`${open}/v1/books`)).status !== 503) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

for (const server of running) await server.close();
client.destroy();
await cluster.stop();
