/**
 * Setting up Redis fails fast and says why: the docs/redis.md snippet, run as written against a
 * Redis that is down, ends the process instead of waiting at `connect()` for ever, so a service
 * told to use Redis refuses to start; and a client handed over as the promise `connect()`
 * returns (a missing `await`) is a `TypeError` that names the await. Needs no redis-server.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RedisStore, redisCommand } from 'api-conventions/redis';
import { createClient } from 'redis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { typescriptBlocks } from '../docs/_markdown.ts';
import { freePort } from './_redis-servers.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const page = 'docs/redis.md';
const documentedUrl = 'redis://127.0.0.1:6379';

/**
 * The docs' single-node snippet as a module that runs outside the repository: the package's
 * names point at its sources and `redis` at the installed client.
 */
function documentedSetUp(url: string): string {
  const block = typescriptBlocks(page, readFileSync(join(root, page), 'utf8')).find(
    (b) => b.text.includes('createClient(') && b.text.includes('client.connect()'),
  );
  if (block === undefined) throw new Error(`${page} has no snippet that connects a client`);
  expect(block.text).toContain(documentedUrl);
  const redis = createRequire(join(root, 'package.json')).resolve('redis');
  return `${block.text
    .replace(documentedUrl, url)
    .replace(/from 'api-conventions'/g, `from '${join(root, 'src/index.ts')}'`)
    .replace(/from 'api-conventions\/redis'/g, `from '${join(root, 'src/redis.ts')}'`)
    .replace(/from 'redis'/g, `from '${redis}'`)}\nconsole.log('started');\nprocess.exit(0);\n`;
}

/** How a run of the snippet ended: its exit code, or `'hung'` when it was still waiting. */
interface Ending {
  code: number | 'hung';
  out: string;
  err: string;
}

// Far above the snippet's own 2 s bound: only a set-up that waits for ever gets here.
const hangsAfterMs = 15_000;

function run(file: string): Promise<Ending> {
  return new Promise((resolve) => {
    const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', file], {
      cwd: root,
      stdio: 'pipe',
    });
    let out = '';
    let err = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      err += chunk.toString();
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve({ code: 'hung', out, err });
    }, hangsAfterMs);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code: code ?? 'hung', out, err });
    });
  });
}

describe(`the Redis set-up of ${page}`, () => {
  let dir: string;
  let silent: Server;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'redis-setup-'));
    // Accepts connections and never answers: a Redis that hangs.
    silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
  });

  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await new Promise((resolve) => silent.close(resolve));
    rmSync(dir, { recursive: true, force: true });
  });

  const cases: [string, () => Promise<string>][] = [
    ['nothing listens on its port', async () => `redis://127.0.0.1:${await freePort()}`],
    [
      'its server accepts the connection and never answers',
      async () => `redis://127.0.0.1:${(silent.address() as { port: number }).port}`,
    ],
  ];

  it.each(cases)(
    'refuses to start when %s: the process ends with status 1 instead of waiting at connect()',
    async (name, urlOf) => {
      const file = join(dir, `${name.replace(/\W+/g, '-')}.mts`);
      writeFileSync(file, documentedSetUp(await urlOf()));
      const ending = await run(file);
      expect(ending.code, `still waiting after ${hangsAfterMs} ms:\n${ending.err}`).toBe(1);
      expect(ending.out).not.toContain('started');
      // Ended by the client's own failure (refused, or given up on), not by anything else.
      expect(ending.err).toMatch(/ECONNREFUSED|Disconnects client/);
    },
    30_000,
  );
});

describe('a client handed over as a promise (a missing await)', () => {
  it("is a TypeError naming the missing await, in redisCommand and in RedisStore's command", async () => {
    const client = createClient({ url: `redis://127.0.0.1:${await freePort()}` });
    client.on('error', () => {});
    const connecting = client.connect();
    connecting.catch(() => {});
    try {
      expect(() => redisCommand(connecting)).toThrow(TypeError);
      expect(() => redisCommand(connecting)).toThrow(
        /redisCommand: the client is a promise, not a connected client: an `await` is missing/,
      );
      expect(() => new RedisStore({ command: connecting as never })).toThrow(
        /RedisStore: command is a promise.*`await` is missing/,
      );
    } finally {
      client.destroy();
    }
  });
});
