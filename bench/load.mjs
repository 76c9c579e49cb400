/**
 * One load run with autocannon, used by bench/run.mjs when wrk is not installed.
 *
 * It runs in its own process (pinned by the harness to its own CPU) so the load generator never
 * shares an event loop or a core with the harness or the server under test.
 *
 * Usage: node bench/load.mjs <url> <seconds> <connections>
 * Prints `start` once the connections are opening, then one `result <json>` line with
 * requestsPerSec, p50Ms, p99Ms, non2xx and errors (the same line bench/wrk-report.lua prints).
 */
import autocannon from 'autocannon';

const [url, secondsArg, connectionsArg] = process.argv.slice(2);
const seconds = Number(secondsArg);
const connections = Number(connectionsArg);

if (!url || !(seconds > 0) || !(connections > 0)) {
  console.error('usage: node bench/load.mjs <url> <seconds> <connections>');
  process.exit(2);
}
// Only loopback is ever targeted: this is a benchmark, not a load test against someone's host.
if (new URL(url).hostname !== '127.0.0.1') {
  console.error(`load.mjs: refusing to target ${url}, only 127.0.0.1 is allowed`);
  process.exit(2);
}

// Backstop in case autocannon never calls back: the run must end by itself.
setTimeout(
  () => {
    console.error('load.mjs: autocannon did not finish in time');
    process.exit(3);
  },
  (seconds + 20) * 1000,
).unref();

const instance = autocannon({ url, duration: seconds, connections, pipelining: 1 }, (err, r) => {
  if (err) {
    console.error(`load.mjs: ${err.stack ?? err}`);
    process.exit(1);
  }
  const result = {
    requestsPerSec: r.requests.average,
    p50Ms: r.latency.p50,
    p99Ms: r.latency.p99,
    non2xx: r.non2xx,
    // autocannon already counts timeouts among its errors.
    errors: r.errors,
  };
  process.stdout.write(`result ${JSON.stringify(result)}\n`);
});

instance.on('start', () => process.stdout.write('start\n'));
