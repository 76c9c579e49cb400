/** Compiles a TypeScript project of a test's own with the project's `tsc`, as a user would. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
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

/**
 * A new directory under .test-tmp holding an ES module project that `tsc --strict` checks as a
 * user's would (NodeNext, the DOM's fetch types): `files` are written and listed; `options` adds
 * compiler options (`paths`, more `lib`). Returns the directory, for {@link compile}.
 */
export function strictProject(
  prefix: string,
  files: Readonly<Record<string, string>>,
  options: Readonly<Record<string, unknown>> = {},
): string {
  mkdirSync(join(root, '.test-tmp'), { recursive: true });
  const dir = mkdtempSync(join(root, '.test-tmp', prefix));
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  const compilerOptions = {
    strict: true,
    noEmit: true,
    target: 'ES2022',
    module: 'NodeNext',
    moduleResolution: 'NodeNext',
    skipLibCheck: true,
    types: [],
    lib: ['ES2022', 'DOM'],
    ...options,
  };
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions, files: Object.keys(files) }),
  );
  return dir;
}
