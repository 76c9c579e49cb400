/** Compiles a TypeScript project of a test's own with the project's `tsc`, as a user would. */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../', import.meta.url));
const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');

/** Runs `tsc -p dir`; `ok` when it compiled, else what it printed. */
export function compile(dir: string): { ok: boolean; output: string } {
  try {
    execFileSync(process.execPath, [tsc, '-p', dir], { cwd: root, stdio: 'pipe' });
    return { ok: true, output: '' };
  } catch (error) {
    const e = error as { stdout?: Buffer; stderr?: Buffer };
    return { ok: false, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}
