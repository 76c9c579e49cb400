/**
 * Starts the bookshelf on Bun, Deno and workerd, each from its npm package's binary, as a child
 * process on a free port of 127.0.0.1: bundled from the source by esbuild, started with the
 * command docs/adapters.md gives, stopped after.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build, type Plugin } from 'esbuild';
import { freePort } from '../_ports.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = (name: string) => join(root, 'node_modules', '.bin', name);

/** `api-conventions` and its subpaths from the source, as vitest.config.ts maps them. */
const fromSource: Plugin = {
  name: 'api-conventions-source',
  setup(b) {
    b.onResolve({ filter: /^(api-conventions(\/.+)?|#core)$/ }, ({ path }) => {
      if (path === '#core') return { path: join(root, 'src/core/index.ts') };
      if (path === 'api-conventions') return { path: join(root, 'src/index.ts') };
      const sub = path.slice('api-conventions/'.length);
      const top = ['host', 'redis', 'oauth', 'otel', 'client'].includes(sub)
        ? `src/${sub}.ts`
        : `src/adapters/${sub}.ts`;
      return { path: join(root, top) };
    });
  },
};

/** Bundles `entry` (a file of this folder, or an absolute path) into one ES module at `out`, for a Web runtime. */
export async function bundle(entry: string, out: string): Promise<void> {
  await build({
    entryPoints: [resolve(root, 'test/runtimes', entry)],
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    conditions: ['worker', 'browser'],
    plugins: [fromSource],
    logLevel: 'silent',
  });
}

/** A runtime serving the bookshelf. */
export interface RuntimeServer {
  readonly url: string;
  stop(): Promise<void>;
}

/** workerd's configuration: one Worker module, one HTTP socket. */
function workerdConfig(port: number): string {
  return `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [
    (name = "main", worker = .worker),
    # Outbound fetch to this machine too (a client test calls a server on 127.0.0.1).
    (name = "net", network = (allow = ["public", "private", "local"])),
  ],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "main")],
);
const worker :Workerd.Worker = (
  modules = [(name = "worker.mjs", esModule = embed "worker.mjs")],
  compatibilityDate = "2025-09-01",
  globalOutbound = "net",
);
`;
}

/** Waits until the child prints `listening <port>`, or fails with what it printed. */
function listening(child: ChildProcess, output: () => string): Promise<number> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "listening" line:\n${output()}`)), 30_000);
    child.stdout?.on('data', () => {
      const match = /listening (\d+)/.exec(output());
      if (match) {
        clearTimeout(timer);
        resolve(Number(match[1]));
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code}:\n${output()}`));
    });
  });
}

/** Waits until `port` answers HTTP, or fails with what the child printed. */
async function answering(child: ChildProcess, port: number, output: () => string): Promise<void> {
  let exited: number | null | undefined;
  child.once('exit', (code) => {
    exited = code;
  });
  for (let tries = 0; tries < 300; tries++) {
    if (exited !== undefined) throw new Error(`exited with ${exited}:\n${output()}`);
    try {
      await fetch(`http://127.0.0.1:${port}/v1`);
      return;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  throw new Error(`workerd never answered on ${port}:\n${output()}`);
}

/** Which runtimes run the bookshelf, and how each is started. */
export const runtimes = ['bun', 'deno', 'workerd'] as const;

/** One runtime's name. */
export type Runtime = (typeof runtimes)[number];

/**
 * Bundles the runtime's entry (`entry`, a file of this folder, for another service than the
 * bookshelf) and starts it; `stop()` ends the child and removes the bundle.
 */
export async function startRuntime(runtime: Runtime, entry?: string): Promise<RuntimeServer> {
  const dir = mkdtempSync(join(tmpdir(), `api-conventions-${runtime}-`));
  const out = join(dir, runtime === 'workerd' ? 'worker.mjs' : 'server.mjs');
  await bundle(entry ?? `_${runtime === 'workerd' ? 'worker' : runtime}.ts`, out);
  let port = 0;
  let args: string[];
  if (runtime === 'bun') args = ['run', out];
  // Network permission only: reading the environment would need --allow-env.
  else if (runtime === 'deno') args = ['run', '--allow-net', out];
  else {
    port = await freePort();
    writeFileSync(join(dir, 'config.capnp'), workerdConfig(port));
    args = ['serve', join(dir, 'config.capnp')];
  }
  let printed = '';
  const child = spawn(bin(runtime), args, {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, DENO_NO_UPDATE_CHECK: '1', NO_COLOR: '1' },
  });
  const output = () => printed;
  child.stdout.on('data', (chunk) => {
    printed += chunk;
  });
  child.stderr.on('data', (chunk) => {
    printed += chunk;
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    if (runtime === 'workerd') await answering(child, port, output);
    else port = await listening(child, output);
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `http://127.0.0.1:${port}`, stop };
}
