/**
 * `node --expose-gc bench/rate-limits.mjs`: rate-limit checks per second, side by side.
 *
 * - Memory: checks per second over 1 key and over 10,000 keys: our MemoryStore.limit beside
 *   rate-limiter-flexible's RateLimiterMemory.consume and express-rate-limit's
 *   MemoryStore.increment (each a store-level count of one key), and our whole check on top
 *   (identity, key, store and headers on a request context). Target: ours ≥ 2 M/s over 10,000
 *   keys and ahead of both peers.
 * - Redis: checks per second at concurrency 50 on one local redis-server (started here on a free
 *   port, without persistence), our RedisStore beside rate-limiter-flexible's RateLimiterRedis,
 *   both over one ioredis client. Target: ours ≥ rate-limiter-flexible.
 * - Memory used by one million identities in our MemoryStore (heap after a full GC).
 *
 * A micro-benchmark, not a test (CONTRIBUTING.md rule 19): it measures and prints, never fails
 * on speed. It times the built package (`npm run build` first). Cases run in interleaved rounds
 * so a drift of the machine favours none; the report gives the median over the rounds.
 *
 * Usage: node --expose-gc bench/rate-limits.mjs [--rounds N] [--ms N] [--identities N] [--no-redis]
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

// The memory figure needs a full GC before and after: run again with --expose-gc when missing.
if (typeof globalThis.gc !== 'function') {
  const again = spawnSync(
    process.execPath,
    ['--expose-gc', fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    { stdio: 'inherit' },
  );
  process.exit(again.status ?? 1);
}

const dist = (name) => fileURLToPath(new URL(`../dist/${name}.mjs`, import.meta.url));
if (!existsSync(dist('index')) || !existsSync(dist('redis'))) {
  console.error('bench/rate-limits.mjs: dist/ is missing; run `npm run build` first');
  process.exit(1);
}
const { createRateLimiter, MemoryStore } = await import(dist('index'));
// The class itself is the core's: the package root exports RequestContext as a type only.
const { RequestContext } = await import(dist('core'));
const { RedisStore, redisCommand } = await import(dist('redis'));
const { RateLimiterMemory, RateLimiterRedis } = await import('rate-limiter-flexible');
const { MemoryStore: ExpressMemoryStore } = await import('express-rate-limit');
const { Redis } = await import('ioredis');

const { values } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    ms: { type: 'string', default: '300' },
    identities: { type: 'string', default: '1000000' },
    'no-redis': { type: 'boolean', default: false },
  },
});
const rounds = Number(values.rounds);
const ms = Number(values.ms);
const HUGE = 1_000_000_000; // a limit never reached, so every check is a counted pass
const HOUR = 3_600_000;

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const fmt = (n) =>
  n >= 1e6
    ? `${(n / 1e6).toFixed(2)} M/s`
    : n >= 1e3
      ? `${(n / 1e3).toFixed(1)} k/s`
      : `${n.toFixed(0)}/s`;

/** Runs `step(i)` in a loop for `ms`; answers calls per second. A promise is awaited. */
async function timed(step) {
  const end = performance.now() + ms;
  let n = 0;
  const start = performance.now();
  while (performance.now() < end) {
    for (let k = 0; k < 1000; k++) {
      const r = step(n++);
      if (r && typeof r.then === 'function') await r;
    }
  }
  return n / ((performance.now() - start) / 1000);
}

/** Keeps `concurrency` calls in flight for `ms`; answers calls per second. */
async function timedConcurrent(step, concurrency) {
  const end = performance.now() + ms;
  let n = 0;
  const start = performance.now();
  const worker = async () => {
    while (performance.now() < end) await step(n++);
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return n / ((performance.now() - start) / 1000);
}

/** Interleaves the cases round after round and prints the medians. */
async function compare(title, cases, run = timed) {
  const results = new Map(cases.map(([name]) => [name, []]));
  for (let r = 0; r < rounds; r++) {
    for (const [name, step] of cases) results.get(name).push(await run(step));
  }
  console.log(`\n${title}`);
  // Each peer is set beside the first case, ours at the same level (a store operation).
  const ours = median(results.get(cases[0][0]));
  for (const [name] of cases) {
    const m = median(results.get(name));
    const peer = !name.startsWith('ours');
    const ratio = peer ? `  (ours ${(ours / m).toFixed(2)}x)` : '';
    console.log(`  ${name.padEnd(52)} ${fmt(m).padStart(12)}${ratio}`);
  }
  return results;
}

const trustNone = () => false;
const contexts = (count) =>
  Array.from({ length: count }, (_, i) => {
    const ctx = new RequestContext(
      { method: 'GET', url: '/v1/books', headers: new Map(), remoteAddress: '192.0.2.1' },
      '/v1/books',
      '',
      trustNone,
    );
    ctx.identity = { subject: `user-${i}`, scopes: new Set(), via: 'bench' };
    return ctx;
  });

async function memoryCase(keys) {
  const ctxs = contexts(keys);
  const names = ctxs.map((_, i) => `user-${i}`);
  const ourStore = new MemoryStore({ maxKeys: 2 * keys + 10, whenFull: 'evict' });
  const limiter = createRateLimiter({
    store: ourStore,
    policies: [{ name: 'hourly', limit: HUGE, window: 3600 }],
  });
  const bareStore = new MemoryStore({ maxKeys: 2 * keys + 10 });
  const flexible = new RateLimiterMemory({ points: HUGE, duration: 3600 });
  const express = new ExpressMemoryStore();
  express.init({ windowMs: HOUR });
  const check = { key: '', algorithm: 'fixed-window', limit: HUGE, windowMs: HOUR, cost: 1 };
  const bareKeys = names.map((n) => `rl:{sub:${n}}:hourly`);
  await compare(`Memory store, checks per second over ${keys.toLocaleString('en')} key(s)`, [
    [
      'ours: MemoryStore.limit',
      (i) => {
        check.key = bareKeys[i % keys];
        return bareStore.limit([check], Date.now());
      },
    ],
    ['ours: the whole check (identity, key, store, headers)', (i) => limiter.check(ctxs[i % keys])],
    ['rate-limiter-flexible RateLimiterMemory.consume', (i) => flexible.consume(names[i % keys])],
    ['express-rate-limit MemoryStore.increment', (i) => express.increment(names[i % keys])],
  ]);
  ourStore.close();
  bareStore.close();
  express.shutdown?.();
}

/** A port nobody listens on now. */
const freePort = () =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });

const pong = (port) =>
  new Promise((resolve) => {
    const socket = new Socket();
    socket.once('error', () => resolve(false));
    socket.connect(port, '127.0.0.1', () => socket.write('PING\r\n'));
    socket.once('data', (d) => {
      socket.destroy();
      resolve(d.toString().startsWith('+PONG'));
    });
  });

async function redisCase() {
  const port = await freePort();
  let server;
  try {
    server = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
      { stdio: 'ignore' },
    );
    server.on('error', () => {});
    const deadline = Date.now() + 5000;
    while (!(await pong(port))) {
      if (Date.now() > deadline || server.exitCode !== null)
        throw new Error('redis-server did not start');
      await new Promise((r) => setTimeout(r, 50));
    }
  } catch (error) {
    console.log(`\nRedis: skipped (${error.message}; is redis-server installed?)`);
    server?.kill('SIGKILL');
    return;
  }
  const client = new Redis(port, '127.0.0.1');
  try {
    const store = new RedisStore({ command: redisCommand(client) });
    const limiter = createRateLimiter({
      store,
      policies: [{ name: 'hourly', limit: HUGE, window: 3600 }],
    });
    const ctxs = contexts(10_000);
    const flexible = new RateLimiterRedis({
      storeClient: client,
      points: HUGE,
      duration: 3600,
      keyPrefix: 'rlflx',
    });
    await compare(
      'Redis (one local redis-server), checks per second at concurrency 50 over 10,000 keys',
      [
        [
          'ours: RedisStore.limit (ioredis)',
          (i) =>
            store.limit(
              [
                {
                  key: `rl:{sub:user-${i % 10_000}}:bare`,
                  algorithm: 'fixed-window',
                  limit: HUGE,
                  windowMs: HOUR,
                  cost: 1,
                },
              ],
              Date.now(),
            ),
        ],
        ['ours: the whole check on RedisStore (ioredis)', (i) => limiter.check(ctxs[i % 10_000])],
        [
          'rate-limiter-flexible RateLimiterRedis.consume',
          (i) => flexible.consume(`user-${i % 10_000}`),
        ],
      ],
      (step) => timedConcurrent(step, 50),
    );
  } finally {
    client.disconnect();
    server.kill('SIGKILL');
  }
}

function identitiesCase() {
  const count = Number(values.identities);
  const gc = globalThis.gc;
  if (!gc) console.log('\n(run with node --expose-gc for an exact heap figure)');
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const store = new MemoryStore({ maxKeys: count + 10 });
  const check = { key: '', algorithm: 'fixed-window', limit: 1000, windowMs: HOUR, cost: 1 };
  const now = Date.now();
  for (let i = 0; i < count; i++) {
    check.key = `rl:{ip:10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}}:default`;
    store.limit([check], now);
  }
  gc?.();
  const used = process.memoryUsage().heapUsed - before;
  console.log(
    `\nMemory for ${count.toLocaleString('en')} identities (one fixed-window policy each): ` +
      `${(used / 2 ** 20).toFixed(0)} MiB, ${(used / count).toFixed(0)} bytes per identity`,
  );
  store.close();
}

console.log(`rate limits: ${rounds} rounds of ${ms} ms per case, medians`);
await memoryCase(1);
await memoryCase(10_000);
if (!values['no-redis']) await redisCase();
identitiesCase();
