/**
 * `npm run bench`: throughput of our adapters side by side with the bare stacks they sit on.
 *
 * Every target is a small server under bench/servers/ answering `GET /v1/books` with the same
 * JSON payload: `books` (timestamps already strings) for the plain pairs, `dates` (a page whose
 * timestamps are `Date` objects) for the `-dates` pairs. Each "ours" target is compared with its
 * bare peer serving the same payload. The server runs pinned to
 * CPU 0 and the load generator (wrk when installed, else autocannon in bench/load.mjs) to CPU 1,
 * each in its own process. Runs of a pair are interleaved round after round so that drift of the
 * machine hits both sides alike, and the report gives medians over the rounds.
 *
 * At the end it runs bench/tokens.mjs: access-token verification (jose alone, first seen,
 * cached) and issuing, on one core.
 *
 * Speed is measured here, never asserted (CONTRIBUTING.md rule 19): a ratio below the target is
 * reported, and the exit code is non-zero only when the harness itself could not do its job.
 *
 * Usage: node bench/run.mjs [--quick] [--rounds N] [--seconds N] [--warmup N]
 *                           [--connections N] [--only node,express] [--loader wrk|autocannon]
 * Environment: BENCH_ROUNDS, BENCH_SECONDS, BENCH_WARMUP, BENCH_CONNECTIONS, BENCH_ONLY,
 * BENCH_LOADER (flags win over the environment).
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isDeepStrictEqual, parseArgs } from 'node:util';
import { payloadKinds } from './servers/_payload.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const HOST = '127.0.0.1';
const ROUTE = '/v1/books';
/**
 * ours/bare goals on req/s by payload: on `books` every adapter keeps 90% of its bare stack; on
 * `dates` the goal is 80% of the bare stack serializing the same `Date`s with `JSON.stringify`.
 */
const TARGET_RATIOS = { books: 0.9, dates: 0.8 };
const SERVER_CPU = 0;
const LOAD_CPU = 1;
// Above this share of the CPUs busy before the run, the report warns that numbers will be noisy.
const BUSY_WARNING = 0.1;
const RESULTS_DIR = path.join(ROOT, '.bench-results');
const RESULTS_FILE = path.join(RESULTS_DIR, 'latest.json');
/**
 * The servers run from a copy of dist/ and bench/servers/ taken at start-up, inside the
 * repository so that their packages still resolve from node_modules. A rebuild during the run
 * (tsup empties dist/ first) then cannot pull files from under a server, and every round
 * measures the same build.
 */
const SNAPSHOT = path.join(RESULTS_DIR, `snapshot-${process.pid}`);

/**
 * Every stack: its server files are bench/servers/<stack>-bare.mjs and <stack>-ours.mjs, and the
 * "ours" one needs `requires` built: while it is missing the target is skipped rather than failed,
 * because an adapter that is not built yet is not a fault.
 */
const STACKS = [
  { stack: 'node', requires: ['dist/node.mjs'] },
  { stack: 'express', requires: ['dist/express.mjs'] },
  { stack: 'fastify', requires: ['dist/fastify.mjs'] },
  { stack: 'hono', requires: ['dist/fetch.mjs'] },
];

/**
 * Every target, in the order pairs are reported: each stack on the `books` payload (pair `node`
 * and so on), then on the `dates` payload (pair `node-dates` and so on). The same server file
 * serves either payload, picked by the `PAYLOAD` environment variable. Adding a stack is one
 * entry in STACKS plus its two server files.
 */
const TARGETS = Object.keys(TARGET_RATIOS).flatMap((kind) =>
  STACKS.flatMap(({ stack, requires }) => {
    const pair = kind === 'books' ? stack : `${stack}-${kind}`;
    return ['bare', 'ours'].map((side) => ({
      name: `${pair}-${side}`,
      pair,
      side,
      payload: kind,
      server: `${stack}-${side}.mjs`,
      requires: side === 'ours' ? requires : [],
    }));
  }),
);

const PAIRS = [...new Set(TARGETS.map((t) => t.pair))];

const USAGE = `usage: node bench/run.mjs [options]   (or: npm run bench -- [options])

  --quick              smoke run: 3 rounds of 2 s, 1 s warm-up
  --rounds N           rounds per target (default 5, env BENCH_ROUNDS)
  --seconds N          measured seconds per run (default 5, env BENCH_SECONDS)
  --warmup N           warm-up seconds after each server start (default 2, env BENCH_WARMUP)
  --connections N      concurrent connections (default 50, env BENCH_CONNECTIONS)
  --only LIST          pairs to run, comma-separated (env BENCH_ONLY), from
${Object.keys(TARGET_RATIOS)
  .map(
    (kind) =>
      `                         ${kind}: ${PAIRS.filter((p) => TARGETS.some((t) => t.pair === p && t.payload === kind)).join(', ')}`,
  )
  .join('\n')}
                       a payload's name stands for all its pairs
  --loader NAME        wrk or autocannon (default: wrk when installed, env BENCH_LOADER)
  --help               this text`;

// ---------------------------------------------------------------------------------------------
// Child processes: every one is tracked so that no server or load generator outlives the harness.

const children = new Set();

function track(child) {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

function killAll() {
  for (const child of children) child.kill('SIGKILL');
}

process.on('exit', () => {
  killAll();
  rmSync(SNAPSHOT, { recursive: true, force: true });
});
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
  ['SIGHUP', 129],
]) {
  process.on(signal, () => {
    process.stderr.write(`\n${signal}: stopping every bench process\n`);
    killAll();
    process.exit(code);
  });
}

function isRunning(child) {
  return child.exitCode === null && child.signalCode === null;
}

// ---------------------------------------------------------------------------------------------
// Configuration

function positiveInt(name, value, max) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new UsageError(`${name} must be a whole number from 1 to ${max}, got "${value}"`);
  }
  return n;
}

class UsageError extends Error {}

function readConfig(argv, env) {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      seconds: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      only: { type: 'string' },
      loader: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
  });
  const base = values.quick
    ? { rounds: 3, seconds: 2, warmup: 1, connections: 50 }
    : { rounds: 5, seconds: 5, warmup: 2, connections: 50 };
  // Flags win over the environment, which wins over the defaults.
  const pick = (key) => values[key] ?? env[`BENCH_${key.toUpperCase()}`] ?? base[key];
  // A payload kind stands for all its pairs: `--only dates` is every `-dates` pair.
  const only = (pick('only') ?? '').split(',').flatMap((name) => {
    if (name === '') return [];
    if (Object.hasOwn(TARGET_RATIOS, name)) {
      return [...new Set(TARGETS.filter((t) => t.payload === name).map((t) => t.pair))];
    }
    if (!PAIRS.includes(name)) {
      throw new UsageError(
        `--only: unknown pair "${name}" (known: ${PAIRS.join(', ')}, or a payload: ${Object.keys(TARGET_RATIOS).join(', ')})`,
      );
    }
    return [name];
  });
  const loader = pick('loader');
  if (loader !== undefined && loader !== 'wrk' && loader !== 'autocannon') {
    throw new UsageError(`--loader must be wrk or autocannon, got "${loader}"`);
  }
  return {
    help: values.help,
    quick: values.quick,
    rounds: positiveInt('--rounds', pick('rounds'), 100),
    seconds: positiveInt('--seconds', pick('seconds'), 600),
    warmup: positiveInt('--warmup', pick('warmup'), 60),
    connections: positiveInt('--connections', pick('connections'), 1000),
    // In the report's order, each once, whatever order the list gave.
    pairs: only.length > 0 ? PAIRS.filter((pair) => only.includes(pair)) : PAIRS,
    loader,
  };
}

// ---------------------------------------------------------------------------------------------
// Machine: CPU pinning and the load generator

/**
 * Pinning keeps the server and the load generator from competing for one core, which would
 * measure the scheduler rather than the server. It needs taskset and CPUs 0 and 1 to be ours.
 */
function detectPinning() {
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

function pinned(pinning, cpu, command, args) {
  return pinning.enabled ? ['taskset', ['-c', String(cpu), command, ...args]] : [command, args];
}

function hasWrk() {
  const which = spawnSync('which', ['wrk'], { stdio: 'ignore' });
  return !which.error && which.status === 0;
}

/** wrk is preferred when present: it is lighter, so one core of it pushes the server harder. */
function chooseLoader(wanted) {
  const wrk = hasWrk();
  if (wanted === 'wrk' && !wrk) throw new UsageError('--loader wrk: wrk is not installed');
  if (wanted === 'wrk' || (wanted === undefined && wrk)) {
    const out = spawnSync('wrk', ['--version'], { encoding: 'utf8' });
    const version = /wrk\s+(\S+)/.exec(`${out.stdout}${out.stderr}`)?.[1] ?? 'unknown';
    return { name: 'wrk', version };
  }
  const pkg = JSON.parse(
    readFileSync(path.join(ROOT, 'node_modules/autocannon/package.json'), 'utf8'),
  );
  return { name: 'autocannon', version: pkg.version };
}

/** CPU time (user + system, in seconds) the process has used so far, or null off Linux. */
const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout) || 100;

/** Share of all CPUs busy over one second, from /proc/stat, or null off Linux. */
async function machineBusy() {
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

function cpuSeconds(pid) {
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

// ---------------------------------------------------------------------------------------------
// One server: start, verify, stop

function tail(text, max = 2000) {
  const trimmed = text.trim();
  return trimmed.length > max ? `…${trimmed.slice(-max)}` : trimmed;
}

/** Starts a server with PORT=0 and resolves once it prints `ready <port>`. */
function startServer(target, pinning) {
  const file = path.join(SNAPSHOT, 'bench', 'servers', target.server);
  const [command, args] = pinned(pinning, SERVER_CPU, process.execPath, [file]);
  // stdin stays a pipe: the server exits when it closes, even if this harness is SIGKILLed.
  const child = track(
    spawn(command, args, {
      cwd: ROOT,
      env: { ...process.env, PORT: '0', PAYLOAD: target.payload, NODE_ENV: 'production' },
      stdio: ['pipe', 'pipe', 'pipe'],
    }),
  );
  const server = { child, port: 0, stderr: '' };
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
    const timer = setTimeout(() => settle('no "ready <port>" line within 15 s'), 15_000);
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      const match = /^ready (\d+)\s*$/m.exec(stdout);
      if (match) {
        server.port = Number(match[1]);
        settle();
      }
    });
    child.once('error', (err) => settle(`could not start: ${err.message}`));
    child.once('exit', (code, signal) => settle(`exited (${signal ?? code}) before it was ready`));
  });
}

async function stopServer(server) {
  const { child } = server;
  if (!isRunning(child)) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 2_000);
  await exited;
  clearTimeout(timer);
}

/** One plain GET on a fresh connection, so nothing lingers in a keep-alive pool. */
function get(port) {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: HOST, port, path: ROUTE, agent: false, headers: { accept: 'application/json' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk) => {
          body += chunk;
        });
        res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body }));
        res.on('error', reject);
      },
    );
    req.setTimeout(5_000, () => req.destroy(new Error('no answer within 5 s')));
    req.on('error', reject);
  });
}

/** The JSON a server must answer for a payload kind: its `Date`s as RFC 3339 strings. */
function expectedBody(kind) {
  return JSON.parse(JSON.stringify(payloadKinds[kind]()));
}

/** A target only counts if it serves the very payload its peer serves. */
async function verify(port, kind) {
  const res = await get(port);
  if (res.status !== 200) {
    throw new Error(`GET ${ROUTE} answered ${res.status}: ${tail(res.body, 300)}`);
  }
  const type = res.headers['content-type'] ?? '';
  if (!/^application\/json\b/i.test(type)) {
    throw new Error(`GET ${ROUTE} answered content-type "${type}", not application/json`);
  }
  let body;
  try {
    body = JSON.parse(res.body);
  } catch {
    throw new Error(`GET ${ROUTE} answered a body that is not JSON: ${tail(res.body, 300)}`);
  }
  if (!isDeepStrictEqual(body, expectedBody(kind))) {
    throw new Error(
      `GET ${ROUTE} answered JSON that differs from the "${kind}" payload of bench/servers/_payload.mjs`,
    );
  }
}

// ---------------------------------------------------------------------------------------------
// One load run

/**
 * Runs the load generator in its own (pinned) process for `seconds` against the server and
 * resolves with its result plus the share of a core the server used meanwhile, which tells
 * whether the server was the bottleneck (near 100%) or the load generator was.
 */
function runLoad(server, seconds, config, loader, pinning) {
  const url = `http://${HOST}:${server.port}${ROUTE}`;
  const [command, args] =
    loader.name === 'wrk'
      ? pinned(pinning, LOAD_CPU, 'wrk', [
          '-t1',
          `-c${config.connections}`,
          `-d${seconds}s`,
          '-s',
          path.join(ROOT, 'bench', 'wrk-report.lua'),
          url,
        ])
      : pinned(pinning, LOAD_CPU, process.execPath, [
          path.join(ROOT, 'bench', 'load.mjs'),
          url,
          String(seconds),
          String(config.connections),
        ]);
  const child = track(spawn(command, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }));

  return new Promise((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    // Until the generator says it started, count from the spawn; its own start-up is small.
    let startCpu = cpuSeconds(server.child.pid);
    let startTime = performance.now();
    let started = false;
    // The run is bounded by the generator's own duration; this is the backstop.
    const timer = setTimeout(() => child.kill('SIGKILL'), (seconds + 30) * 1000);
    child.stdout.setEncoding('utf8');
    child.stderr.setEncoding('utf8');
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (!started && /^start\s*$/m.test(stdout)) {
        started = true;
        startCpu = cpuSeconds(server.child.pid);
        startTime = performance.now();
      }
    });
    child.stderr.on('data', (chunk) => {
      stderr = (stderr + chunk).slice(-8000);
    });
    child.once('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`load generator could not start: ${err.message}`));
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const endCpu = cpuSeconds(server.child.pid);
      const wall = (performance.now() - startTime) / 1000;
      const line = /^result (\{.*\})\s*$/m.exec(stdout);
      if (!line) {
        const why = signal ?? `exit code ${code}`;
        reject(new Error(`load generator gave no result (${why})\n${tail(stderr || stdout)}`));
        return;
      }
      const result = JSON.parse(line[1]);
      // Share of one core (pinned, the server cannot have more); null off Linux.
      result.serverCpu = startCpu === null || endCpu === null ? null : (endCpu - startCpu) / wall;
      // Requests per CPU-second of the server: what it costs to answer, whatever share of the
      // core other work left it. Steadier than req/s on a busy machine.
      result.requestsPerCpuSecond = result.serverCpu
        ? result.requestsPerSec / result.serverCpu
        : null;
      resolve(result);
    });
  });
}

// ---------------------------------------------------------------------------------------------
// Statistics and report

function median(values) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

function summarize(runs) {
  if (runs.length === 0) return null;
  const rps = runs.map((r) => r.requestsPerSec);
  const known = (key) => runs.map((r) => r[key]).filter((v) => v !== null);
  return {
    rounds: runs.length,
    requestsPerSec: { median: median(rps), min: Math.min(...rps), max: Math.max(...rps) },
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    serverCpu: median(known('serverCpu')),
    requestsPerCpuSecond: median(known('requestsPerCpuSecond')),
    non2xx: runs.reduce((sum, r) => sum + r.non2xx, 0),
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
  };
}

/** Median and spread of ours/bare for one measure, ratio taken per round (adjacent runs). */
function ratioOf(bare, ours, key) {
  const perRound = [];
  for (const run of ours.runs) {
    const peer = bare.runs.find((r) => r.round === run.round);
    if (peer && run[key] !== null && peer[key]) perRound.push(run[key] / peer[key]);
  }
  if (perRound.length === 0) return null;
  return {
    median: median(perRound),
    min: Math.min(...perRound),
    max: Math.max(...perRound),
    perRound,
  };
}

/**
 * The target is judged on req/s, the number users feel. The per-CPU-second ratio is reported
 * beside it because it holds up when other work shares the machine.
 */
function compare(bare, ours) {
  const requestsPerSec = ratioOf(bare, ours, 'requestsPerSec');
  if (!requestsPerSec) return null;
  const target = TARGET_RATIOS[ours.target.payload];
  return {
    ...requestsPerSec,
    target,
    meetsTarget: requestsPerSec.median >= target,
    perCpuSecond: ratioOf(bare, ours, 'requestsPerCpuSecond'),
  };
}

const int = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
const fixed = (n, digits) => (n === null ? '—' : n.toFixed(digits));
const percent = (n) => (n === null ? '—' : `${Math.round(n * 100)}%`);
const count = (n) => (n === null ? '—' : int.format(n));

function flagsOf(summary) {
  const flags = [];
  if (summary.non2xx > 0) flags.push(`${int.format(summary.non2xx)} non-2xx`);
  if (summary.errors > 0) flags.push(`${int.format(summary.errors)} errors`);
  return flags.length > 0 ? `!! ${flags.join(', ')}` : '';
}

function printPair(pair, states) {
  const rows = [
    ['target', 'req/s median', 'min–max', 'p99 ms', 'server CPU', 'req/CPU-s', 'flags'],
  ];
  for (const state of states) {
    if (state.status !== 'ok') {
      rows.push([state.target.name, `${state.status}: ${state.reason}`]);
      continue;
    }
    const s = state.summary;
    rows.push([
      state.target.name,
      int.format(s.requestsPerSec.median),
      `${int.format(s.requestsPerSec.min)}–${int.format(s.requestsPerSec.max)}`,
      fixed(s.p99Ms, 1),
      percent(s.serverCpu),
      count(s.requestsPerCpuSecond),
      flagsOf(s),
    ]);
  }
  // Skipped and failed rows carry one message instead of columns, so they do not set widths.
  const full = rows.filter((r) => r.length > 2);
  const widths = rows[0].map((_, i) =>
    Math.max(...(i === 0 ? rows : full).map((r) => r[i].length)),
  );
  const right = new Set([1, 2, 3, 4, 5]);
  console.log(`\n${pair}`);
  for (const row of rows) {
    if (row.length === 2) {
      console.log(`  ${row[0].padEnd(widths[0])}   ${row[1]}`);
      continue;
    }
    const cells = row.map((cell, i) =>
      right.has(i) ? cell.padStart(widths[i]) : cell.padEnd(widths[i]),
    );
    console.log(`  ${cells.join('   ').trimEnd()}`);
  }
}

const spread = (r) => `${r.median.toFixed(2)} (per round ${r.min.toFixed(2)}–${r.max.toFixed(2)})`;

function printRatio(ratio, bare, ours) {
  if (!ratio) {
    const missing = ours.status !== 'ok' ? ours : bare;
    console.log(`  ours/bare: n/a (${missing.target.name} ${missing.status})`);
    return;
  }
  const verdict = ratio.meetsTarget
    ? `meets the target (>= ${ratio.target.toFixed(2)})`
    : `BELOW the target (>= ${ratio.target.toFixed(2)}) by ${Math.round((1 - ratio.median / ratio.target) * 100)}%`;
  console.log(`  ours/bare req/s:        ${spread(ratio)}, ${verdict}`);
  if (ratio.perCpuSecond) console.log(`  ours/bare per CPU-s:    ${spread(ratio.perCpuSecond)}`);
}

// ---------------------------------------------------------------------------------------------
// Main

function takeSnapshot() {
  rmSync(SNAPSHOT, { recursive: true, force: true });
  cpSync(path.join(ROOT, 'bench', 'servers'), path.join(SNAPSHOT, 'bench', 'servers'), {
    recursive: true,
  });
  if (existsSync(path.join(ROOT, 'dist'))) {
    cpSync(path.join(ROOT, 'dist'), path.join(SNAPSHOT, 'dist'), { recursive: true });
  }
  // The adapters import the core as `api-conventions`, which Node resolves through the nearest
  // package.json of that name: with this copy beside the snapshot's dist/, they load the
  // snapshot's core, the one the "ours" servers load too, not the repository's dist/ (which a
  // rebuild may empty mid-run, and which would be a second copy of the core).
  cpSync(path.join(ROOT, 'package.json'), path.join(SNAPSHOT, 'package.json'));
}

function missingFile(target) {
  return target.requires.find((file) => !existsSync(path.join(SNAPSHOT, file)));
}

/** Start, verify, warm up, measure, stop: one measured run of one target. */
async function measure(state, round, config, loader, pinning) {
  const server = await startServer(state.target, pinning);
  try {
    await verify(server.port, state.target.payload);
    // The warm-up lets the JIT settle on the hot path; its numbers are thrown away.
    await runLoad(server, config.warmup, config, loader, pinning);
    const result = await runLoad(server, config.seconds, config, loader, pinning);
    if (!isRunning(server.child)) {
      throw new Error(`server died during the run\n${tail(server.stderr)}`);
    }
    return { round, ...result };
  } finally {
    await stopServer(server);
  }
}

async function main() {
  let config;
  let loader;
  try {
    config = readConfig(process.argv.slice(2), process.env);
    loader = chooseLoader(config.loader);
  } catch (err) {
    const isUsage = err instanceof UsageError || String(err.code).startsWith('ERR_PARSE_ARGS');
    if (!isUsage) throw err;
    console.error(`${err.message}\n\n${USAGE}`);
    return 2;
  }
  if (config.help) {
    console.log(USAGE);
    return 0;
  }

  const pinning = detectPinning();

  takeSnapshot();
  const states = TARGETS.filter((t) => config.pairs.includes(t.pair)).map((target) => {
    const missing = missingFile(target);
    return missing
      ? { target, status: 'skipped', reason: `${missing} not built`, runs: [] }
      : { target, status: 'ok', reason: null, runs: [] };
  });

  console.log(
    'api-conventions bench: GET /v1/books, ours vs the bare stacks (payloads: books, dates)',
  );
  console.log(
    `  node ${process.version}, ${os.availableParallelism()} CPUs (${os.cpus()[0]?.model?.trim() ?? 'unknown'})`,
  );
  console.log(
    pinning.enabled
      ? `  pinning: server on CPU ${SERVER_CPU}, load generator on CPU ${LOAD_CPU} (taskset)`
      : `  pinning: unavailable (${pinning.reason}); server and load generator share the CPUs`,
  );
  console.log(`  load generator: ${loader.name} ${loader.version}`);
  // Anything else running on these CPUs (a build, a test run) disturbs the numbers: say so.
  const busyBefore = await machineBusy();
  if (busyBefore !== null) {
    const note = busyBefore > BUSY_WARNING ? ': other work is running, numbers will be noisy' : '';
    console.log(`  CPU busy before the run: ${percent(busyBefore)} of all CPUs${note}`);
  }
  console.log(
    `  ${config.rounds} round${config.rounds === 1 ? '' : 's'} × ${config.seconds} s, ${config.warmup} s warm-up per server start, ${config.connections} connections`,
  );
  for (const state of states) {
    if (state.status === 'skipped') console.log(`  ${state.target.name}: skipped: ${state.reason}`);
  }

  const runnable = states.filter((s) => s.status === 'ok');
  if (!runnable.some((s) => s.target.side === 'ours')) {
    console.error('\nnothing to compare: no "ours" target is built; run `npm run build` first');
    return 1;
  }
  const perRun = config.seconds + config.warmup + 1;
  const estimate = Math.ceil((config.rounds * runnable.length * perRun) / 60);
  console.log(`  about ${estimate} min\n`);

  for (let round = 1; round <= config.rounds; round++) {
    for (const pair of config.pairs) {
      // Alternate which side goes first (bare, ours | ours, bare | …): a steady drift of the
      // machine then favours neither side across rounds.
      const sides = round % 2 === 1 ? ['bare', 'ours'] : ['ours', 'bare'];
      for (const side of sides) {
        const state = states.find((s) => s.target.pair === pair && s.target.side === side);
        if (state?.status !== 'ok') continue;
        const label = `round ${round}/${config.rounds}  ${state.target.name.padEnd(18)}`;
        try {
          const run = await measure(state, round, config, loader, pinning);
          state.runs.push(run);
          const flags = flagsOf({ non2xx: run.non2xx, errors: run.errors });
          console.log(
            `${label} ${int.format(run.requestsPerSec).padStart(8)} req/s  p99 ${fixed(run.p99Ms, 1)} ms  server CPU ${percent(run.serverCpu)}  ${count(run.requestsPerCpuSecond)} req/CPU-s ${flags}`.trimEnd(),
          );
        } catch (err) {
          // Loud, and final for this target: its numbers would not mean anything.
          state.status = 'failed';
          state.reason = err.message.split('\n')[0];
          console.error(`${label} FAILED: ${err.message}`);
        }
      }
    }
  }

  const pairs = [];
  for (const pair of config.pairs) {
    const bare = states.find((s) => s.target.pair === pair && s.target.side === 'bare');
    const ours = states.find((s) => s.target.pair === pair && s.target.side === 'ours');
    for (const state of [bare, ours]) {
      state.summary = state.status === 'ok' ? summarize(state.runs) : null;
    }
    const ratio = bare.status === 'ok' && ours.status === 'ok' ? compare(bare, ours) : null;
    printPair(`${pair}   (payload: ${bare.target.payload})`, [bare, ours]);
    printRatio(ratio, bare, ours);
    pairs.push({
      pair,
      payload: bare.target.payload,
      bare: bare.target.name,
      ours: ours.target.name,
      ratio,
    });
  }

  const failed = states.filter((s) => s.status === 'failed');
  const exitCode = failed.length > 0 ? 1 : 0;
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    machine: {
      platform: `${os.platform()} ${os.release()}`,
      cpus: os.availableParallelism(),
      cpuModel: os.cpus()[0]?.model?.trim() ?? null,
      busyBefore,
    },
    pinning,
    loader,
    config: {
      rounds: config.rounds,
      seconds: config.seconds,
      warmup: config.warmup,
      connections: config.connections,
      pairs: config.pairs,
      quick: config.quick,
    },
    targetRatios: TARGET_RATIOS,
    targets: Object.fromEntries(
      states.map((s) => [
        s.target.name,
        { status: s.status, reason: s.reason, summary: s.summary ?? null, runs: s.runs },
      ]),
    ),
    pairs,
    exitCode,
  };
  mkdirSync(path.dirname(RESULTS_FILE), { recursive: true });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`\nfull results: ${path.relative(ROOT, RESULTS_FILE)}`);

  const starved = states.filter((s) => s.summary?.serverCpu != null && s.summary.serverCpu < 0.5);
  if (starved.length > 0) {
    console.log(
      `\nnote: ${starved.map((s) => s.target.name).join(', ')} used under half a core: other work on` +
        ' the machine (or a slow load generator) held them back. Read the per-CPU-s ratio, and' +
        ' rerun on a quiet machine for absolute numbers.',
    );
  }

  if (failed.length > 0) {
    console.error(`\nFAILED targets: ${failed.map((s) => s.target.name).join(', ')}`);
  }
  // Access-token verification and issuing (bench/tokens.mjs, runnable on its own), on one core.
  console.log('');
  const micro = pinning.enabled
    ? ['taskset', ['-c', String(SERVER_CPU), process.execPath, 'bench/tokens.mjs']]
    : [process.execPath, ['bench/tokens.mjs']];
  const tokens = spawnSync(micro[0], micro[1], { cwd: ROOT, stdio: 'inherit' });
  if (tokens.status !== 0) console.error('bench/tokens.mjs could not run');
  return exitCode;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`bench harness failed: ${err.stack ?? err}`);
    process.exit(1);
  },
);
