/**
 * `node bench/profile.mjs <server> [--payload books|dates] [--seconds N]`: where one bench server
 * spends its CPU under load.
 *
 * Starts bench/servers/<server>.mjs (for example `node-ours`) with `node --cpu-prof`, pinned to
 * CPU 0, loads it with wrk (or autocannon) pinned to CPU 1 for `--seconds` after a 2 s warm-up,
 * stops it so that Node writes the profile, and prints the functions with the most self time
 * (time spent in the function itself, not in what it calls) and the share of the samples each
 * one took. Times the built package: `npm run build` first. The .cpuprofile file is kept for
 * Chrome DevTools or speedscope; its path is printed last.
 */
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = path.join(ROOT, '.bench-results', `profile-${process.pid}`);
const USAGE =
  'usage: node bench/profile.mjs <server> [--payload books|dates] [--seconds N] [--top N]\n' +
  '  <server> is a file of bench/servers/ without .mjs, for example node-ours';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    payload: { type: 'string', default: 'dates' },
    seconds: { type: 'string', default: '10' },
    top: { type: 'string', default: '25' },
  },
});
const [name] = positionals;
const seconds = Number(values.seconds);
const top = Number(values.top);
const serverFile = name && path.join(ROOT, 'bench', 'servers', `${name}.mjs`);
if (
  !serverFile ||
  name.startsWith('_') ||
  !existsSync(serverFile) ||
  !(seconds > 0) ||
  !(top > 0)
) {
  console.error(USAGE);
  process.exit(2);
}

const hasTaskset = !spawnSync('taskset', ['-c', '0', 'true'], { stdio: 'ignore' }).error;
const pinned = (cpu, command, args) =>
  hasTaskset ? ['taskset', ['-c', String(cpu), command, ...args]] : [command, args];
const hasWrk = !spawnSync('wrk', ['--version'], { stdio: 'ignore' }).error;

mkdirSync(OUT, { recursive: true });
const [command, args] = pinned(0, process.execPath, [
  '--cpu-prof',
  `--cpu-prof-dir=${OUT}`,
  serverFile,
]);
const server = spawn(command, args, {
  cwd: ROOT,
  env: { ...process.env, PORT: '0', PAYLOAD: values.payload, NODE_ENV: 'production' },
  stdio: ['pipe', 'pipe', 'inherit'],
});
process.on('exit', () => server.kill('SIGKILL'));

const port = await new Promise((resolve, reject) => {
  let out = '';
  server.stdout.setEncoding('utf8');
  server.stdout.on('data', (chunk) => {
    out += chunk;
    const match = /^ready (\d+)\s*$/m.exec(out);
    if (match) resolve(Number(match[1]));
  });
  server.once('exit', (code) => reject(new Error(`${name} exited (${code}) before it was ready`)));
});

/** One load run; resolves when the generator exits. */
async function load(duration) {
  const url = `http://127.0.0.1:${port}/v1/books`;
  const [cmd, cmdArgs] = hasWrk
    ? pinned(1, 'wrk', ['-t1', '-c50', `-d${duration}s`, url])
    : pinned(1, process.execPath, [
        path.join(ROOT, 'bench', 'load.mjs'),
        url,
        String(duration),
        '50',
      ]);
  const child = spawn(cmd, cmdArgs, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
  let text = '';
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    text += chunk;
  });
  await once(child, 'exit');
  return text;
}

await load(2);
const report = await load(seconds);
const rate =
  /Requests\/sec:\s*([\d.]+)/.exec(report)?.[1] ?? /"requestsPerSec":([\d.]+)/.exec(report)?.[1];
// SIGINT makes the server call process.exit, which writes the profile.
const exited = once(server, 'exit');
server.kill('SIGINT');
await exited;

const file = readdirSync(OUT).find((f) => f.endsWith('.cpuprofile'));
if (!file) {
  console.error(`no .cpuprofile written in ${OUT}`);
  process.exit(1);
}
const profile = JSON.parse(readFileSync(path.join(OUT, file), 'utf8'));

// Self time of a node is its share of the samples; sum them by function and place.
const counts = new Map();
for (const id of profile.samples) counts.set(id, (counts.get(id) ?? 0) + 1);
const byFunction = new Map();
for (const node of profile.nodes) {
  const hits = counts.get(node.id) ?? 0;
  if (hits === 0) continue;
  const { functionName, url, lineNumber } = node.callFrame;
  // Files of the repository relative to it, node:internal ones as they are.
  const file = url.startsWith('file:') ? path.relative(ROOT, fileURLToPath(url)) : url;
  const where = file ? `${file}:${lineNumber + 1}` : '';
  const key = `${functionName || '(anonymous)'}  ${where}`.trim();
  byFunction.set(key, (byFunction.get(key) ?? 0) + hits);
}
const total = profile.samples.length;
const idle = byFunction.get('(idle)') ?? 0;
console.log(
  `${name}, payload ${values.payload}: ${rate ? `${Math.round(Number(rate))} req/s, ` : ''}${total} samples, ${((1 - idle / total) * 100).toFixed(0)}% not idle`,
);
console.log('  self %   function  file:line');
for (const [key, hits] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`  ${((hits / total) * 100).toFixed(1).padStart(6)}   ${key}`);
}
console.log(`profile: ${path.relative(ROOT, path.join(OUT, file))}`);
