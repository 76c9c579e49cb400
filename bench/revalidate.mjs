/**
 * `npm run bench:revalidate`: what a revalidation costs on the node adapter. A GET answered 200
 * is run beside the same GET with a matching `If-None-Match`, answered 304, for a route whose
 * ETag hashes the sent bytes (`/v1/books`) and for one that reads a version before its handler
 * (`/v1/editions`). The goal: each 304 run at least as fast as its 200 run.
 *
 * The server (bench/servers/node-revalidate.mjs) runs pinned to CPU 0 and the load (autocannon,
 * in a child process of this file) to CPU 1 when taskset can; runs alternate round after round
 * and the report gives medians. Speed is measured here, never asserted (CONTRIBUTING.md rule 19).
 *
 * Usage: node bench/revalidate.mjs [--quick] [--rounds N] [--seconds N] [--connections N]
 *        node bench/revalidate.mjs load <url> <seconds> <connections> [<if-none-match>]  (the loader)
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SELF = fileURLToPath(import.meta.url);
const SERVER = fileURLToPath(new URL('./servers/node-revalidate.mjs', import.meta.url));

/** The loader: one autocannon run, printing `result <json>`. */
async function load([url, seconds, connections, tag]) {
  if (new URL(url).hostname !== '127.0.0.1') throw new Error('only 127.0.0.1 is ever targeted');
  const { default: autocannon } = await import('autocannon');
  const headers = tag ? { 'if-none-match': tag } : {};
  const result = await autocannon({
    url,
    duration: Number(seconds),
    connections: Number(connections),
    headers,
  });
  const statuses = {
    '2xx': result['2xx'],
    '3xx': result['3xx'],
    other: result.non2xx - result['3xx'],
  };
  process.stdout.write(
    `result ${JSON.stringify({ requestsPerSec: result.requests.average, p99Ms: result.latency.p99, statuses, errors: result.errors })}\n`,
  );
}

function pinning() {
  const probe = spawnSync('taskset', ['-c', '0,1', 'true'], { stdio: 'ignore' });
  return !probe.error && probe.status === 0;
}

function run(command, args, pin, cpu) {
  return pin ? spawn('taskset', ['-c', String(cpu), command, ...args]) : spawn(command, args);
}

async function startServer(pin) {
  const child = run(process.execPath, [SERVER], pin, 0);
  child.stderr.pipe(process.stderr);
  const port = await new Promise((resolve, reject) => {
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += chunk;
      const match = /ready (\d+)/.exec(out);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', (code) => reject(new Error(`the server exited with ${code}`)));
  });
  return { child, port };
}

async function measure(url, seconds, connections, tag, pin) {
  const child = run(
    process.execPath,
    [SELF, 'load', url, String(seconds), String(connections), ...(tag ? [tag] : [])],
    pin,
    1,
  );
  let out = '';
  child.stdout.on('data', (chunk) => {
    out += chunk;
  });
  child.stderr.pipe(process.stderr);
  const code = await new Promise((resolve) => child.once('exit', resolve));
  const line = out.split('\n').find((l) => l.startsWith('result '));
  if (code !== 0 || !line) throw new Error(`the loader failed (${code}): ${out}`);
  return JSON.parse(line.slice(7));
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

async function main(argv) {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      rounds: { type: 'string' },
      seconds: { type: 'string' },
      connections: { type: 'string' },
    },
  });
  const rounds = Number(values.rounds ?? (values.quick ? 1 : 5));
  const seconds = Number(values.seconds ?? (values.quick ? 1 : 5));
  const connections = Number(values.connections ?? 50);
  if (!existsSync(`${ROOT}dist/node.mjs`)) {
    console.error('dist/ is missing: run `npm run build` first.');
    process.exit(1);
  }
  const pin = pinning();
  const { child, port } = await startServer(pin);
  try {
    const runs = [];
    for (const path of ['/v1/books', '/v1/editions']) {
      const url = `http://127.0.0.1:${port}${path}`;
      const first = await fetch(url);
      const tag = first.headers.get('etag');
      await first.arrayBuffer();
      const check = await fetch(url, { headers: { 'if-none-match': tag } });
      if (check.status !== 304) throw new Error(`${path} answered ${check.status} to its own ETag`);
      runs.push({ name: `${path} 200`, url, tag: undefined }, { name: `${path} 304`, url, tag });
    }
    // Warm the server up before anything is measured.
    await measure(runs[0].url, 1, connections, undefined, pin);
    const results = new Map(runs.map((r) => [r.name, []]));
    for (let round = 0; round < rounds; round++) {
      for (const r of runs) {
        const result = await measure(r.url, seconds, connections, r.tag, pin);
        const expected = r.tag ? result.statuses['3xx'] : result.statuses['2xx'];
        if (result.errors > 0 || result.statuses.other > 0 || expected === 0) {
          throw new Error(`${r.name}: unexpected answers ${JSON.stringify(result)}`);
        }
        results.get(r.name).push(result.requestsPerSec);
      }
    }
    console.log(
      `revalidation on the node adapter (${rounds} round(s) of ${seconds} s, ${connections} connections${pin ? ', pinned' : ''})`,
    );
    for (const path of ['/v1/books', '/v1/editions']) {
      const ok = median(results.get(`${path} 200`));
      const notModified = median(results.get(`${path} 304`));
      const ratio = notModified / ok;
      console.log(
        `${path.padEnd(14)} 200: ${Math.round(ok).toString().padStart(7)} req/s   304: ${Math.round(notModified).toString().padStart(7)} req/s   304/200: ${ratio.toFixed(2)} ${ratio >= 1 ? '(goal met)' : '(below the goal of 1.00)'}`,
      );
    }
  } finally {
    child.kill('SIGTERM');
  }
}

if (process.argv[2] === 'load') await load(process.argv.slice(3));
else await main(process.argv.slice(2));
