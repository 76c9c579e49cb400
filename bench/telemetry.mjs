/**
 * `node bench/telemetry.mjs [--requests N] [--rounds N]`: where the cost of `telemetry()` with a
 * real OpenTelemetry SDK goes, in process, with no socket: µs per request of the core's
 * `handle()` without telemetry, with the API alone (no-op), with the SDK (spans to an in-memory
 * exporter through a BatchSpanProcessor, metrics to an in-memory reader: the load bench's set-up,
 * bench/servers/_otel.mjs), and the SDK's own floor: the calls any instrumentation makes for one
 * request (a span started with three attributes, nine more set, ended; one histogram point with
 * four attributes), with no library around them.
 *
 * Each mode runs in a process of its own (the SDK is global). Prints the lowest µs of the rounds
 * after the first (warm-up) and each mode's extra µs over `off`. `npm run build` first; pin it:
 * `taskset -c 0 node bench/telemetry.mjs`.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const modes = ['off', 'noop', 'sdk', 'floor'];
const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '50000' },
    rounds: { type: 'string', default: '6' },
    mode: { type: 'string' },
  },
});
const requests = Number(values.requests);
const rounds = Number(values.rounds);

/** One request's worth of SDK calls, as an instrumentation makes them (bench/lib/otel.mjs). */
async function floorRequest() {
  const { floorCalls, registerSdk } = await import('./lib/otel.mjs');
  registerSdk();
  const floor = floorCalls();
  return () => {
    floor.end(floor.start('GET', '/v1/books/1'), 200, '/v1/books/:id');
    return Promise.resolve();
  };
}

/** The core's handle() of one request, with the plugins of a full stack and telemetry as asked. */
async function handleRequest(mode) {
  if (mode === 'sdk') (await import('./lib/otel.mjs')).registerSdk();
  const lib = await import('../dist/index.mjs');
  const plugins = [lib.securityHeaders(), lib.negotiation(), lib.caching()];
  if (mode !== 'off') {
    const { telemetry } = await import('../dist/otel.mjs');
    plugins.unshift(telemetry());
  }
  const api = lib.conventions({
    logger: { error() {}, warn() {} },
    routes: { '/v1/books/:id': { GET: (ctx) => ({ id: ctx.params.id, title: 'Emma' }) } },
    plugins,
  });
  const input = {
    method: 'GET',
    url: '/v1/books/1',
    headers: new Headers({ host: 'localhost:3000', 'user-agent': 'bench', accept: '*/*' }),
    remoteAddress: '127.0.0.1',
  };
  return () => api.handle(input);
}

if (values.mode !== undefined) {
  const run = values.mode === 'floor' ? await floorRequest() : await handleRequest(values.mode);
  const times = [];
  for (let round = 0; round < rounds; round++) {
    const start = performance.now();
    for (let i = 0; i < requests; i++) await run();
    times.push(((performance.now() - start) * 1000) / requests);
  }
  console.log(JSON.stringify(times));
  process.exit(0);
}

const script = fileURLToPath(import.meta.url);
const best = {};
for (const mode of modes) {
  const args = [script, '--mode', mode, '--requests', String(requests), '--rounds', String(rounds)];
  const result = spawnSync(process.execPath, args, { encoding: 'utf8' });
  if (result.status !== 0) {
    console.error(`${mode}: failed\n${result.stderr}`);
    process.exit(1);
  }
  const times = JSON.parse(result.stdout.trim().split('\n').at(-1));
  best[mode] = Math.min(...times.slice(1));
}
console.log(
  `telemetry, in process: µs per request (lowest of ${rounds - 1} rounds of ${requests})`,
);
const row = (name, value, note) =>
  console.log(`  ${name.padEnd(34)} ${value.toFixed(2).padStart(7)} µs  ${note}`);
row('handle(), no telemetry', best.off, '');
row('handle(), telemetry on the no-op API', best.noop, `+${(best.noop - best.off).toFixed(2)} µs`);
row('handle(), telemetry with the SDK', best.sdk, `+${(best.sdk - best.off).toFixed(2)} µs`);
row('the SDK alone: one span, one point', best.floor, 'what any instrumentation pays');
console.log(
  `  the library's share of the SDK cost: ${(best.sdk - best.off - best.floor).toFixed(2)} µs per request`,
);
