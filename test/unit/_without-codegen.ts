/**
 * Runs a test script in a child Node process that cannot compile code from strings
 * (`--disallow-code-generation-from-strings`), as on Workers: the closures the library falls
 * back to, checked by the same properties as the generated functions.
 */
import { type SpawnSyncReturns, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export function runWithoutCodegen(script: URL): SpawnSyncReturns<string> {
  return spawnSync(
    process.execPath,
    ['--disallow-code-generation-from-strings', '--import', 'tsx', fileURLToPath(script)],
    { encoding: 'utf8', timeout: 60_000 },
  );
}
