/**
 * One load run with autocannon, used by bench/run.mjs when wrk is not installed.
 *
 * It runs in its own process (pinned by the harness to its own CPU) so the load generator never
 * shares an event loop or a core with the harness or the server under test.
 *
 * Usage: node bench/load.mjs <url> <seconds> <connections> [--header 'name: value']...
 *                            [--tokens FILE] [--expect STATUS]
 * `--header` is sent on every request; `--tokens` names a file of tokens, one a line, sent in turn
 * as `Authorization: Bearer <token>`, one per request; `--expect` is the status that counts as
 * success (200 by default; 304 for a revalidation run). Prints `start` once the connections are
 * opening, then one `result <json>` line with requestsPerSec, p50Ms, p99Ms, non2xx (answers
 * with another status than expected) and errors, the same line bench/wrk-report.lua prints.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    header: { type: 'string', multiple: true, default: [] },
    tokens: { type: 'string' },
    expect: { type: 'string', default: '200' },
  },
});
const [url, secondsArg, connectionsArg] = positionals;
const seconds = Number(secondsArg);
const connections = Number(connectionsArg);
const expected = Number(values.expect);

if (!url || !(seconds > 0) || !(connections > 0) || !Number.isInteger(expected)) {
  console.error(
    "usage: node bench/load.mjs <url> <seconds> <connections> [--header 'name: value']... [--tokens FILE] [--expect STATUS]",
  );
  process.exit(2);
}
// Only loopback is ever targeted: this is a benchmark, not a load test against someone's host.
if (new URL(url).hostname !== '127.0.0.1') {
  console.error(`load.mjs: refusing to target ${url}, only 127.0.0.1 is allowed`);
  process.exit(2);
}

const headers = {};
for (const line of values.header) {
  const colon = line.indexOf(':');
  if (colon < 1) {
    console.error(`load.mjs: --header wants 'name: value', got "${line}"`);
    process.exit(2);
  }
  headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
}

/** Each request takes the next token of the file, so none is sent twice before the pool wraps. */
function rotation(file) {
  const tokens = readFileSync(file, 'utf8').split('\n').filter(Boolean);
  if (tokens.length === 0) {
    console.error(`load.mjs: ${file} holds no tokens`);
    process.exit(2);
  }
  let next = 0;
  return (req) => {
    req.headers = { ...req.headers, authorization: `Bearer ${tokens[next]}` };
    next = (next + 1) % tokens.length;
    return req;
  };
}

// Backstop in case autocannon never calls back: the run must end by itself.
setTimeout(
  () => {
    console.error('load.mjs: autocannon did not finish in time');
    process.exit(3);
  },
  (seconds + 20) * 1000,
).unref();

const options = { url, duration: seconds, connections, pipelining: 1, headers };
if (values.tokens) options.requests = [{ setupRequest: rotation(values.tokens) }];

const instance = autocannon(options, (err, r) => {
  if (err) {
    console.error(`load.mjs: ${err.stack ?? err}`);
    process.exit(1);
  }
  const answered = Object.values(r.statusCodeStats ?? {}).reduce((sum, s) => sum + s.count, 0);
  const good = r.statusCodeStats?.[String(expected)]?.count ?? 0;
  const result = {
    requestsPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.statusCodeStats ? answered - good : r.non2xx,
    // autocannon already counts timeouts among its errors.
    errors: r.errors,
  };
  process.stdout.write(`result ${JSON.stringify(result)}\n`);
});

instance.on('start', () => process.stdout.write('start\n'));
