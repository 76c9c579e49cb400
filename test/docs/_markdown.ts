/**
 * Finds the TypeScript blocks of a Markdown page. The conventions are written down in
 * CONTRIBUTING.md ("Code blocks in the docs"):
 *
 * - A fence whose language is `ts` or `typescript` is type-checked as one module of its own,
 *   exactly as a reader sees it: a block shows its imports and declares what it uses, so that
 *   it compiles as pasted. Nothing is added to it.
 * - A fence written ```` ```ts ignore ```` is not checked, and is counted as ignored.
 * - A fence written ```` ```ts file=docs-page.ts ```` is a file the reader saves under that name:
 *   the other blocks of the page may import it (`./docs-page.ts`), as the reader's files would.
 */

/** One TypeScript block with the lines it is checked as. */
export interface CodeBlock {
  /** The page, relative to the repository root (`docs/adapters.md`). */
  file: string;
  /** The 1-based line of the opening fence. */
  line: number;
  /** Whether the fence is marked `ignore`. */
  ignored: boolean;
  /** The file name the fence gives the block (`file=docs-page.ts`), if it gives one. */
  name?: string | undefined;
  /** The module checked: the block, then `export {}` to keep it a module. */
  text: string;
  /** For each line of `text`, the 1-based line of the page it comes from. */
  origin: number[];
}

const fence = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)\s*(.*)$/;
const typescript = new Set(['ts', 'typescript']);

/** Appends `code` to the module, each of its lines credited to the page's line `line`. */
function push(text: string[], origin: number[], code: string, line: number): void {
  for (const codeLine of code.split('\n')) {
    text.push(codeLine);
    origin.push(line);
  }
}

/** Every TypeScript block of one page, in page order. */
export function typescriptBlocks(file: string, markdown: string): CodeBlock[] {
  const lines = markdown.split(/\r?\n/);
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const open = fence.exec(lines[i]!);
    if (!open) continue;
    const [, indent = '', marks = '', lang = '', flags = ''] = open;
    let close = i + 1;
    while (
      close < lines.length &&
      !new RegExp(`^\\s*${marks[0]}{${marks.length},}\\s*$`).test(lines[close]!)
    ) {
      close++;
    }
    if (typescript.has(lang.toLowerCase())) {
      const text: string[] = [];
      const origin: number[] = [];
      for (let j = i + 1; j < close; j++) {
        const codeLine = lines[j]!;
        push(
          text,
          origin,
          codeLine.startsWith(indent) ? codeLine.slice(indent.length) : codeLine,
          j + 1,
        );
      }
      push(text, origin, 'export {};', close + 1);
      const words = flags.split(/\s+/);
      blocks.push({
        file,
        line: i + 1,
        ignored: words.includes('ignore'),
        name: words.find((w) => w.startsWith('file='))?.slice('file='.length),
        text: text.join('\n'),
        origin,
      });
    }
    i = close;
  }
  return blocks;
}

/**
 * The hidden code comments of a page that earlier versions of this check read
 * (`<!-- prelude: … -->`, `<!-- file prelude: … -->`): code a reader never sees. None may be left.
 */
export function hiddenPreludes(markdown: string): number[] {
  return markdown
    .split(/\r?\n/)
    .flatMap((line, i) => (/<!-{2}\s*(file\s+)?prelude\s*:/.test(line) ? [i + 1] : []));
}
