// Each feature adds its route settings to RouteConfig (and its request state to RequestState)
// with `declare module '../kernel/route-types.ts' { interface RouteConfig { … } }` beside its own code.
// The declaration bundler copies such blocks as they are, but in the bundle the relative path
// names nothing, so a consumer would see none of the settings. The bundle is one module whose
// top level already declares RouteConfig, so the block's declarations are moved to the top
// level, where they merge with it as any two declarations of an interface in one module do.
// Runs on dist/*.d.ts and dist/*.d.cts, before esm-types.mjs renames the ESM ones.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const dist = new URL('../dist/', import.meta.url).pathname;

/** The names declared at the top level of a bundle, outside any `declare module` block. */
function topLevelNames(file) {
  const names = new Set();
  for (const statement of file.statements) {
    if (ts.isModuleDeclaration(statement) && ts.isStringLiteral(statement.name)) continue;
    if ('name' in statement && statement.name && ts.isIdentifier(statement.name)) {
      names.add(statement.name.text);
    }
  }
  return names;
}

/** The bundle's text with every relative augmentation unwrapped; the number unwrapped. */
export function unwrapAugmentations(text, fileName) {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const declared = topLevelNames(file);
  const blocks = file.statements.filter(
    (s) =>
      ts.isModuleDeclaration(s) &&
      ts.isStringLiteral(s.name) &&
      s.name.text.startsWith('.') &&
      s.body !== undefined &&
      ts.isModuleBlock(s.body),
  );
  let out = text;
  // From the end, so that earlier positions stay valid.
  for (const block of blocks.reverse()) {
    const inner = block.body.statements;
    for (const statement of inner) {
      const name = statement.name?.text;
      if (!ts.isInterfaceDeclaration(statement) || !declared.has(name)) {
        throw new Error(
          `dts-augmentations: ${fileName}: \`declare module '${block.name.text}'\` holds ${name ? `\`${name}\`` : 'a statement'}, which is not an interface the bundle declares at its top level; augment an interface of the core (RouteConfig, RequestState) or export the declaration instead.`,
        );
      }
    }
    const body = inner
      .map((s) => text.slice(s.getFullStart(), s.getEnd()).replace(/^\n+/, ''))
      .map((s) => s.replace(/^ {4}/gm, ''))
      .join('\n');
    out = `${out.slice(0, block.getStart())}${body}${out.slice(block.getEnd())}`;
  }
  return { text: out, count: blocks.length };
}

let total = 0;
for (const name of readdirSync(dist).filter((f) => /\.d\.c?ts$/.test(f))) {
  const path = join(dist, name);
  const { text, count } = unwrapAugmentations(readFileSync(path, 'utf8'), name);
  if (count > 0) writeFileSync(path, text);
  total += count;
}
if (total === 0) {
  throw new Error(
    'dts-augmentations: no feature augmentation found in dist; the route settings would be missing from RouteConfig.',
  );
}
console.log(
  `dts-augmentations: ${total} feature augmentations merged into RouteConfig/RequestState`,
);
