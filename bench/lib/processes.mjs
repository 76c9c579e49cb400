/**
 * The bench's processes: every child tracked so none outlives the harness, CPU pinning, the
 * servers' start and stop, a local redis-server, and what /proc says about CPU time.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const SERVER_CPU = 0;
export const LOAD_CPU = 1;

const children = new Set();

/** Keeps `child` in the set killed on exit. */
export function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

/** Kills every tracked child at once (on exit and on a signal). */
export function killAll() {
  for (const child of children) child.kill('SIGKILL');
}

export function isRunning(child) {
  return child.exitCode === null && child.signalCode === null;
}

/**
 * Pinning keeps the server and the load generator from competing for one core, which would
 * measure the scheduler rather than the server. It needs taskset and CPUs 0 and 1 to be ours.
 */
export function detectPinning() {
  if (os.availableParallelism() < 2) {
    return { enabled: false, reason: 'fewer than 2 CPUs available' };
  }
  const probe = spawnSync('taskset', ['-c', `${SERVER_CPU},${LOAD_CPU}`, 'true'], {
    stdio: 'ignore',
  });
  if (probe.error) return { enabled: false, reason: 'taskset is not installed' };
  if (probe.status !== 0) {
    return { enabled: false, reason: `taskset cannot use CPUs ${SERVER_CPU} and ${LOAD_CPU}` };
  }
  return { enabled: true, serverCpu: SERVER_CPU, loadCpu: LOAD_CPU };
}

/** The command and arguments that run `command` on `cpu` when pinning is on. */
export function pinned(pinning, cpu, command, args) {
  return pinning.enabled ? ['taskset', ['-c', String(cpu), command, ...args]] : [command, args];
}

/** Share of all CPUs busy over one second, from /proc/stat, or null off Linux. */
export async function machineBusy() {
  const sample = () => {
    try {
      const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/);
      const ticks = fields.slice(1).map(Number);
      // idle and iowait are the 4th and 5th numbers; everything else is work.
      return { idle: ticks[3] + ticks[4], total: ticks.reduce((a, b) => a + b, 0) };
    } catch {
      return null;
    }
  };
  const first = sample();
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const second = sample();
  if (!first || !second || second.total === first.total) return null;
  return 1 - (second.idle - first.idle) / (second.total - first.total);
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** CPU time (user + system, in seconds) the process has used so far, or null off Linux. */
export function cpuSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may contain spaces:
    // index 11 is utime and 12 is stime (fields 14 and 15 of proc(5)).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

export function tail(text, max = 2000) {
  const trimmed = text.trim();
  return trimmed.length > max ? `…${trimmed.slice(-max)}` : trimmed;
}

/**
 * Starts a server file with PORT=0 (and Node flags `nodeArgs`, such as `--cpu-prof`) and resolves once it prints `ready <port>`, optionally
 * followed by `features=a,b` (what an "ours" server switched on).
 */
export function startServer({ file, tsx, env, pinning, cwd, nodeArgs = [] }) {
  const node = [...nodeArgs, ...(tsx ? ['--import', 'tsx', file] : [file])];
  const [command, args] = pinned(pinning, SERVER_CPU, process.execPath, node);
  // stdin stays a pipe: the server exits when it closes, even if the harness is SIGKILLed.
  const child = track(
    spawn(command, args, {
      cwd,
      env: { ...process.env, PORT: '0', NODE_ENV: 'production', ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
  const server = { child, port: 0, features: undefined, stderr: '' };
  child.stderr.setEncoding('utf8');
  child.stderr.on('data', (chunk) => {
    server.stderr = (server.stderr + chunk).slice(-8000);
  });
  return new Promise((resolve, reject) => {
    let stdout = '';
    let settled = false;
    const settle = (error) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        child.kill('SIGKILL');
        const detail = tail(server.stderr);
        reject(new Error(detail ? `${error}\n${detail}` : error));
      } else {
        resolve(server);
      }
    };
    const timer = setTimeout(() => settle('no "ready <port>" line within 30 s'), 30_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /^ready (\d+)(?: features=(\S*))?\s*$/m.exec(stdout);
      if (match) {
        server.port = Number(match[1]);
        server.features = match[2] === undefined ? undefined : match[2].split(',').filter(Boolean);
        settle();
      }
    });
    child.once('error', (err) => settle(`could not start: ${err.message}`));
    child.once('exit', (code, signal) => settle(`exited (${signal ?? code}) before it was ready`));
  });
}

export async function stopServer(server) {
  const { child } = server;
  if (!isRunning(child)) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
  await exited;
  clearTimeout(timer);
}

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/**
 * A redis-server of our own on a free port, without persistence, for the Redis targets; it is
 * stopped with the harness. Resolves with its URL and a stop function, or with the reason there
 * is none.
 */
export async function startRedis(dir) {
  const which = spawnSync('which', ['redis-server'], { encoding: 'utf8' });
  if (which.status !== 0) return { reason: 'redis-server is not installed' };
  const port = await freePort();
  const child = track(
    spawn(
      which.stdout.trim(),
      [
        '--port',
        String(port),
        '--bind',
        '127.0.0.1',
        '--save',
        '',
        '--appendonly',
        'no',
        '--dir',
        dir,
      ],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    ),
  );
  let log = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    log = (log + chunk).slice(-4000);
  });
  const ready = await new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), 10_000);
    child.stdout.on('data', () => {
      if (/Ready to accept connections/.test(log)) {
        clearTimeout(timer);
        resolve(true);
      }
    });
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(false);
    });
  });
  if (!ready) {
    child.kill('SIGKILL');
    return { reason: `redis-server did not start: ${tail(log, 300)}` };
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    stop: () => stopServer({ child }),
  };
}

/** The directory of a file under the bench's snapshot. */
export function serverFile(snapshot, name) {
  return path.join(snapshot, 'bench', 'servers', name);
}

/** The packages whose versions a reader needs to rerun the comparison: ours and the peers'. */
const MEASURED_PACKAGES = [
  'express',
  'helmet',
  'cors',
  'express-rate-limit',
  'fastify',
  '@fastify/helmet',
  '@fastify/cors',
  '@fastify/rate-limit',
  '@fastify/etag',
  'hono',
  '@hono/node-server',
  'hono-rate-limiter',
  'jose',
  'redis',
];

/** `{ name: version }` of api-conventions and of every measured peer package installed. */
export function packageVersions(root) {
  const read = (file) => {
    try {
      return JSON.parse(readFileSync(file, 'utf8')).version;
    } catch {
      return undefined;
    }
  };
  const versions = { 'api-conventions': read(path.join(root, 'package.json')) };
  for (const name of MEASURED_PACKAGES) {
    const version = read(path.join(root, 'node_modules', name, 'package.json'));
    if (version !== undefined) versions[name] = version;
  }
  return versions;
}
