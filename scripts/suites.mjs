// Which test files run where (CONTRIBUTING.md, "Node versions" and "How the suite runs"): read by
// vitest.config.ts and scripts/test-node.mjs, so the two keep one list.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (file) => readFileSync(`${root}${file}`, 'utf8');
const testsIn = (dir) =>
  readdirSync(`${root}${dir}`)
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `${dir}/${name}`);

/**
 * Client tests whose time is waiting (2-second tokens over 10 s, rate windows), a browser or the
 * TypeScript compiler (`openapi`: tsc --strict on a typed client), not Node's runtime.
 */
const slowClientTests = ['refresh', 'rate-limits', 'browser-sign-in', 'openapi'].map(
  (name) => `test/client/${name}.test.ts`,
);

/** A file of compliance tests that all run on a real redis-server. */
const redisTests = ['test/compliance/oauth-redis-instances.test.ts'];

/**
 * Whether a test file counts the library's work with V8's block counters (test/_work.ts): those
 * need the library compiled after the counters started, in a module graph of their own, which a
 * shared module graph (`--no-isolate`) does not give.
 */
const countsWork = (file) => read(file).includes("'../_work.ts'");

/**
 * The suites that depend on the runtime: the unit and compliance tests (but the file on a real
 * redis-server), the client tests but those that wait, drive Chromium or run tsc, and the
 * conformance matrix (the files that run on every host through `describeMatrix`), where the
 * runtime's HTTP server, fetch, streams and crypto meet the library; not the files that count
 * work. Each runs in a module graph shared with the others (`--no-isolate`), on every Node line.
 */
export function runtimeSuites() {
  return [
    ...testsIn('test/unit'),
    ...testsIn('test/compliance').filter((file) => !redisTests.includes(file)),
    ...testsIn('test/client').filter((file) => !slowClientTests.includes(file)),
    ...testsIn('test/conformance').filter((file) => read(file).includes('describeMatrix(')),
  ].filter((file) => !countsWork(file));
}

/**
 * The runtime suites that also run two at a time in `npm test`: all but those with time bounds
 * that another file beside them strains (a real redis-server under the store budget, the
 * lingering close's bounds), which run one at a time after them with the rest of the suite.
 */
export function sharedSuites() {
  return runtimeSuites().filter(
    (file) => !read(file).includes('describeRedis(') && !file.endsWith('/lingering-close.test.ts'),
  );
}
