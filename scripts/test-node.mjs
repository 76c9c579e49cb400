// Runs the tests that depend on the runtime on another Node line, with the Linux build of Node the
// registry serves (the devDependencies `node22` and `node24`): `node scripts/test-node.mjs 24`
// (or `npm run test:node -- 24`), or with test paths after the version to run those instead.
// Vitest, its workers and every process a test starts by name (`node`) run on that Node.
// The suites (CONTRIBUTING.md, "Node versions"): the unit and compliance tests, the client tests
// but those that wait out real token lifetimes and rate windows or drive Chromium, and the
// conformance matrix (the files that run on every host through `describeMatrix`), where the
// runtime's HTTP server, fetch, streams and crypto meet the library. Needs the build
// (`npm run build`): some suites run the built package.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const testsIn = (dir) =>
  readdirSync(`${root}${dir}`)
    .filter((name) => name.endsWith('.test.ts'))
    .map((name) => `${dir}/${name}`);
/** Client tests whose time is waiting (2-second tokens over 10 s, rate windows) or a browser. */
const slowClientTests = ['refresh', 'rate-limits', 'browser-sign-in'].map(
  (name) => `test/client/${name}.test.ts`,
);

/** The suites run on each other Node line. */
function runtimeSuites() {
  return [
    'test/unit',
    'test/compliance',
    ...testsIn('test/client').filter((file) => !slowClientTests.includes(file)),
    ...testsIn('test/conformance').filter((file) =>
      readFileSync(`${root}${file}`, 'utf8').includes('describeMatrix('),
    ),
  ];
}

const [version, ...paths] = process.argv.slice(2);
if (!/^\d+$/.test(version ?? '')) {
  console.error('Usage: node scripts/test-node.mjs <22|24> [test paths…]');
  process.exit(2);
}
const bin = `${root}node_modules/node${version}/bin`;
const node = `${bin}/node`;
if (!existsSync(node)) {
  console.error(`No Node ${version} in node_modules/node${version}: run npm ci (Linux x64 only).`);
  process.exit(2);
}
const suites = paths.length > 0 ? paths : runtimeSuites();
const vitest = `${root}node_modules/vitest/vitest.mjs`;
const env = { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` };
const shown = spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim();
console.log(
  `== vitest on node ${shown}: ${paths.length > 0 ? paths.join(' ') : 'unit, compliance, client, conformance matrix'}`,
);
const started = Date.now();
const run = spawnSync(node, [vitest, 'run', ...suites], { cwd: root, stdio: 'inherit', env });
console.log(`== node ${shown}: ${Math.round((Date.now() - started) / 1000)} s`);
process.exit(run.status ?? 1);
