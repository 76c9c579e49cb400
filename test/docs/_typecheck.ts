/**
 * Type-checks code blocks with the project's own compiler settings: one program for every block,
 * each block a module of its own beside its page, `api-conventions` resolved to the sources
 * through the `paths` of tsconfig.json.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import type { CodeBlock } from './_markdown.ts';

const root = fileURLToPath(new URL('../../', import.meta.url)).replace(/\\/g, '/');

/** The project's compiler options, as tsconfig.json sets them. */
function projectOptions(): ts.CompilerOptions {
  const configPath = `${root}tsconfig.json`;
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(config, ts.sys, root, undefined, configPath);
  return { ...parsed.options, noEmit: true };
}

/**
 * The path a block is compiled at: beside its page, so relative imports resolve from there; a
 * block that names its file (`file=docs-page.ts`) under that name, so its page's other blocks
 * import it as `./docs-page.ts`.
 */
function virtualPath(block: CodeBlock): string {
  if (block.name !== undefined) return `${root}${dirname(block.file)}/${block.name}`;
  return `${root}${block.file}.${block.line}.ts`;
}

/** Checks every block in one program; returns the problems of each, by block, as `file:line: message`. */
export function typecheckBlocks(blocks: readonly CodeBlock[]): Map<CodeBlock, string[]> {
  const options = projectOptions();
  const sources = new Map(blocks.map((block) => [virtualPath(block), block]));
  const host = ts.createCompilerHost(options, true);
  const { fileExists, readFile, getSourceFile } = host;
  host.fileExists = (name) => sources.has(name) || fileExists.call(host, name);
  host.readFile = (name) => sources.get(name)?.text ?? readFile.call(host, name);
  host.getSourceFile = (name, languageVersion, ...rest) => {
    const block = sources.get(name);
    return block
      ? ts.createSourceFile(name, block.text, languageVersion, true)
      : getSourceFile.call(host, name, languageVersion, ...rest);
  };
  const program = ts.createProgram({ rootNames: [...sources.keys()], options, host });
  const problems = new Map<CodeBlock, string[]>();
  for (const [name, block] of sources) {
    const sourceFile = program.getSourceFile(name);
    if (!sourceFile) throw new Error(`The block at ${block.file}:${block.line} was not compiled.`);
    const diagnostics = [
      ...program.getSyntacticDiagnostics(sourceFile),
      ...program.getSemanticDiagnostics(sourceFile),
    ];
    problems.set(
      block,
      diagnostics.map((d) => {
        const at =
          d.start === undefined ? 0 : sourceFile.getLineAndCharacterOfPosition(d.start).line;
        const message = ts.flattenDiagnosticMessageText(d.messageText, ' ');
        return `${block.file}:${block.origin[at] ?? block.line}: TS${d.code} ${message}`;
      }),
    );
  }
  return problems;
}
