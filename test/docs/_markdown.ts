/**
 * Finds the TypeScript blocks of a Markdown page and what each assumes. The conventions are
 * written down in CONTRIBUTING.md ("Code blocks in the docs"):
 *
 * - A fence whose language is `ts` or `typescript` is type-checked as one module of its own.
 * - `<!-- prelude: CODE -->` on the lines just before a fence (blank lines allowed between)
 *   puts CODE ahead of that block only: the declarations a fragment assumes.
 * - `<!-- file prelude: CODE -->` puts CODE ahead of every TypeScript block after it on the page.
 * - A fence written ```` ```ts ignore ```` is not checked, and is counted as ignored.
 */

/** One TypeScript block with the lines it is checked as. */
export interface CodeBlock {
  /** The page, relative to the repository root (`docs/adapters.md`). */
  file: string;
  /** The 1-based line of the opening fence. */
  line: number;
  /** Whether the fence is marked `ignore`. */
  ignored: boolean;
  /** The module checked: preludes, then the block, then `export {}` to keep it a module. */
  text: string;
  /** For each line of `text`, the 1-based line of the page it comes from. */
  origin: number[];
}

const fence = /^(\s*)(`{3,}|~{3,})\s*([^\s`]*)\s*(.*)$/;
const typescript = new Set(['ts', 'typescript']);

interface Prelude {
  code: string;
  line: number;
}

/** Reads an HTML comment `<!-- KIND: CODE -->` ending on line `end` (0-based), if there is one. */
function commentEndingAt(lines: string[], end: number, kind: string): Prelude | undefined {
  if (!lines[end]?.trimEnd().endsWith('-->')) return undefined;
  let start = end;
  while (start > 0 && !lines[start]?.includes('<!--')) start--;
  const text = lines.slice(start, end + 1).join('\n');
  const match = new RegExp(`^\\s*<!--\\s*${kind}:([\\s\\S]*)-->\\s*$`).exec(text);
  return match ? { code: match[1]!.trim(), line: start + 1 } : undefined;
}

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
  const filePreludes: Prelude[] = [];
  for (let i = 0; i < lines.length; i++) {
    const filePrelude = commentEndingAt(lines, i, 'file prelude');
    if (filePrelude) filePreludes.push(filePrelude);
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
      let before = i - 1;
      while (before >= 0 && lines[before]!.trim() === '') before--;
      const prelude = commentEndingAt(lines, before, 'prelude');
      const text: string[] = [];
      const origin: number[] = [];
      for (const p of filePreludes) push(text, origin, p.code, p.line);
      if (prelude) push(text, origin, prelude.code, prelude.line);
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
      blocks.push({
        file,
        line: i + 1,
        ignored: flags.split(/\s+/).includes('ignore'),
        text: text.join('\n'),
        origin,
      });
    }
    i = close;
  }
  return blocks;
}
