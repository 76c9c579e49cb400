/**
 * `node bench/client.mjs`: the per-call overhead of api-conventions/client over bare `fetch`,
 * against one small JSON server in a child process (so that the server's work is not the
 * client's). Four cases, run in interleaved rounds: bare `fetch` + `res.json()`; `client.get`
 * with its cache and rate gate off (URL building, headers, error and body handling); the default
 * client (rate-limit headers read, the gate, ETag stored); and the default client answered 304
 * from its cache (bare `fetch` on the same 304 beside it). The report gives the median µs per
 * call over the rounds and the median of each round's ratio to bare fetch.
 *
 * A micro-benchmark, not a test (CONTRIBUTING.md rule 19): it measures and prints, never fails
 * on speed. It times the built package (`npm run build` first).
 *
 * Usage: node bench/client.mjs [--rounds N] [--calls N]
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const DIST = fileURLToPath(new URL('../dist/client.mjs', import.meta.url));
if (!existsSync(DIST)) {
  console.error('bench/client.mjs: dist/client.mjs is missing; run `npm run build` first');
  process.exit(1);
}
const { createClient } = await import(DIST);

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, calls: { type: 'string', default: '2000' } },
});
const rounds = Number(values.rounds);
const calls = Number(values.calls);
if (!Number.isInteger(rounds) || rounds < 1 || !Number.isInteger(calls) || calls < 1) {
  console.error('usage: node bench/client.mjs [--rounds N] [--calls N]');
  process.exit(2);
}

// The server: a book with an ETag and the rate-limit headers a conventions service sends; a
// matching If-None-Match gets 304.
const serverSource = `
const { createServer } = require('node:http');
const body = JSON.stringify({ id: 'emma', title: 'Emma', authorId: 'jane-austen', year: 1815 });
const headers = {
  'content-type': 'application/json', etag: '"v1"',
  'x-ratelimit-limit': '1000000000', 'x-ratelimit-remaining': '999999999',
  'x-ratelimit-reset': String(Math.ceil(Date.now() / 1000) + 3600),
};
const server = createServer((req, res) => {
  if (req.headers['if-none-match'] === '"v1"') { res.writeHead(304, headers); res.end(); return; }
  res.writeHead(200, headers); res.end(body);
});
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));
`;
const child = spawn(process.execPath, ['-e', serverSource], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const port = await new Promise((resolve) => {
  child.stdout.on('data', (chunk) => {
    const match = /listening (\d+)/.exec(String(chunk));
    if (match) resolve(Number(match[1]));
  });
});
const base = `http://127.0.0.1:${port}`;
const url = `${base}/v1/books/emma`;

const lean = createClient({ baseUrl: base, cache: false, rateLimit: false });
const full = createClient({ baseUrl: base });
await full.get('/v1/books/:id', { params: { id: 'emma' } }); // primes the cache

const cases = {
  'bare fetch': async () => (await fetch(url)).json(),
  'client, cache and gate off': () => lean.get('/v1/books/:id', { params: { id: 'emma' } }),
  'client, defaults (200s)': () =>
    full.get('/v1/books/:id', { params: { id: 'emma' }, headers: { 'if-none-match': '"x"' } }),
  'bare fetch, 304': async () => {
    const res = await fetch(url, { headers: { 'if-none-match': '"v1"' } });
    await res.arrayBuffer();
  },
  'client, 304 from cache': () => full.get('/v1/books/:id', { params: { id: 'emma' } }),
};
const names = Object.keys(cases);

/** µs per call of `calls` sequential calls. */
async function time(run) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < calls; i++) await run();
  return Number(process.hrtime.bigint() - start) / 1000 / calls;
}

for (const run of Object.values(cases)) await time(run); // warm up
const results = Object.fromEntries(names.map((n) => [n, []]));
const ratios = Object.fromEntries(names.map((n) => [n, []]));
for (let r = 0; r < rounds; r++) {
  const order = r % 2 === 0 ? names : [...names].reverse();
  const round = {};
  for (const name of order) round[name] = await time(cases[name]);
  for (const name of names) {
    results[name].push(round[name]);
    const bare = name.includes('304') ? round['bare fetch, 304'] : round['bare fetch'];
    ratios[name].push(round[name] / bare);
  }
}
child.kill();

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
};
console.log(
  `client overhead, ${rounds} rounds of ${calls} sequential calls (median µs/call, min–max)`,
);
for (const name of names) {
  const xs = results[name];
  console.log(
    `  ${name.padEnd(28)} ${median(xs).toFixed(1).padStart(7)} µs  (${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)})`,
  );
}
console.log('ratios to bare fetch on the same answer (median of the rounds)');
for (const name of names.filter((n) => !n.startsWith('bare'))) {
  console.log(`  ${name.padEnd(28)} ${median(ratios[name]).toFixed(2)}x`);
}
