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

// fastify.d.mts and fastify.d.cts both add `conventions` to Fastify's FastifyContextConfig; a
// project with .mts and .cts files loads both, and TypeScript wants every declaration of the
// property to have the same type (TS2717). The source names the ESM and the CJS RouteConfig with
// `resolution-mode` import types so that both declarations are one type, but the declaration
// bundler drops the import attributes; put them back.
const both =
  "import('api-conventions', { with: { 'resolution-mode': 'import' } }).RouteConfig & " +
  "import('api-conventions', { with: { 'resolution-mode': 'require' } }).RouteConfig";
for (const file of ['fastify.d.mts', 'fastify.d.cts']) {
  const path = join(dist, file);
  const text = readFileSync(path, 'utf8');
  let fixed = text.replace(
    /(declare module 'fastify' \{[\s\S]*?\bconventions\?: )[^\n]*;/,
    `$1Readonly<${both}>;`,
  );
  if (fixed === text) {
    throw new Error(`esm-types: no \`conventions?:\` in the fastify augmentation of ${file}`);
  }
  // The bundler's namespace import for the old type is left unused.
  const namespace = /^import \* as (\w+) from 'api-conventions';\n/m.exec(fixed);
  if (namespace && !fixed.includes(`${namespace[1]}.`)) fixed = fixed.replace(namespace[0], '');
  writeFileSync(path, fixed);
}
console.log('esm-types: fastify augmentation names the ESM and the CJS RouteConfig');
