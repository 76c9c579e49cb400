/**
 * `node bench/json.mjs`: the cost of one call of `JSON.stringify`, of the library's
 * `stringifyJson`, and of `JSON.stringify` after each `Date` was replaced by its `toISOString()`
 * (copying only the objects on the way to one) on the bench's `dates` page (20 books, 40 `Date`
 * objects) and on the same page with each `Date` already an RFC 3339 string, in µs of CPU time
 * (user and system, `process.cpuUsage`) per call: on a busy machine wall time is mostly noise.
 *
 * A micro-benchmark, not a test (CONTRIBUTING.md rule 19): it measures and prints, never fails
 * on speed. It times the built package (`npm run build` first), as users get it. Each run times
 * every case once for about `--ms` milliseconds, in an order that rotates from run to run so that
 * a drift of the machine favours no case; the report gives the median over the runs and their
 * min–max. Pin it to one core on a shared machine: `taskset -c 1 node bench/json.mjs`.
 *
 * Usage: node bench/json.mjs [--runs N] [--ms N]
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { datedBooksAsStrings, payloadKinds } from './servers/_payload.mjs';

// Internal helpers are measured too: the private core bundle (dist/core.mjs) exports them all.
const DIST = fileURLToPath(new URL('../dist/core.mjs', import.meta.url));
if (!existsSync(DIST)) {
  console.error('bench/json.mjs: dist/core.mjs is missing; run `npm run build` first');
  process.exit(1);
}
const { stringifyJson } = await import(DIST);

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '15' }, ms: { type: 'string', default: '100' } },
});
const runs = Number(values.runs);
const ms = Number(values.ms);
if (!Number.isInteger(runs) || runs < 1 || !(ms > 0)) {
  console.error('usage: node bench/json.mjs [--runs N] [--ms N]   (N a positive whole number)');
  process.exit(2);
}

const pages = {
  'dates (Date objects)': payloadKinds.dates(),
  'strings (same page)': datedBooksAsStrings(),
};
/** `value` with each `Date` replaced by its `toISOString()`, in copies of the objects on the way. */
function isoDates(value) {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.toISOString();
  if (typeof value !== 'object' || value === null) return value;
  let copy;
  for (const key of Object.keys(value)) {
    const next = isoDates(value[key]);
    if (next === value[key]) continue;
    copy ??= Array.isArray(value) ? value.slice() : { ...value };
    copy[key] = next;
  }
  return copy ?? value;
}
const serializers = {
  'JSON.stringify': (v) => JSON.stringify(v),
  stringifyJson,
  'toISOString, then JSON.stringify': (v) => JSON.stringify(isoDates(v)),
};

// Both serializers must write the very same text, or the comparison means nothing.
for (const [name, page] of Object.entries(pages)) {
  for (const [serializer, fn] of Object.entries(serializers)) {
    if (fn(page) !== JSON.stringify(page)) {
      console.error(`bench/json.mjs: ${serializer} and JSON.stringify differ on the ${name} page`);
      process.exit(1);
    }
  }
}
const bytes = Buffer.byteLength(JSON.stringify(pages['dates (Date objects)']));

const cases = Object.entries(pages).flatMap(([page, value]) =>
  Object.entries(serializers).map(([serializer, fn]) => ({
    page,
    serializer,
    value,
    fn,
    samples: [],
  })),
);

// Read by the end of the run so that no call can be optimised away.
let sink = 0;

/** Calls `fn(value)` `count` times and returns the µs of CPU time per call. */
function time(fn, value, count) {
  const start = process.cpuUsage();
  for (let i = 0; i < count; i++) sink += fn(value).length;
  const { user, system } = process.cpuUsage(start);
  return (user + system) / count;
}

// Warm-up, which also sizes each case's batch to about `ms` milliseconds.
for (const c of cases) {
  time(c.fn, c.value, 2_000);
  const perCall = time(c.fn, c.value, 2_000);
  c.count = Math.max(100, Math.round((ms * 1_000) / perCall));
}

for (let run = 0; run < runs; run++) {
  for (let i = 0; i < cases.length; i++) {
    const c = cases[(run + i) % cases.length];
    c.samples.push(time(c.fn, c.value, c.count));
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

console.log(
  `JSON serializers, ${bytes} bytes of JSON per call: node ${process.version}, ${runs} runs of ~${ms} ms per case, CPU time`,
);
const rows = [['page', 'serializer', 'µs/call median', 'min–max']];
for (const c of cases) {
  c.median = median(c.samples);
  const min = Math.min(...c.samples);
  const max = Math.max(...c.samples);
  rows.push([c.page, c.serializer, c.median.toFixed(2), `${min.toFixed(2)}–${max.toFixed(2)}`]);
}
const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
for (const row of rows) {
  const cells = row.map((cell, i) => (i >= 2 ? cell.padStart(widths[i]) : cell.padEnd(widths[i])));
  console.log(`  ${cells.join('   ')}`);
}
for (const page of Object.keys(pages)) {
  const [builtIn, ...others] = cases.filter((c) => c.page === page);
  for (const other of others) {
    console.log(
      `  ${page}: ${other.serializer} takes ${(other.median / builtIn.median).toFixed(2)}× the time of JSON.stringify`,
    );
  }
}
if (sink === 0) console.log('(no output was produced)');
