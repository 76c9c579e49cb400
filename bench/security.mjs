/**
 * `node bench/security.mjs`: what the security plugins add to one request through the core
 * (`api.handle`, no server), in µs per request: no plugin, `securityHeaders()` (the header set is
 * compiled into always-on headers, so it should cost about nothing), `securityHeaders()` with
 * `cors()` and `csrf()` for a request without `Origin`, the same for a request from the allowed
 * origin, and a CORS preflight. Target: the header set within 5% of no plugin; the three plugins
 * with an allowed `Origin` within 25%.
 *
 * A micro-benchmark, not a test (CONTRIBUTING.md rule 19): it measures and prints, never fails
 * on speed. It times the built package (`npm run build` first). Each run times every case once
 * for about `--ms` milliseconds, in an order that rotates from run to run; the report gives the
 * median over the runs and their min–max. Pin it to one core on a shared machine:
 * `taskset -c 1 node bench/security.mjs`.
 *
 * Usage: node bench/security.mjs [--runs N] [--ms N]
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const DIST = fileURLToPath(new URL('../dist/index.mjs', import.meta.url));
if (!existsSync(DIST)) {
  console.error('bench/security.mjs: dist/index.mjs is missing; run `npm run build` first');
  process.exit(1);
}
const { conventions, cors, csrf, securityHeaders } = await import(DIST);

const { values } = parseArgs({
  options: { runs: { type: 'string', default: '15' }, ms: { type: 'string', default: '100' } },
});
const runs = Number(values.runs);
const ms = Number(values.ms);
if (!Number.isInteger(runs) || runs < 1 || !(ms > 0)) {
  console.error('usage: node bench/security.mjs [--runs N] [--ms N]   (N a positive whole number)');
  process.exit(2);
}

const book = { id: 'dune', title: 'Dune', authorId: 'frank-herbert', year: 1965 };
const routes = { '/v1/books/:id': { GET: () => book, PATCH: () => book } };
const app = 'https://app.example.com';
const quiet = { error() {}, warn() {} };
const all = () => [
  securityHeaders(),
  cors({ origins: [app], credentials: true }),
  csrf({ secret: 'x'.repeat(32), trustedOrigins: [app], session: () => undefined }),
];
const apis = {
  none: conventions({ routes, logger: quiet }),
  headers: conventions({ routes, plugins: [securityHeaders()], logger: quiet }),
  all: conventions({ routes, plugins: all(), logger: quiet }),
};

/** A request as an adapter hands it to the core: plain values, a header reader. */
const input = (method, headers) => {
  const map = new Map(Object.entries({ host: 'api.example.com', ...headers }));
  return {
    method,
    url: '/v1/books/dune',
    headers: { get: (n) => map.get(n) },
    remoteAddress: '127.0.0.1',
  };
};
const preflight = { origin: app, 'access-control-request-method': 'PATCH' };

const cases = [
  { name: 'no plugin', api: apis.none, req: input('GET', {}) },
  { name: 'securityHeaders()', api: apis.headers, req: input('GET', {}) },
  { name: '+ cors() + csrf(), no Origin', api: apis.all, req: input('GET', {}) },
  { name: '+ cors() + csrf(), allowed Origin', api: apis.all, req: input('GET', { origin: app }) },
  { name: 'preflight (OPTIONS, 204)', api: apis.all, req: input('OPTIONS', preflight) },
].map((c) => ({ ...c, samples: [] }));

let sink = 0;

/** Handles `req` `count` times and returns the µs per request. */
async function time(api, req, count) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) {
    const res = api.handle(req);
    sink += (typeof res.then === 'function' ? await res : res).status;
  }
  return Number(process.hrtime.bigint() - start) / 1_000 / count;
}

for (const c of cases) {
  const first = await c.api.handle(c.req);
  if (first.status >= 400) {
    console.error(`bench/security.mjs: "${c.name}" answered ${first.status}`);
    process.exit(1);
  }
  await time(c.api, c.req, 5_000);
  const perCall = await time(c.api, c.req, 5_000);
  c.count = Math.max(1_000, Math.round((ms * 1_000) / perCall));
}

for (let run = 0; run < runs; run++) {
  for (let i = 0; i < cases.length; i++) {
    const c = cases[(run + i) % cases.length];
    c.samples.push(await time(c.api, c.req, c.count));
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const base = median(cases[0].samples);
console.log(
  `security plugins through api.handle, µs per request (median of ${runs} runs, min–max)`,
);
for (const c of cases) {
  const m = median(c.samples);
  const lo = Math.min(...c.samples).toFixed(2);
  const hi = Math.max(...c.samples).toFixed(2);
  console.log(
    `  ${c.name.padEnd(36)} ${m.toFixed(2).padStart(6)} µs  (${lo}–${hi})  ${(m / base).toFixed(2)}x`,
  );
}
if (sink === 0) console.log('');
