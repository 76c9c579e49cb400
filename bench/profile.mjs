/**
 * `node bench/profile.mjs <target> [--seconds N] [--top N] [--tokens N]`: where one bench target
 * spends its CPU under load.
 *
 * `<target>` is a target of `npm run bench -- --list` (for example `node-full`, `bookshelf`,
 * `express-full-fresh`): the same server, asked the same request with the same headers (bearer
 * token, Origin, If-None-Match) as in the bench. The server runs with `--cpu-prof`, pinned to
 * CPU 0, loaded by wrk (or autocannon) pinned to CPU 1 for `--seconds` after a 2 s warm-up, then
 * stopped so that Node writes the profile. The report lists the functions with the most self
 * time (time in the function itself, not in what it calls), and the share of the samples each
 * file of the package took (`dist/…`), so a change's effect shows as a smaller line. Times the
 * built package: `npm run build` first. The .cpuprofile is kept for Chrome DevTools or
 * speedscope; its path is printed last.
 */
import { mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chooseLoader, runLoad } from './lib/loaders.mjs';
import { prepareRequest } from './lib/probe.mjs';
import { detectPinning, killAll, startRedis, startServer, stopServer } from './lib/processes.mjs';
import { TARGETS } from './lib/targets.mjs';
import { makeKeys, sign, writeTokenPool } from './lib/tokens.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = path.join(ROOT, '.bench-results', `profile-${process.pid}`);
const USAGE =
  'usage: node bench/profile.mjs <target> [--seconds N] [--top N] [--tokens N]\n' +
  '  <target> is one of: ' +
  Object.keys(TARGETS).join(', ');

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    seconds: { type: 'string', default: '10' },
    top: { type: 'string', default: '30' },
    tokens: { type: 'string', default: '50000' },
  },
});
const [name] = positionals;
const seconds = Number(values.seconds);
const top = Number(values.top);
const poolSize = Number(values.tokens);
const target = name !== undefined && Object.hasOwn(TARGETS, name) ? TARGETS[name] : undefined;
if (!target || !(seconds > 0) || !(top > 0) || !(poolSize > 0)) {
  console.error(USAGE);
  process.exit(2);
}

process.on('exit', killAll);
mkdirSync(OUT, { recursive: true });
const pinning = detectPinning();
const loader = chooseLoader(undefined, ROOT);
const keys = await makeKeys();
const tokens = {
  repeat: await sign(keys, 'alice', 'repeat-1'),
  first: await sign(keys, 'alice', 'probe-1'),
};
if (target.request.auth === 'fresh') {
  tokens.poolFile = await writeTokenPool(keys, path.join(OUT, 'tokens.txt'), poolSize);
}
const env = {
  PAYLOAD: target.payload,
  ...keys.env,
  ...target.env,
};
let redis;
if (target.redis) {
  redis = await startRedis(OUT);
  if (!redis.url) {
    console.error(`${name} needs redis-server: ${redis.reason}`);
    process.exit(1);
  }
  env.REDIS_URL = redis.url;
}

const server = await startServer({
  file: path.join(ROOT, 'bench', 'servers', target.server),
  tsx: target.tsx,
  env,
  pinning,
  cwd: ROOT,
  nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${OUT}`],
});
const request = await prepareRequest(target, server.port, tokens);
const load = { server, connections: 50, loader, pinning, request, root: ROOT };
await runLoad({ ...load, seconds: 2 });
const result = await runLoad({ ...load, seconds });
// SIGTERM makes the server call process.exit, which writes the profile.
await stopServer(server);
await redis?.stop?.();

// The profile of the server process itself (tsx targets also profile tsx's loader thread).
const files = readdirSync(OUT).filter((f) => f.endsWith('.cpuprofile'));
const profiles = files.map((f) => ({
  file: f,
  profile: JSON.parse(readFileSync(path.join(OUT, f), 'utf8')),
}));
// The busiest one is the server's main thread: samples that are not idle.
const busy = ({ profile }) => {
  const idle = new Set(
    profile.nodes.filter((n) => n.callFrame.functionName === '(idle)').map((n) => n.id),
  );
  return profile.samples.filter((id) => !idle.has(id)).length;
};
const main = profiles.sort((a, b) => busy(b) - busy(a))[0];
if (!main) {
  console.error(`no .cpuprofile written in ${OUT}`);
  process.exit(1);
}
const { profile } = main;

// Self time of a node is its share of the samples; summed by function and place, and by file.
const counts = new Map();
for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
const byFunction = new Map();
const byFile = new Map();
for (const node of profile.nodes) {
  const hits = counts.get(node.id) ?? 0;
  if (hits === 0) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  // Files of the repository relative to it, node:internal ones as they are.
  const file = url.startsWith('file:') ? path.relative(ROOT, fileURLToPath(url)) : url;
  const where = file ? `${file}:${lineNumber + 1}` : '';
  const key = `${functionName || '(anonymous)'}  ${where}`.trim();
  byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
  const group = file.startsWith('node:')
    ? 'node:internal'
    : file.includes('node_modules/')
      ? `node_modules/${file.split('node_modules/').pop().split('/')[0]}`
      : file || functionName;
  byFile.set(group, (byFile.get(group) ?? 0) + hits);
}
const total = profile.samples.length;
const idle = byFunction.get('(idle)') ?? 0;
const share = (hits) => `${((hits / total) * 100).toFixed(1).padStart(6)}`;
console.log(
  `${name}: ${Math.round(result.requestsPerSec ?? 0)} req/s under the profiler, ${total} samples, ${((1 - idle / total) * 100).toFixed(0)}% not idle`,
);
console.log('\n  self %   function  file:line');
for (const [key, hits] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`  ${share(hits)}   ${key}`);
}
console.log('\n  self %   file');
for (const [key, hits] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 15)) {
  console.log(`  ${share(hits)}   ${key}`);
}
console.log(`\nprofile: ${path.relative(ROOT, path.join(OUT, main.file))}`);
