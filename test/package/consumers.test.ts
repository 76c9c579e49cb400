import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
let project: string;

// A throw-away project whose node_modules/api-conventions points at this package, so Node
// resolves it through package.json "exports" exactly as it would once installed.
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'api-conventions-consumer-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(root, join(project, 'node_modules', 'api-conventions'), 'dir');
  cpSync(fileURLToPath(new URL('./consumer', import.meta.url)), project, { recursive: true });
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

function run(file: string): Record<string, unknown> {
  const out = execFileSync(process.execPath, [file], {
    cwd: project,
    encoding: 'utf8',
    timeout: 15_000,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

describe('consumers of the built package', () => {
  it('imports every subpath from ESM and serves a request', () => {
    expect(run('esm.mjs')).toEqual({
      fetchStatus: 200,
      fetchBody: { books: [], hasNext: false },
      nodeStatus: 404,
      isApiError: true,
      express: 'function',
      fastify: 'function',
    });
  });

  it('requires every subpath from CommonJS and serves a request', () => {
    expect(run('cjs.cjs')).toEqual({
      fetchStatus: 200,
      fetchBody: { books: [], hasNext: false },
      node: 'function',
      isApiError: true,
      express: 'function',
      fastify: 'function',
    });
  });
});
