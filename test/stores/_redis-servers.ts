/**
 * Real Redis servers for tests: one redis-server on a free port, or a three-node Redis Cluster
 * (`redis-server --cluster-enabled yes` ×3 and `redis-cli --cluster create`), each started by the
 * test with no persistence and stopped after it. Where no redis-server exists the Redis suites
 * are skipped with a visible notice, unless API_CONVENTIONS_REQUIRE_SERVICES=1 (CI) makes them
 * mandatory.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { accessSync, constants, mkdtempSync, rmSync } from 'node:fs';
import { createServer, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { createClient } from 'redis';
import { afterAll, beforeAll, beforeEach, describe, it } from 'vitest';
import { freePort as freeTcpPort } from '../_ports.ts';

/** The path of an executable on PATH (or /usr/bin, /usr/local/bin), or `undefined`. */
function which(name: string): string | undefined {
  const dirs = [...(process.env.PATH ?? '').split(delimiter), '/usr/bin', '/usr/local/bin'];
  for (const dir of dirs) {
    const file = join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {}
  }
  return undefined;
}

/** redis-server and redis-cli, when installed. */
export const redisServer = which('redis-server');
export const redisCli = which('redis-cli');

/** Whether CI asked for every service-backed test to run (never skip). */
export const servicesRequired = process.env.API_CONVENTIONS_REQUIRE_SERVICES === '1';

/**
 * `describe` for a suite that needs real Redis: runs when redis-server (and redis-cli, for the
 * cluster) is installed; otherwise fails under API_CONVENTIONS_REQUIRE_SERVICES=1, or is skipped
 * with a notice on the console.
 */
export function describeRedis(title: string, suite: () => void, needsCli = false): void {
  const missing = !redisServer ? 'redis-server' : needsCli && !redisCli ? 'redis-cli' : undefined;
  if (missing === undefined) {
    describe(title, suite);
  } else if (servicesRequired) {
    describe(title, () => {
      it(`needs ${missing}`, () => {
        throw new Error(
          `${missing} is not installed, and API_CONVENTIONS_REQUIRE_SERVICES=1 makes this suite mandatory; install it (apt-get install redis-server redis-tools).`,
        );
      });
    });
  } else {
    console.warn(`NOTICE: skipping "${title}": ${missing} is not installed.`);
    describe.skip(title, suite);
  }
}

/** A port nobody listens on now (and, for a cluster node, whose bus port + 10000 is free too). */
export async function freePort(bus = false): Promise<number> {
  for (;;) {
    const port = await freeTcpPort();
    if (!bus) return port;
    if (port + 10000 > 65535) continue;
    const busFree = await new Promise<boolean>((resolve) => {
      const server = createServer();
      server.once('error', () => resolve(false));
      server.listen(port + 10000, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (busFree) return port;
  }
}

/** Sends one inline command and resolves with the raw reply text. */
function inline(port: number, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = new Socket();
    let reply = '';
    socket.setTimeout(1000, () => socket.destroy(new Error('timeout')));
    socket.once('error', reject);
    socket.connect(port, '127.0.0.1', () => socket.write(`${command}\r\n`));
    socket.on('data', (chunk) => {
      reply += chunk.toString('utf8');
      if (reply.endsWith('\r\n')) {
        socket.end();
        resolve(reply);
      }
    });
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until `test` passes, polling; rejects after `ms`. */
async function until(what: string, test: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await test().catch(() => false)) return;
    await sleep(50);
  }
  throw new Error(`timed out waiting for ${what}`);
}

/** One redis-server process. */
export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** Kills the server (SIGKILL) and waits for it to exit. */
  kill(): Promise<void>;
  /** Starts it again on the same port (after `kill`). */
  restart(): Promise<void>;
  /** Stops it for good. */
  stop(): Promise<void>;
  /** Freezes the process (SIGSTOP): connections stay open and nothing answers, as in a hang. */
  pause(): void;
  /** Lets a paused process run again (SIGCONT). */
  resume(): void;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once('exit', () => resolve()));
}

/** Starts a redis-server on a free port, without persistence, and waits until it answers. */
export async function startRedis(extra: string[] = [], port?: number): Promise<RedisServer> {
  const chosen = port ?? (await freePort());
  let child: ChildProcess;
  const launch = async () => {
    child = spawn(
      redisServer!,
      [
        '--port',
        String(chosen),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        ...extra,
      ],
      { stdio: 'ignore' },
    );
    await until(`redis-server on ${chosen}`, async () =>
      (await inline(chosen, 'PING')).startsWith('+PONG'),
    );
  };
  await launch();
  const kill = async () => {
    child.kill('SIGKILL');
    await exited(child);
  };
  const stop = async () => {
    child.kill('SIGCONT');
    await kill();
  };
  return {
    port: chosen,
    url: `redis://127.0.0.1:${chosen}`,
    kill,
    restart: launch,
    stop,
    pause: () => child.kill('SIGSTOP'),
    resume: () => child.kill('SIGCONT'),
  };
}

/** A local Redis Cluster of three masters, each with its replicas when asked. */
export interface RedisCluster {
  readonly ports: number[];
  readonly nodes: { host: string; port: number }[];
  /** Every node's process, masters and replicas, in the order of `ports`. */
  readonly servers: RedisServer[];
  /** The node that serves `key` now, as the node at `askPort` (a live one) sees the cluster. */
  masterOf(key: string, askPort?: number): Promise<RedisServer>;
  stop(): Promise<void>;
}

/** Runs redis-cli against one node and resolves with its output. */
function cli(port: number, ...args: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(redisCli!, ['-p', String(port), ...args], { timeout: 5000 }, (error, stdout) =>
      error ? reject(error) : resolve(stdout),
    );
  });
}

/** Options of {@link startCluster}. */
export interface ClusterOptions {
  /** Replicas per master, so that a master's failure is a failover. @default 0 */
  replicas?: number;
  /** `cluster-node-timeout`: how long a master may be silent before a replica takes over. */
  nodeTimeoutMs?: number;
}

/** Starts cluster-enabled redis-servers and joins them with `redis-cli --cluster create`. */
export async function startCluster(options: ClusterOptions = {}): Promise<RedisCluster> {
  const replicas = options.replicas ?? 0;
  const dir = mkdtempSync(join(tmpdir(), 'api-conventions-cluster-'));
  const servers: RedisServer[] = [];
  try {
    for (let i = 0; i < 3 * (1 + replicas); i++) {
      const port = await freePort(true);
      servers.push(
        await startRedis(
          [
            '--cluster-enabled',
            'yes',
            '--cluster-config-file',
            join(dir, `nodes-${port}.conf`),
            // A replica's first synchronisation starts at once, not after 5 s.
            '--repl-diskless-sync-delay',
            '0',
            '--cluster-node-timeout',
            String(options.nodeTimeoutMs ?? 2000),
            '--dir',
            dir,
          ],
          port,
        ),
      );
    }
    const ports = servers.map((s) => s.port);
    await new Promise<void>((resolve, reject) => {
      execFile(
        redisCli!,
        [
          '--cluster',
          'create',
          ...ports.map((p) => `127.0.0.1:${p}`),
          '--cluster-replicas',
          String(replicas),
          '--cluster-yes',
        ],
        { timeout: 30_000 },
        (error, _stdout, stderr) =>
          error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(),
      );
    });
    for (const port of ports) {
      await until(`cluster_state:ok on ${port}`, async () =>
        (await inline(port, 'CLUSTER INFO')).includes('cluster_state:ok'),
      );
    }
    // A replica takes over only once it has synchronised with its master.
    for (const port of replicas > 0 ? ports : []) {
      await until(`replication on ${port}`, async () => {
        const info = await cli(port, 'INFO', 'replication');
        return info.includes('role:master') || info.includes('master_link_status:up');
      });
    }
    const masterOf = async (key: string, askPort = ports[0]!) => {
      const slot = Number((await cli(askPort, 'CLUSTER', 'KEYSLOT', key)).trim());
      for (const line of (await cli(askPort, 'CLUSTER', 'NODES')).trim().split('\n')) {
        const [, address = '', flags = '', , , , , , ...ranges] = line.split(' ');
        if (!flags.split(',').includes('master') || flags.includes('fail')) continue;
        const owns = ranges.some((range) => {
          const [from, to = from] = range.split('-').map(Number);
          return slot >= from! && slot <= to!;
        });
        const port = Number(address.split('@')[0]!.split(':')[1]);
        if (owns) return servers.find((s) => s.port === port)!;
      }
      throw new Error(`no master serves ${key} (slot ${slot})`);
    };
    return {
      ports,
      nodes: ports.map((port) => ({ host: '127.0.0.1', port })),
      servers,
      masterOf,
      stop: async () => {
        await Promise.all(servers.map((s) => s.stop()));
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await Promise.all(servers.map((s) => s.stop()));
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/** A node-redis client of a suite's redis-server: see {@link redisForSuite}. */
export type SuiteRedisClient = ReturnType<typeof createClient>;

/**
 * Starts a redis-server for the suite (in `beforeAll`) with a node-redis client to it, emptied
 * before each test and closed after the suite; the getter answers the client once started.
 */
export function redisForSuite(): () => SuiteRedisClient {
  let server: RedisServer | undefined;
  let client: SuiteRedisClient | undefined;
  beforeAll(async () => {
    server = await startRedis();
    client = createClient({ url: server.url });
    client.on('error', () => {});
    await client.connect();
  });
  beforeEach(async () => {
    await client!.flushDb();
  });
  afterAll(async () => {
    await client?.quit().catch(() => {});
    await server?.stop();
  });
  return () => client!;
}
