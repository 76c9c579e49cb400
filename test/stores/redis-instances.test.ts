/**
 * Several instances on one Redis and on a Redis Cluster (spec section 8): two bookshelf processes
 * share the limit exactly; Redis killed mid-run gives 503 within the bound and service comes back
 * with it; an unreachable Redis at start-up stops the service with a clear error.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { loadHost, type Running } from '../../examples/bookshelf/hosts/host.ts';
import { connectSharedState, type SharedState } from '../../examples/bookshelf/shared-state.ts';
import {
  describeRedis,
  freePort,
  type RedisCluster,
  type RedisServer,
  startCluster,
  startRedis,
} from './_redis-servers.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** A bookshelf process (`npm run example`), resolved once it listens. */
interface Instance {
  port: number;
  stop(): Promise<void>;
}

function startInstance(env: Record<string, string>): Promise<Instance> {
  return new Promise((resolve, reject) => {
    const child: ChildProcess = spawn(
      process.execPath,
      ['--import', 'tsx', 'examples/bookshelf/main.ts'],
      { cwd: root, env: { ...process.env, PORT: '0', NODE_ENV: 'test', ...env }, stdio: 'pipe' },
    );
    let out = '';
    let err = '';
    const stop = () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      });
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening on http:\/\/[^:]+:(\d+)/.exec(out);
      if (m) resolve({ port: Number(m[1]), stop });
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    child.once('exit', (code) =>
      reject(Object.assign(new Error(`exited ${code}: ${err}`), { code, err })),
    );
  });
}

/** Sends `total` concurrent GETs spread over the instances; answers the statuses. */
async function burst(instances: Instance[], total: number): Promise<number[]> {
  return Promise.all(
    Array.from({ length: total }, async (_, i) => {
      const { port } = instances[i % instances.length]!;
      const res = await fetch(`http://127.0.0.1:${port}/v1/books`);
      await res.arrayBuffer();
      return res.status;
    }),
  );
}

function sharesTheLimit(url: () => string): void {
  let instances: Instance[] = [];

  beforeAll(async () => {
    const env = { REDIS_URL: url(), RATE_LIMIT: '10', RATE_WINDOW: '3600' };
    instances = await Promise.all([startInstance(env), startInstance(env)]);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(instances.map((i) => i.stop()));
  });

  it('lets exactly 10 of 40 concurrent requests through with a limit of 10 (spec 8.1, 8.2)', async () => {
    const statuses = await burst(instances, 40);
    expect(statuses.filter((s) => s !== 429)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  });
}

describeRedis('Two bookshelf instances on one redis-server', () => {
  let server: RedisServer;
  beforeAll(async () => {
    server = await startRedis();
  });
  afterAll(async () => {
    await server?.stop();
  });
  sharesTheLimit(() => server.url);
});

const basic = `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`;

/** POSTs a form to the token endpoint of `port` (spec 4.9, RFC 6749 §4.3, §6). */
async function tokenAt(port: number, form: Record<string, string>) {
  const res = await fetch(`http://127.0.0.1:${port}/v1/oauth2/token`, {
    method: 'POST',
    headers: { authorization: basic, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return (await res.json()) as { access_token: string; refresh_token: string };
}

describeRedis('Two bookshelf instances started only with REDIS_URL share their keys', () => {
  let server: RedisServer;
  let a: Instance;
  let b: Instance;
  beforeAll(async () => {
    server = await startRedis();
    const env = { REDIS_URL: server.url, RATE_LIMIT: '10', RATE_WINDOW: '3600' };
    // Both at once, as an orchestrator starts them: one stores the development key, both use it.
    [a, b] = await Promise.all([startInstance(env), startInstance(env)]);
  }, 60_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await server?.stop();
  });

  const me = (port: number, token: string) =>
    fetch(`http://127.0.0.1:${port}/v1/me`, { headers: { authorization: `Bearer ${token}` } });

  it('accepts on one instance a token issued by the other, and refreshes it there (RFC 6749 §6)', async () => {
    const issued = await tokenAt(a.port, {
      grant_type: 'password',
      username: 'alice',
      password: 'wonderland',
    });
    const onB = await me(b.port, issued.access_token);
    expect(onB.status).toBe(200);
    expect(await onB.json()).toMatchObject({ id: 'alice' });
    const refreshed = await tokenAt(b.port, {
      grant_type: 'refresh_token',
      refresh_token: issued.refresh_token,
    });
    expect((await me(a.port, refreshed.access_token)).status).toBe(200);
  });

  it("lets exactly 10 of 40 concurrent requests with one caller's token through, spread over both (spec 8.1, 8.2)", async () => {
    const { access_token: token } = await tokenAt(b.port, {
      grant_type: 'password',
      username: 'bob',
      password: 'builder',
    });
    const statuses = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const res = await me([a, b][i % 2]!.port, token);
        await res.arrayBuffer();
        return res.status;
      }),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  });
});

describeRedis(
  'Two bookshelf instances on a three-node Redis Cluster',
  () => {
    let cluster: RedisCluster;
    beforeAll(async () => {
      cluster = await startCluster();
    }, 60_000);
    afterAll(async () => {
      await cluster?.stop();
    });
    sharesTheLimit(() => `redis+cluster://127.0.0.1:${cluster.ports[0]}`);
  },
  true,
);

describeRedis('The bookshelf when Redis fails', () => {
  it('refuses to start when REDIS_URL cannot be reached, saying why', async () => {
    const url = `redis://127.0.0.1:${await freePort()}`;
    const failure = await startInstance({ REDIS_URL: url }).then(
      (instance) => instance.stop().then(() => undefined),
      (error: { code: number; err: string }) => error,
    );
    expect(failure?.code).toBe(1);
    expect(failure?.err).toContain(`REDIS_URL=${url}: Redis is unreachable`);
  });

  describe('Redis killed mid-run', () => {
    let server: RedisServer;
    let shared: SharedState;
    let running: Running;

    beforeAll(async () => {
      server = await startRedis();
      shared = await connectSharedState(server.url);
      const serve = await loadHost('node');
      running = await serve(
        createBookshelf({
          logger: { error() {}, warn() {} },
          rateLimit: { limit: 1000, window: 3600 },
          store: shared.store,
        }),
        { port: 0, host: '127.0.0.1' },
      );
    });

    afterAll(async () => {
      await running?.close();
      await shared?.close();
      await server?.stop();
    });

    const get = () => fetch(`http://127.0.0.1:${running.port}/v1/books`);

    it('answers 503 with the error body while Redis is down, and normally once it is back', async () => {
      expect((await get()).status).not.toBe(503);
      await server.kill();
      const down = await get();
      expect(down.status).toBe(503);
      expect(down.headers.get('x-ratelimit-remaining')).toBeNull();
      expect(await down.json()).toEqual({
        errors: [{ message: expect.any(String), code: 50301 }],
      });
      await server.restart();
      let status = 503;
      for (let i = 0; i < 100 && status === 503; i++) {
        await new Promise((r) => setTimeout(r, 100));
        status = (await get()).status;
      }
      expect(status).not.toBe(503);
    }, 30_000);
  });
});
