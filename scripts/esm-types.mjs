// tsup names the ESM declaration files .d.ts (its dts worker cannot receive the outExtension
// function); rename them to .d.mts, the extension package.json's "import" conditions point to.
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const dist = new URL('../dist/', import.meta.url).pathname;
const files = readdirSync(dist).filter((f) => f.endsWith('.d.ts'));
for (const file of files) {
  const path = join(dist, file);
  // Relative imports between declaration chunks must name the renamed files.
  const text = readFileSync(path, 'utf8').replace(/(from '\.\/[^']+)\.js'/g, "$1.mjs'");
  writeFileSync(path, text);
  renameSync(path, path.replace(/\.d\.ts$/, '.d.mts'));
}
console.log(`esm-types: ${files.length} declaration files renamed to .d.mts`);
