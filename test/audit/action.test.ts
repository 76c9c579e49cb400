/**
 * The GitHub Action: the workflow example of docs/audit.md uses only inputs
 * that action.yml declares, gives the required ones and lets the upload write to code scanning;
 * and the action's own script, run by bash as the runner runs it (with `npx` shimmed to run this
 * checkout's command), audits a live bookshelf, writes SARIF and a baseline, and reports the
 * command's exit status: 0 there, 1 against a non-conforming service.
 */
import { execFile } from 'node:child_process';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { loadHost, type Running } from '../../examples/bookshelf/hosts/host.ts';
import { authorizationFor } from '../conformance/_auth.ts';
import { startNonConforming } from './_nonconforming.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
const run = promisify(execFile);

interface Step {
  id?: string;
  if?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
  with?: Record<string, string>;
}
interface Action {
  inputs: Record<string, { required?: boolean; default?: string }>;
  runs: { using: string; steps: Step[] };
}
const action = parse(readFileSync(join(root, 'action.yml'), 'utf8')) as Action;

/** The workflow examples of docs/audit.md: its yaml blocks that have jobs. */
const workflows = [
  ...readFileSync(join(root, 'docs/audit.md'), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g),
]
  .map(
    (m) =>
      parse(m[1]!) as {
        permissions?: Record<string, string>;
        jobs?: Record<string, { steps: Step[] }>;
      },
  )
  .filter((w) => w?.jobs !== undefined);

describe('the workflow example (docs/audit.md)', () => {
  it('passes only inputs action.yml declares, every required one, and may write to code scanning', () => {
    expect(workflows).toHaveLength(1);
    const [workflow] = workflows;
    const uses = Object.values(workflow!.jobs!)
      .flatMap((job) => job.steps)
      .filter((step) => step.uses?.startsWith('api-conventions/api-conventions@'));
    expect(uses).toHaveLength(1);
    const given = Object.keys(uses[0]!.with ?? {});
    expect(given.filter((name) => !(name in action.inputs))).toEqual([]);
    const required = Object.entries(action.inputs)
      .filter(([, input]) => input.required)
      .map(([name]) => name);
    expect(required).toEqual(['base-url']);
    expect(given).toEqual(expect.arrayContaining(required));
    expect(workflow!.permissions?.['security-events']).toBe('write');
  });

  it('is a composite action that uploads SARIF and fails with the exit status', () => {
    expect(action.runs.using).toBe('composite');
    const [audit, upload, fail] = action.runs.steps;
    expect(audit?.id).toBe('audit');
    expect(upload?.uses).toMatch(/^github\/codeql-action\/upload-sarif@v\d+$/);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the runner's expression, verbatim
    expect(upload?.with?.sarif_file).toBe('${{ inputs.sarif-file }}');
    expect(fail?.run).toContain('exit "$EXIT_CODE"');
  });
});

/** Runs the action's audit step with `inputs` (the rest defaulted), in `dir`. */
async function runAuditStep(dir: string, inputs: Record<string, string>) {
  const values = Object.fromEntries(
    Object.entries(action.inputs).map(([name, input]) => [
      name,
      inputs[name] ?? input.default ?? '',
    ]),
  );
  const step = action.runs.steps[0]!;
  // The runner's expression syntax, as far as the step uses it: ${{ inputs.name }}.
  const env = Object.fromEntries(
    Object.entries(step.env ?? {}).map(([name, value]) => [
      name,
      value.replace(/\$\{\{\s*inputs\.([\w-]+)\s*\}\}/g, (_, input: string) => values[input] ?? ''),
    ]),
  );
  const bin = join(dir, 'bin');
  mkdirSync(bin, { recursive: true });
  // npx shimmed: it records its arguments and runs this checkout's command for
  // `npx --yes api-conventions@<version> …`.
  writeFileSync(
    join(bin, 'npx'),
    `#!/bin/sh\necho "$@" >> "${join(dir, 'npx-calls')}"\n[ "$1" = "--yes" ] || exit 90\ncase "$2" in api-conventions@*) ;; *) exit 91 ;; esac\nshift 2\nexec "${process.execPath}" --import tsx "${join(root, 'src/bin.ts')}" "$@"\n`,
  );
  chmodSync(join(bin, 'npx'), 0o755);
  const output = join(dir, 'github-output');
  writeFileSync(output, '');
  await run('bash', ['-e', '-c', step.run!], {
    cwd: dir,
    env: {
      ...process.env,
      ...env,
      PATH: `${bin}:${process.env.PATH}`,
      GITHUB_OUTPUT: output,
      TSX_TSCONFIG_PATH: join(root, 'tsconfig.json'),
    },
  });
  const outputs = Object.fromEntries(
    readFileSync(output, 'utf8')
      .trim()
      .split('\n')
      .map((line) => line.split('=') as [string, string]),
  );
  return { outputs, calls: readFileSync(join(dir, 'npx-calls'), 'utf8') };
}

describe("the action's script", () => {
  let running: Running;
  let base: string;
  let token: string;
  beforeAll(async () => {
    running = await (await loadHost('node'))(createBookshelf(), { port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${running.port}`;
    token = ((await authorizationFor(base, 'alice')) ?? '').replace(/^Bearer /, '');
  });
  afterAll(() => running?.close());

  const scratch = () => {
    mkdirSync(join(root, '.test-tmp'), { recursive: true });
    return mkdtempSync(join(root, '.test-tmp', 'action-'));
  };

  it("runs the example's inputs against the bookshelf: SARIF, a baseline, exit 0", async () => {
    const dir = scratch();
    copyFileSync(join(root, 'test/audit/bookshelf.openapi.json'), join(dir, 'openapi.json'));
    const example = Object.values(workflows[0]!.jobs!)
      .flatMap((job) => job.steps)
      .find((step) => step.uses?.startsWith('api-conventions/api-conventions@'))!.with!;
    const inputs = Object.fromEntries(
      Object.entries(example).map(([name, value]) => [
        name,
        String(value).replace(/\$\{\{\s*secrets\.API_TOKEN\s*\}\}/g, token),
      ]),
    );
    inputs['base-url'] = base;
    const first = await runAuditStep(dir, inputs);
    expect(first.outputs).toEqual({
      'exit-code': '0',
      'sarif-file': 'api-conventions-audit.sarif',
    });
    const sarif = JSON.parse(readFileSync(join(dir, 'api-conventions-audit.sarif'), 'utf8'));
    expect(sarif.version).toBe('2.1.0');
    expect(existsSync(join(dir, '.api-conventions-baseline.json'))).toBe(true);
    // Each input became arguments, the header whole and the extra arguments one a line.
    expect(first.calls).toMatch(
      /^--yes api-conventions@latest audit http:\/\/127\.0\.0\.1:\d+ --format sarif --openapi openapi\.json --header Authorization: Bearer \S+ --baseline \.api-conventions-baseline\.json --skip 4\.8$/m,
    );
    const second = await runAuditStep(dir, inputs);
    expect(second.outputs['exit-code']).toBe('0');
  }, 60_000);

  it('reports exit status 1 when a required rule is broken', async () => {
    const service = await startNonConforming();
    try {
      const { outputs } = await runAuditStep(scratch(), {
        'base-url': service.base,
        paths: '/v1/books /v1/authors',
      });
      expect(outputs['exit-code']).toBe('1');
    } finally {
      await service.close();
    }
  }, 60_000);
});
