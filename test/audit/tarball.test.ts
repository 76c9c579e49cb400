/**
 * `npx api-conventions audit …` works from the packed package installed in a fresh project
 *: `npm pack` of the build (npm test builds first), `npm install` of the tarball in a
 * temporary directory, then the command against a live service.
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNonConforming } from './_nonconforming.ts';

const run = promisify(execFile);
const root = fileURLToPath(new URL('../..', import.meta.url));
let dir: string;
let server: Awaited<ReturnType<typeof startNonConforming>>;

beforeAll(async () => {
  if (!existsSync(join(root, 'dist', 'bin.mjs'))) {
    throw new Error('dist/bin.mjs is missing: run `npm run build` first (npm test does).');
  }
  dir = mkdtempSync(join(tmpdir(), 'api-conventions-audit-'));
  // The build is there already: without --ignore-scripts, `prepack` would rebuild dist/ (cleaning
  // it first) while other test files read it.
  await run('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: root });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'));
  const project = join(dir, 'project');
  mkdirSync(project);
  writeFileSync(
    join(project, 'package.json'),
    JSON.stringify({ name: 'audit-consumer', private: true }),
  );
  // The cache first; the registry only for what it lacks.
  await run(
    'npm',
    ['install', join(dir, tarball!), '--no-audit', '--no-fund', '--prefer-offline'],
    { cwd: project },
  );
  server = await startNonConforming();
}, 60_000);

afterAll(async () => {
  await server?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

it('runs `npx api-conventions audit` from the installed tarball, with the documented exit status and JSON', async () => {
  const project = join(dir, 'project');
  const clean = await run(
    'npx',
    ['api-conventions', 'audit', `${server.base}/v1/authors`, '--only', '9.1', '--format', 'json'],
    { cwd: project },
  );
  expect(JSON.parse(clean.stdout)).toEqual({
    findings: [
      {
        rule: '9.1',
        outcome: 'pass',
        strength: 'recommended',
        request: 'GET /v1/authors',
        detail: 'a version segment such as /v1 comes first',
        path: '/v1/authors',
      },
    ],
  });
  const failing = await run(
    'npx',
    ['api-conventions', 'audit', `${server.base}/v1/authors`, '--only', '2.7'],
    { cwd: project },
  ).then(
    () => ({ code: 0, stdout: '' }),
    (error: { code: number; stdout: string }) => error,
  );
  expect(failing.code).toBe(1);
  expect(failing.stdout).toMatch(/FAIL 2\.7 +GET \/v1\/authors → 200 \(required\)/);
  // The function is there too, from the subpath, in ESM.
  const imported = await run(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      "import('api-conventions/audit').then((m) => console.log(typeof m.audit))",
    ],
    { cwd: project },
  );
  expect(imported.stdout.trim()).toBe('function');
}, 60_000);
