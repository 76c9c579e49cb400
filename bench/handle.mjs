/**
 * `node bench/handle.mjs [--requests N] [--rounds N] [--written]`: the core's `handle()` of one
 * bookshelf request, timed in-process, with no socket and no HTTP parser: how much of a request's
 * time is the pipeline's own (its conventions, shaping and JSON text), apart from Node's HTTP work.
 *
 * The request is the `bookshelf-bytes` group's (`GET /v1/books?per_page=20` with alice's token
 * and an Origin), answered by the bookshelf built from the built package (`npm run build`
 * first) under NODE_ENV=production, as the bench runs it. Prints µs per call for each round
 * (wall time, and the process's CPU time, which a busy machine disturbs less) and the lowest
 * and median after the first two (warm-up). Pin it: `taskset -c 0 node bench/handle.mjs`. The
 * page is the same each time, so its JSON text is written once and sent again
 * (`caching({ reuseText })`); `--written` writes it anew on every call.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

if (process.env.BENCH_HANDLE_CHILD !== '1') {
  // Re-run under tsx (the bookshelf is TypeScript) with the package resolved to dist/.
  const root = fileURLToPath(new URL('..', import.meta.url));
  const result = spawnSync(
    process.execPath,
    ['--import', 'tsx', fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    {
      cwd: root,
      stdio: 'inherit',
      env: {
        ...process.env,
        BENCH_HANDLE_CHILD: '1',
        NODE_ENV: 'production',
        TSX_TSCONFIG_PATH: 'bench/tsconfig.dist.json',
      },
    },
  );
  process.exit(result.status ?? 1);
}

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '20000' },
    rounds: { type: 'string', default: '8' },
    written: { type: 'boolean', default: false },
  },
});
const requests = Number(values.requests);
const rounds = Number(values.rounds);

const { createBookshelf } = await import('../examples/bookshelf/app.ts');
const { ORIGIN } = await import('./lib/tokens.mjs');
const quiet = { error() {}, warn() {}, info() {} };
const api = createBookshelf({
  logger: quiet,
  rateLimit: { limit: 1_000_000_000, window: 3600 },
  reuseText: !values.written,
});
const host = '127.0.0.1:3000';
const headerReader = (headers) => ({ get: (name) => headers[name] });
const request = (method, url, headers, body) => ({
  method,
  url,
  scheme: 'http',
  httpVersion: '1.1',
  remoteAddress: '127.0.0.1',
  headers: headerReader({ host, ...headers }),
  ...(body === undefined ? {} : { readBody: async () => new TextEncoder().encode(body) }),
});

const form = 'grant_type=password&username=alice&password=wonderland&scope=books%3Aread';
const issued = await api.handle(
  request(
    'POST',
    '/v1/oauth2/token',
    {
      authorization: `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`,
      'content-type': 'application/x-www-form-urlencoded',
      'content-length': String(form.length),
    },
    form,
  ),
);
if (issued.status !== 200) throw new Error(`the token endpoint answered ${issued.status}`);
const token = JSON.parse(issued.body).access_token;
const ask = () =>
  request('GET', '/v1/books?per_page=20', {
    authorization: `Bearer ${token}`,
    origin: ORIGIN,
    accept: '*/*',
  });

const first = await api.handle(ask());
if (first.status !== 200) throw new Error(`GET /v1/books answered ${first.status}`);
console.log(
  `handle(): GET /v1/books?per_page=20, ${Buffer.byteLength(first.body)} bytes, ${Object.keys(first.headers).length} headers; ${rounds} rounds of ${requests}`,
);
let best = Number.POSITIVE_INFINITY;
let bestCpu = Number.POSITIVE_INFINITY;
const cpuRounds = [];
for (let round = 1; round <= rounds; round++) {
  const cpuStart = process.cpuUsage();
  const start = process.hrtime.bigint();
  for (let i = 0; i < requests; i++) {
    let response = api.handle(ask());
    if (response instanceof Promise) response = await response;
    // What the adapter does next: the text's length for content-length.
    Buffer.byteLength(response.body);
  }
  const us = Number(process.hrtime.bigint() - start) / requests / 1000;
  const cpu = process.cpuUsage(cpuStart);
  const cpuUs = (cpu.user + cpu.system) / requests;
  if (round > 2) {
    best = Math.min(best, us);
    bestCpu = Math.min(bestCpu, cpuUs);
    cpuRounds.push(cpuUs);
  }
  console.log(`  round ${round}: ${us.toFixed(2)} µs per call (CPU ${cpuUs.toFixed(2)} µs)`);
}
cpuRounds.sort((a, b) => a - b);
const medianCpu = cpuRounds[Math.floor(cpuRounds.length / 2)];
console.log(`lowest after warm-up: ${best.toFixed(2)} µs per call`);
console.log(
  `CPU time after warm-up: lowest ${bestCpu.toFixed(2)} µs, median ${medianCpu.toFixed(2)} µs per call`,
);
