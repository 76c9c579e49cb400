/**
 * Runs a test script in a child Node process that cannot compile code from strings
 * (`--disallow-code-generation-from-strings`), as on Workers: the closures the library falls
 * back to, checked by the same properties as the generated functions.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

/** Runs `script` without code generation; it must exit 0, print nothing on stderr, and `said`. */
export function expectWithoutCodegen(script: URL, said: string): void {
  const run = spawnSync(
    process.execPath,
    ['--disallow-code-generation-from-strings', '--import', 'tsx', fileURLToPath(script)],
    { encoding: 'utf8', timeout: 60_000 },
  );
  expect(run.stderr).toBe('');
  expect(run.stdout).toContain(said);
  expect(run.status).toBe(0);
}
