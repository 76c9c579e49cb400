import { readdirSync, readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { type CodeBlock, hiddenPreludes, typescriptBlocks } from './_markdown.ts';
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
  '```ts', //                                                                         2
  "import { conventions, type RouteTable } from 'api-conventions';", //               3
  "const routes: RouteTable = { '/v1/books': { GET: () => ({}) } };", //               4
  'conventions({ routes });', //                                                      5
  '```', //                                                                           6
  '- in a list:', //                                                                  7
  '  ```typescript', //                                                               8
  '  const n: number = "one";', //                                                   9
  '  ```', //                                                                        10
  '```ts ignore', //                                                                 11
  'this is not TypeScript', //                                                       12
  '```', //                                                                          13
  '```ts', //                                                                        14
  'conventions({ routes });', //                                                     15
  '```', //                                                                          16
].join('\n');
const sampleBlocks = typescriptBlocks('test/docs/sample.md', sample);

const blocks = pages.flatMap((page) => typescriptBlocks(page, read(page)));
const checked = blocks.filter((b) => !b.ignored && !beingRewritten.has(b.file));
let problems: Map<CodeBlock, string[]>;

beforeAll(() => {
  problems = typecheckBlocks([...checked, ...sampleBlocks.filter((b) => !b.ignored)]);
}, 60_000);

describe('code blocks in the docs', () => {
  it('finds each TypeScript block with its line and ignore mark, as the reader sees it', () => {
    expect(sampleBlocks.map(({ line, ignored }) => ({ line, ignored }))).toEqual([
      { line: 2, ignored: false },
      { line: 8, ignored: false },
      { line: 11, ignored: true },
      { line: 14, ignored: false },
    ]);
    expect(sampleBlocks[0]?.text.split('\n')).toEqual([
      "import { conventions, type RouteTable } from 'api-conventions';",
      "const routes: RouteTable = { '/v1/books': { GET: () => ({}) } };",
      'conventions({ routes });',
      'export {};',
    ]);
    expect(sampleBlocks[0]?.origin).toEqual([3, 4, 5, 6]);
    expect(sampleBlocks[1]?.text).toBe('const n: number = "one";\nexport {};');
  });

  it('reports a failing block with its page and line; a block uses nothing it does not show', () => {
    const [whole, broken, , fragment] = sampleBlocks;
    expect(problems.get(whole!)).toEqual([]);
    expect(problems.get(broken!)).toEqual([
      "test/docs/sample.md:9: TS2322 Type 'string' is not assignable to type 'number'.",
    ]);
    // The names of the block before are not this one's: it must import and declare its own.
    expect(problems.get(fragment!)).toEqual([
      "test/docs/sample.md:15: TS2304 Cannot find name 'conventions'.",
      "test/docs/sample.md:15: TS18004 No value exists in scope for the shorthand property 'routes'. Either declare one or provide an initializer.",
    ]);
  });

  it('gives each saved file (```ts file=name.ts) one name in its folder', () => {
    const named = blocks.filter((b) => b.name !== undefined).map((b) => `${b.file}: ${b.name}`);
    const paths = blocks
      .filter((b) => b.name !== undefined)
      .map((b) => `${b.file.replace(/[^/]*$/, '')}${b.name}`);
    expect(new Set(paths).size, named.join(', ')).toBe(paths.length);
    expect(named).toContain('docs/openapi.md: docs-page.ts');
  });

  it('hides no code from readers: no page has a prelude comment', () => {
    const hidden = pages.flatMap((page) => hiddenPreludes(read(page)).map((n) => `${page}:${n}`));
    expect(hidden).toEqual([]);
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
