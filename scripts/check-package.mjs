// Packs the package as npm would publish it and checks the tarball with publint (strict) and
// are-the-types-wrong, so what users install is what is checked.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'api-conventions-pack-'));
const run = (command, args) => execFileSync(command, args, { stdio: 'inherit' });
try {
  const packed = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--pack-destination', dir], { encoding: 'utf8' }),
  );
  const tarball = join(dir, packed[0].filename);
  console.log(
    `packed ${packed[0].filename}: ${packed[0].entryCount} files, ${packed[0].size} bytes`,
  );
  run('npx', ['--no-install', 'publint', '--strict', tarball]);
  // node16 covers Node's ESM and CJS resolution; node10 predates "exports" and is not supported.
  run('npx', ['--no-install', 'attw', '--profile', 'node16', tarball]);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
