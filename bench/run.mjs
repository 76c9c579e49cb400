/**
 * `npm run bench`: throughput of our stacks side by side with the stacks users assemble today.
 *
 * Every target is a small server under bench/servers/ answering `GET /v1/books`; bench/lib/
 * holds the rest by concern: targets.mjs (what is measured and compared), processes.mjs
 * (servers, pinning, redis-server), probe.mjs (the request each target gets, checked before it
 * is measured), loaders.mjs (wrk or autocannon, with request headers and token rotation),
 * stats.mjs (medians and per-round ratios), report.mjs (tables and the SVG chart), tokens.mjs
 * (the run's signing key and tokens) and micro.mjs (`--micro`).
 *
 * The server runs pinned to CPU 0 and the load generator to CPU 1, each in its own process. All
 * targets of a run are measured once per round, in an order that reverses every round, so a
 * drift of the machine hits every side alike; the servers of a group run together through a
 * round, so the two sides of a comparison are measured seconds apart. The report gives medians
 * over the rounds and the ratios of each comparison taken round by round.
 *
 * A run without `--only` ends with the micro-benchmarks (`--micro` runs them alone).
 *
 * Speed is measured here, never asserted (CONTRIBUTING.md rule 19): a ratio below its goal is
 * reported, and the exit code is non-zero only when the harness could not do its job.
 */
import { cpSync, existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chooseLoader, runLoad } from './lib/loaders.mjs';
import { runMicro } from './lib/micro.mjs';
import { prepareRequest } from './lib/probe.mjs';
import {
  detectPinning,
  isRunning,
  killAll,
  LOAD_CPU,
  machineBusy,
  packageVersions,
  SERVER_CPU,
  serverFile,
  startRedis,
  startServer,
  stopServer,
  tail,
} from './lib/processes.mjs';
import {
  count,
  fixed,
  flagsOf,
  percent,
  printComparisons,
  printTargets,
  shareChart,
} from './lib/report.mjs';
import { compare, summarize } from './lib/stats.mjs';
import { CHART_BASE, CHART_TARGETS, COMPARISONS, GROUPS, select, TARGETS } from './lib/targets.mjs';
import { makeKeys, sign, writeTokenPool } from './lib/tokens.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BUSY_WARNING = 0.1;
const RESULTS_DIR = path.join(ROOT, '.bench-results');
const RESULTS_FILE = path.join(RESULTS_DIR, 'latest.json');
const CHART_FILE = path.join(RESULTS_DIR, 'share.svg');
/**
 * The servers run from a copy of dist/ and bench/servers/ taken at start-up, inside the
 * repository so that their packages still resolve from node_modules. A rebuild during the run
 * (tsup empties dist/ first) then cannot pull files from under a server, and every round
 * measures the same build. The bookshelf targets (TypeScript, through tsx) run from the tree.
 */
const SNAPSHOT = path.join(RESULTS_DIR, `snapshot-${process.pid}`);

const USAGE = `usage: node bench/run.mjs [options]   (or: npm run bench -- [options])

  --quick              smoke run: 1 round of 2 s, 1 s warm-up
  --rounds N           rounds (default 5, env BENCH_ROUNDS)
  --seconds N          measured seconds per run (default 5, env BENCH_SECONDS)
  --warmup N           warm-up seconds after each server start (default 2, env BENCH_WARMUP;
                       the bookshelf's targets take at least 10 unless --quick)
  --connections N      concurrent connections (default 50, env BENCH_CONNECTIONS)
  --only LIST          groups, comparisons or targets, comma-separated (env BENCH_ONLY);
                       groups: ${GROUPS.join(', ')}
  --list               the groups, comparisons and targets, then exit
  --tokens N           tokens in the fresh-token pool (default 100000)
  --loader NAME        wrk or autocannon (default: wrk when installed, env BENCH_LOADER)
  --svg FILE           where the chart goes (default .bench-results/share.svg)
  --micro [NAMES]      run the micro-benchmarks of bench/ and bench/micro/ instead (those whose
                       file name holds one of NAMES, given as --only); other arguments after --
                       go to each of them
  --help               this text`;

class UsageError extends Error {}

function positiveInt(name, value, max) {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > max) {
    throw new UsageError(`${name} must be a whole number from 1 to ${max}, got "${value}"`);
  }
  return n;
}

function readConfig(argv, env) {
  const split = argv.indexOf('--');
  const { values } = parseArgs({
    args: split === -1 ? argv : argv.slice(0, split),
    options: {
      quick: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      seconds: { type: 'string' },
      warmup: { type: 'string' },
      connections: { type: 'string' },
      only: { type: 'string' },
      loader: { type: 'string' },
      tokens: { type: 'string' },
      svg: { type: 'string' },
      micro: { type: 'boolean', default: false },
      list: { type: 'boolean', default: false },
      help: { type: 'boolean', default: false },
    },
  });
  const base = values.quick
    ? { rounds: 1, seconds: 2, warmup: 1, connections: 50 }
    : { rounds: 5, seconds: 5, warmup: 2, connections: 50 };
  // Flags win over the environment, which wins over the defaults.
  const pick = (key) => values[key] ?? env[`BENCH_${key.toUpperCase()}`] ?? base[key];
  const loader = pick('loader');
  if (loader !== undefined && loader !== 'wrk' && loader !== 'autocannon') {
    throw new UsageError(`--loader must be wrk or autocannon, got "${loader}"`);
  }
  const only = (pick('only') ?? '').split(',').filter(Boolean);
  return {
    ...values,
    only,
    rounds: positiveInt('--rounds', pick('rounds'), 100),
    seconds: positiveInt('--seconds', pick('seconds'), 600),
    warmup: positiveInt('--warmup', pick('warmup'), 60),
    connections: positiveInt('--connections', pick('connections'), 1000),
    tokens: positiveInt('--tokens', values.tokens ?? 100_000, 2_000_000),
    loader,
    svg: values.svg ? path.resolve(values.svg) : CHART_FILE,
    passThrough: split === -1 ? [] : argv.slice(split + 1),
  };
}

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
  // snapshot's core, the one the "ours" servers load too.
  cpSync(path.join(ROOT, 'package.json'), path.join(SNAPSHOT, 'package.json'));
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

function printList() {
  console.log('groups and their comparisons (a / b, goal):');
  for (const group of GROUPS) {
    console.log(`\n${group}`);
    for (const c of COMPARISONS.filter((x) => x.group === group)) {
      const goal = c.atLeast === undefined ? '' : `, >= ${c.atLeast}`;
      console.log(`  ${c.name.padEnd(22)} ${c.a} / ${c.b}${goal}`);
    }
  }
  console.log(`\ntargets: ${Object.keys(TARGETS).join(', ')}`);
}

/**
 * The warm-up of one target: the configured one, or the target's own minimum when it names one
 * (the bookshelf: a service of its size, with the JIT compiler sharing the one pinned core, was
 * measured 17 % faster in its 15th–20th second than in its first five, where a bare server gains 3 %).
 * A quick run keeps its short warm-up.
 */
function warmupOf(target, config) {
  return config.quick ? config.warmup : Math.max(config.warmup, target.warmup ?? 0);
}

/**
 * Seconds of load on fresh connections right before each measured run, as the end of its
 * server's warm-up: the first time a load generator closes its connections and opens new
 * ones, a server meets code paths its hot functions had not seen (closing sockets, a new
 * connection's first request) and V8 throws away some of their optimized code. Counted with
 * `--trace-deopt` on the bookshelf (node:http): 24 deoptimizations in a first 10 s load, 9 to
 * 12 more in the next load, then none in the loads after it; a bare node:http server has 4
 * more. This load takes that next place, so re-optimizing happens before the measured run.
 */
const reconnectSeconds = 2;

/**
 * The targets whose servers run together in a round: a group's targets (each in the first
 * selected group that names it), then each target selected on its own. The two sides of a
 * comparison are then measured seconds apart, not a server start and a warm-up apart: on a
 * shared VM the same bare server answered 6,896 to 12,018 req/s across one run's rounds, the
 * machine changing speed between windows more than the sides differ.
 */
function batchesOf(states, comparisons) {
  const byName = new Map(states.map((s) => [s.target.name, s]));
  const byGroup = new Map();
  const placed = new Set();
  for (const { group, a, b } of comparisons) {
    for (const name of [a, b]) {
      if (placed.has(name)) continue;
      placed.add(name);
      if (!byGroup.has(group)) byGroup.set(group, []);
      byGroup.get(group).push(byName.get(name));
    }
  }
  const alone = states.filter((s) => !placed.has(s.target.name)).map((s) => [s]);
  return [...byGroup.values(), ...alone];
}

/** A target skipped (its feature is missing) or failed: said once, and not measured again. */
function setAside(state, label, err) {
  if (err.skip) {
    state.status = 'skipped';
    state.reason = err.message;
    console.log(`${label} skipped: ${err.message}`);
    return;
  }
  // Loud, and final for this target: its numbers would not mean anything.
  state.status = 'failed';
  state.reason = err.message.split('\n')[0];
  console.error(`${label} FAILED: ${err.message}`);
}

/** Starts a target's server and prepares (and checks) the request it will get. */
async function begin(state, run) {
  const { target } = state;
  const file = target.tsx
    ? path.join(ROOT, 'bench', 'servers', target.server)
    : serverFile(SNAPSHOT, target.server);
  const env = { PAYLOAD: target.payload, ...run.keys.env, ...target.env };
  if (target.redis) env.REDIS_URL = run.redis.url;
  const server = await startServer({ file, tsx: target.tsx, env, pinning: run.pinning, cwd: ROOT });
  try {
    state.features = server.features;
    const request = await prepareRequest(target, server.port, run.tokens);
    const load = {
      server,
      connections: run.config.connections,
      loader: run.loader,
      pinning: run.pinning,
      request,
      root: ROOT,
    };
    return { state, server, load };
  } catch (err) {
    await stopServer(server);
    throw err;
  }
}

/**
 * One round of a batch: every server started, each warmed up in turn, then each measured in
 * turn right after its load on fresh connections; every server stopped at the end.
 */
async function measureBatch(batch, round, run) {
  const label = (state) => `round ${round}/${run.config.rounds}  ${state.target.name.padEnd(20)}`;
  const live = [];
  try {
    for (const state of batch) {
      try {
        live.push(await begin(state, run));
      } catch (err) {
        setAside(state, label(state), err);
      }
    }
    // The warm-up lets the JIT settle on the hot path; its numbers are thrown away. Its last
    // `reconnectSeconds` wait for the measured run.
    const warmed = [];
    for (const entry of live) {
      const warmup = warmupOf(entry.state.target, run.config);
      entry.reconnect = warmup >= 2 * reconnectSeconds ? reconnectSeconds : 0;
      try {
        await runLoad({ ...entry.load, seconds: warmup - entry.reconnect });
        warmed.push(entry);
      } catch (err) {
        setAside(entry.state, label(entry.state), err);
      }
    }
    for (const { state, server, load, reconnect } of warmed) {
      try {
        if (reconnect > 0) await runLoad({ ...load, seconds: reconnect });
        const result = await runLoad({ ...load, seconds: run.config.seconds });
        if (!isRunning(server.child)) {
          throw new Error(`server died during the run\n${tail(server.stderr)}`);
        }
        state.runs.push({ round, ...result });
        const flags = flagsOf({ non2xx: result.non2xx, errors: result.errors });
        console.log(
          `${label(state)} ${count(result.requestsPerSec).padStart(8)} req/s  p99 ${fixed(result.p99Ms, 1)} ms  server CPU ${percent(result.serverCpu)}  ${count(result.requestsPerCpuSecond)} req/CPU-s ${flags}`.trimEnd(),
        );
      } catch (err) {
        setAside(state, label(state), err);
      }
    }
  } finally {
    for (const { server } of live) await stopServer(server);
  }
}

async function main() {
  let config;
  let loader;
  try {
    config = readConfig(process.argv.slice(2), process.env);
    if (config.help) {
      console.log(USAGE);
      return 0;
    }
    if (config.list) {
      printList();
      return 0;
    }
    loader = config.micro ? undefined : chooseLoader(config.loader, ROOT);
  } catch (err) {
    const isUsage = err instanceof UsageError || String(err.code).startsWith('ERR_PARSE_ARGS');
    if (!isUsage && !/^--/.test(err.message)) throw err;
    console.error(`${err.message}\n\n${USAGE}`);
    return 2;
  }
  const pinning = detectPinning();
  if (config.micro) {
    const failures = await runMicro(ROOT, pinning, config.only, config.passThrough);
    return failures > 0 ? 1 : 0;
  }
  let selection;
  try {
    selection = select(config.only);
  } catch (err) {
    console.error(`${err.message}\n\n${USAGE}`);
    return 2;
  }

  takeSnapshot();
  const states = selection.targets.map((name) => {
    const target = TARGETS[name];
    const missing = target.requires.find((file) => !existsSync(path.join(SNAPSHOT, file)));
    return missing
      ? { target, status: 'skipped', reason: `${missing} not built`, runs: [] }
      : { target, status: 'ok', reason: null, runs: [] };
  });

  console.log('api-conventions bench: GET /v1/books, ours beside bare servers and peer stacks');
  console.log(
    `  node ${process.version}, ${os.availableParallelism()} CPUs (${os.cpus()[0]?.model?.trim() ?? 'unknown'})`,
  );
  console.log(
    pinning.enabled
      ? `  pinning: server on CPU ${SERVER_CPU}, load generator on CPU ${LOAD_CPU} (taskset)`
      : `  pinning: unavailable (${pinning.reason}); server and load generator share the CPUs`,
  );
  console.log(`  load generator: ${loader.name} ${loader.version}`);
  const packages = packageVersions(ROOT);
  console.log(
    `  packages: ${Object.entries(packages)
      .map(([name, version]) => `${name} ${version}`)
      .join(', ')}`,
  );
  console.log(`  date: ${new Date().toISOString()}`);

  mkdirSync(RESULTS_DIR, { recursive: true });
  const keys = await makeKeys();
  const tokens = { repeat: await sign(keys, 'alice', 'repeat-1'), first: undefined };
  if (states.some((s) => s.status === 'ok' && s.target.request.auth === 'fresh')) {
    tokens.poolFile = await writeTokenPool(
      keys,
      path.join(RESULTS_DIR, `tokens-${process.pid}.txt`),
      config.tokens,
    );
    tokens.first = await sign(keys, 'alice', 'probe-1');
    console.log(`  fresh tokens: a pool of ${count(config.tokens)}, each sent once in turn`);
  }
  let redis;
  if (states.some((s) => s.status === 'ok' && s.target.redis)) {
    redis = await startRedis(RESULTS_DIR);
    for (const s of states) {
      if (s.target.redis && s.status === 'ok' && redis.url === undefined) {
        s.status = 'skipped';
        s.reason = redis.reason;
      }
    }
    if (redis.url) console.log(`  redis-server: ${redis.url} (not pinned)`);
  }

  const busyBefore = await machineBusy();
  if (busyBefore !== null) {
    const note = busyBefore > BUSY_WARNING ? ': other work is running, numbers will be noisy' : '';
    console.log(`  CPU busy before the run: ${percent(busyBefore)} of all CPUs${note}`);
  }
  console.log(
    `  ${config.rounds} round${config.rounds === 1 ? '' : 's'} × ${config.seconds} s, ${config.warmup} s warm-up per server start${config.quick ? '' : ' (the bookshelf: at least 10 s)'}, ${config.connections} connections`,
  );
  for (const state of states) {
    if (state.status === 'skipped') console.log(`  ${state.target.name}: skipped: ${state.reason}`);
  }
  const runnable = states.filter((s) => s.status === 'ok');
  if (runnable.length === 0) {
    console.error('\nnothing to measure: every target is skipped; run `npm run build` first');
    return 1;
  }
  const perRound = runnable.reduce(
    (sum, s) => sum + config.seconds + warmupOf(s.target, config) + 1.5,
    0,
  );
  console.log(`  about ${Math.ceil((config.rounds * perRound) / 60)} min\n`);

  const run = { config, loader, pinning, keys, tokens, redis };
  const batches = batchesOf(states, selection.comparisons);
  for (let round = 1; round <= config.rounds; round++) {
    // The order reverses every round: a steady drift of the machine then favours no target.
    const forward = round % 2 === 1;
    for (const batch of forward ? batches : [...batches].reverse()) {
      const ready = batch.filter((s) => s.status === 'ok');
      if (ready.length > 0) await measureBatch(forward ? ready : ready.reverse(), round, run);
    }
  }
  await redis?.stop?.();
  if (tokens.poolFile) rmSync(tokens.poolFile, { force: true });

  for (const state of states) state.summary = state.status === 'ok' ? summarize(state.runs) : null;
  const byName = new Map(states.map((s) => [s.target.name, s]));
  const results = selection.comparisons.map((comparison) => {
    const a = byName.get(comparison.a);
    const b = byName.get(comparison.b);
    const broken = [a, b].find((s) => s.status !== 'ok');
    return {
      comparison,
      ratio: broken ? null : compare(comparison, a, b),
      missing: broken ? `${broken.target.name} ${broken.status}` : undefined,
    };
  });
  printTargets(states);
  printComparisons(results);

  // The chart: each stack's share of bare node:http serializing the same page.
  const base = byName.get(CHART_BASE);
  const bars = CHART_TARGETS.map((name) => byName.get(name))
    .filter((s) => s?.status === 'ok' && base?.status === 'ok')
    .map((s) => ({
      label: s.target.name,
      kind: s.target.peer ? 'peer' : 'ours',
      share: s.summary.requestsPerSec.median / base.summary.requestsPerSec.median,
    }));
  if (bars.length > 0) {
    const svg = shareChart({
      title: 'Share of bare node:http throughput, GET /v1/books with a bearer token',
      subtitle: [
        'security headers, CORS, negotiation, bearer JWT, rate limit, ETag',
        `median req/s of ${config.rounds} round(s) × ${config.seconds} s, ${loader.name}, node ${process.version}, ${new Date().toISOString().slice(0, 10)}`,
      ],
      bars,
    });
    mkdirSync(path.dirname(config.svg), { recursive: true });
    writeFileSync(config.svg, svg);
    console.log(`\nchart: ${path.relative(ROOT, config.svg)}`);
  }

  const failed = states.filter((s) => s.status === 'failed');
  const exitCode = failed.length > 0 ? 1 : 0;
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    packages,
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
      only: config.only,
      quick: config.quick,
    },
    targets: Object.fromEntries(
      states.map((s) => [
        s.target.name,
        {
          status: s.status,
          reason: s.reason,
          features: s.features ?? null,
          summary: s.summary ?? null,
          runs: s.runs,
        },
      ]),
    ),
    comparisons: results.map(({ comparison, ratio, missing }) => ({
      ...comparison,
      ratio,
      missing: missing ?? null,
    })),
    chart: bars,
    exitCode,
  };
  writeFileSync(RESULTS_FILE, `${JSON.stringify(report, null, 2)}\n`);
  console.log(`full results: ${path.relative(ROOT, RESULTS_FILE)}`);

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
  // A whole run ends with the micro-benchmarks (token verify and issue, field selection, stores).
  if (config.only.length === 0) await runMicro(ROOT, pinning, [], []);
  return exitCode;
}

main().then(
  (code) => process.exit(code),
  (err) => {
    console.error(`bench harness failed: ${err.stack ?? err}`);
    process.exit(1);
  },
);
