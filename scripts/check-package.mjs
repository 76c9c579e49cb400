// Packs the package as npm would publish it and checks the tarball with publint (strict) and
// are-the-types-wrong, so what users install is what is checked.
import { execFileSync, spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const dir = mkdtempSync(join(tmpdir(), 'api-conventions-pack-'));
const run = (command, args) => execFileSync(command, args, { stdio: 'inherit' });
try {
  // `prepack` builds dist/ first, as on a clean clone; its output comes before npm's JSON.
  const output = execFileSync('npm', ['pack', '--json', '--pack-destination', dir], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const start = output.startsWith('[') ? 0 : output.lastIndexOf('\n[\n') + 1;
  process.stdout.write(output.slice(0, start));
  const packed = JSON.parse(output.slice(start));
  const tarball = join(dir, packed[0].filename);
  console.log(
    `packed ${packed[0].filename}: ${packed[0].entryCount} files, ${packed[0].size} bytes`,
  );
  // Every file the package.json points to is in the tarball (dist/ comes from prepack).
  const files = new Set(packed[0].files.map((file) => file.path));
  const manifest = JSON.parse(readFileSync('package.json', 'utf8'));
  const targets = JSON.stringify([
    manifest.main,
    manifest.module,
    manifest.types,
    manifest.exports,
  ]);
  const missing = [...new Set(targets.match(/\.\/dist\/[^"]+|dist\/[^"]+/g))]
    .map((target) => target.replace(/^\.\//, ''))
    .filter((target) => !files.has(target));
  if (missing.length > 0) throw new Error(`the tarball lacks ${missing.join(', ')}`);
  console.log(`the tarball holds every file package.json names (${files.size} files)`);
  run('npx', ['--no-install', 'publint', '--strict', tarball]);
  // node16 covers Node's ESM and CJS resolution; node10 predates "exports" and "imports" and is
  // not supported. The table is for reading; the verdict comes from the JSON report, because attw
  // reports a node10 failure to resolve the private `#core` import under `resolutionOption`, which
  // its node16 profile does not filter out.
  const attw = ['--no-install', 'attw', '--profile', 'node16', tarball];
  try {
    run('npx', attw);
  } catch {}
  // Into a file, not a pipe: attw exits as soon as it has written, and a pipe drops what the
  // reader had not taken yet (its report is over 200 KB), where writes to a file complete.
  const reportFile = join(dir, 'attw.json');
  const out = openSync(reportFile, 'w');
  try {
    spawnSync('npx', [...attw, '-f', 'json'], { stdio: ['ignore', out, 'inherit'] });
  } finally {
    closeSync(out);
  }
  const { problems } = JSON.parse(readFileSync(reportFile, 'utf8')).analysis;
  const real = problems.filter((p) => (p.resolutionKind ?? p.resolutionOption) !== 'node10');
  if (real.length > 0) {
    console.error(JSON.stringify(real, null, 2));
    throw new Error(`are-the-types-wrong: ${real.length} problem(s) beyond node10`);
  }
  console.log('are-the-types-wrong: no problem for node16 (CJS and ESM) and bundler');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
