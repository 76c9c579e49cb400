import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CodeBlock, typescriptBlocks } from './_markdown.ts';
import { typecheckBlocks } from './_typecheck.ts';

const read = (page: string) => readFileSync(new URL(`../../${page}`, import.meta.url), 'utf8');
const pages = [
  'README.md',
  ...readdirSync(new URL('../../docs/', import.meta.url))
    .filter((name) => name.endsWith('.md'))
    .sort()
    .map((name) => `docs/${name}`),
];

// Pages whose rewrite is under way: their blocks follow an API that is changing with them.
// Take a page off this list as soon as its rewrite lands.
const beingRewritten = new Set<string>();

// A page made up for this test, to show that a broken block is reported at its page and line.
const sample = [
  '# Sample', //                                                                      1
  '<!-- file prelude: import type { RouteTable } from "api-conventions"; -->', //     2
  '<!-- prelude: declare const routes: RouteTable; -->', //                           3
  '```ts', //                                                                         4
  "import { conventions } from 'api-conventions';", //                                5
  'conventions({ routes });', //                                                      6
  '```', //                                                                           7
  '- in a list:', //                                                                  8
  '  ```typescript', //                                                               9
  '  const n: number = "one";', //                                                  10
  '  ```', //                                                                        11
  '```ts ignore', //                                                                 12
  'this is not TypeScript', //                                                       13
  '```', //                                                                          14
].join('\n');
const sampleBlocks = typescriptBlocks('test/docs/sample.md', sample);

const blocks = pages.flatMap((page) => typescriptBlocks(page, read(page)));
const checked = blocks.filter((b) => !b.ignored && !beingRewritten.has(b.file));
let problems: Map<CodeBlock, string[]>;

beforeAll(() => {
  problems = typecheckBlocks([...checked, ...sampleBlocks.filter((b) => !b.ignored)]);
}, 60_000);

describe('code blocks in the docs', () => {
  it('finds each TypeScript block with its line, preludes and ignore mark', () => {
    expect(sampleBlocks.map(({ line, ignored }) => ({ line, ignored }))).toEqual([
      { line: 4, ignored: false },
      { line: 9, ignored: false },
      { line: 12, ignored: true },
    ]);
    expect(sampleBlocks[0]?.text.split('\n')).toEqual([
      'import type { RouteTable } from "api-conventions";',
      'declare const routes: RouteTable;',
      "import { conventions } from 'api-conventions';",
      'conventions({ routes });',
      'export {};',
    ]);
    expect(sampleBlocks[0]?.origin).toEqual([2, 3, 5, 6, 7]);
    expect(sampleBlocks[1]?.text).toContain('\nconst n: number = "one";\n');
  });

  it('reports a failing block with its page and line, and passes a fragment with its prelude', () => {
    const [fragment, broken] = sampleBlocks;
    expect(problems.get(fragment!)).toEqual([]);
    expect(problems.get(broken!)).toEqual([
      "test/docs/sample.md:10: TS2322 Type 'string' is not assignable to type 'number'.",
    ]);
  });

  for (const page of pages) {
    const own = blocks.filter((b) => b.file === page);
    const ignored = own.filter((b) => b.ignored).map((b) => b.line);
    const title =
      `type-checks the ${own.length - ignored.length} TypeScript block(s) of ${page}` +
      (ignored.length > 0
        ? ` (${ignored.length} marked ignore, at line ${ignored.join(', ')})`
        : '');
    (beingRewritten.has(page) ? it.skip : it)(title, () => {
      expect(own.filter((b) => !b.ignored).flatMap((b) => problems.get(b) ?? [])).toEqual([]);
    });
  }

  it('checks the README and the adapters guide, where every host is shown', () => {
    expect(checked.filter((b) => b.file === 'README.md').length).toBeGreaterThanOrEqual(2);
    expect(checked.filter((b) => b.file === 'docs/adapters.md').length).toBeGreaterThanOrEqual(4);
  });
});
