/**
 * The `@example`s of the source's doc comments, as the reference shows them, and the functions
 * and classes each entry point exports. An example is a fenced ` ```ts ` block inside an
 * `@example` tag; its lines are credited to the source file's own lines.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { type CodeBlock, typescriptBlocks } from './_markdown.ts';
import { root } from './_site.ts';

/** An `@example` of one doc comment: its blocks, or where it has none (not fenced as code). */
export interface SourceExample {
  file: string;
  /** The 1-based line of the `@example` tag. */
  line: number;
  /** The 1-based line of its doc comment's `/**`. */
  comment: number;
  blocks: CodeBlock[];
}

/** Every `@example` tag of one source file's doc comments. */
export function sourceExamples(file: string, source: string): SourceExample[] {
  const examples: SourceExample[] = [];
  for (const comment of source.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const first = source.slice(0, comment.index).split('\n').length; // 1-based line of `/**`
    // The comment's lines without their ` * ` margin, each with its line in the file.
    const lines = comment[0].split('\n').map((text, i) => ({
      text: text
        .replace(/^\s*\/\*\*\s?/, '')
        .replace(/\s*\*\/\s*$/, '')
        .replace(/^\s*\* ?/, ''),
      line: first + i,
    }));
    for (let i = 0; i < lines.length; i++) {
      if (!/^@example\b/.test(lines[i]!.text)) continue;
      let end = i + 1;
      let fenced = false;
      while (end < lines.length && (fenced || !/^@\w/.test(lines[end]!.text))) {
        if (/^\s*```/.test(lines[end]!.text)) fenced = !fenced;
        end++;
      }
      const tag = lines.slice(i, end);
      const markdown = [
        tag[0]!.text.replace(/^@example\s*/, ''),
        ...tag.slice(1).map((l) => l.text),
      ];
      const blocks = typescriptBlocks(file, markdown.join('\n')).map((block) => ({
        ...block,
        line: tag[block.line - 1]!.line,
        origin: block.origin.map((n) => tag[Math.min(n, tag.length) - 1]!.line),
      }));
      examples.push({ file, line: tag[0]!.line, comment: first, blocks });
      i = end - 1;
    }
  }
  return examples;
}

/** Every `.ts` file under `src`, relative to the repository root. */
export function sourceFiles(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name.endsWith('.ts')) found.push(relative(root, path).replace(/\\/g, '/'));
    }
  };
  walk(join(root, 'src'));
  return found.sort();
}

/** A function or class an entry point exports as a value, with its doc comment. */
export interface PublicExport {
  /** The entry point's import path (`api-conventions/fetch`). */
  module: string;
  name: string;
  /** Where it is declared, and the doc comment above its declaration (or ''). */
  file: string;
  doc: string;
}

/** What the entry points make public, as the reference shows it. */
export interface PublicApi {
  /** The functions and classes exported as values (not `export type`). */
  exports: PublicExport[];
  /**
   * The doc comments the reference shows, as `file:line` of their `/**`: those of every export
   * and of the members of exported classes and interfaces.
   */
  comments: Set<string>;
}

/** The doc comment just above `node` (its last `/** … *\/`), with the line it starts on. */
function docOf(node: ts.Node): { text: string; line: number } | undefined {
  const sourceFile = node.getSourceFile();
  const text = sourceFile.getFullText();
  const range = (ts.getLeadingCommentRanges(text, node.getFullStart()) ?? [])
    .filter((r) => text.slice(r.pos, r.pos + 3) === '/**')
    .at(-1);
  if (range === undefined) return undefined;
  return {
    text: text.slice(range.pos, range.end),
    line: sourceFile.getLineAndCharacterOfPosition(range.pos).line + 1,
  };
}

/** Reads the entry points' exports with the project's compiler settings. */
export function publicApi(entryPoints: Record<string, string>): PublicApi {
  const configPath = join(root, 'tsconfig.json');
  const { config } = ts.readConfigFile(configPath, ts.sys.readFile);
  const options = ts.parseJsonConfigFileContent(config, ts.sys, root).options;
  const program = ts.createProgram(
    Object.values(entryPoints).map((file) => join(root, file)),
    options,
  );
  const checker = program.getTypeChecker();
  const exports: PublicExport[] = [];
  const comments = new Set<string>();
  const fileOf = (node: ts.Node) =>
    relative(root, node.getSourceFile().fileName).replace(/\\/g, '/');
  const note = (node: ts.Node) => {
    const doc = docOf(node);
    if (doc) comments.add(`${fileOf(node)}:${doc.line}`);
  };
  for (const [module, file] of Object.entries(entryPoints)) {
    const sourceFile = program.getSourceFile(join(root, file));
    const moduleSymbol = sourceFile && checker.getSymbolAtLocation(sourceFile);
    if (moduleSymbol === undefined) throw new Error(`No module at ${file}.`);
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      for (const declaration of symbol.declarations ?? []) {
        note(declaration);
        if (ts.isClassDeclaration(declaration) || ts.isInterfaceDeclaration(declaration)) {
          for (const member of declaration.members) note(member);
        }
      }
      const spec = exported.declarations?.[0];
      const typeOnly =
        spec !== undefined &&
        ts.isExportSpecifier(spec) &&
        (spec.isTypeOnly || spec.parent.parent.isTypeOnly);
      if (typeOnly || !(symbol.flags & (ts.SymbolFlags.Function | ts.SymbolFlags.Class))) continue;
      const declaration = symbol.declarations?.[0];
      if (declaration === undefined) continue;
      exports.push({
        module,
        name: exported.name,
        file: fileOf(declaration),
        doc: docOf(declaration)?.text ?? '',
      });
    }
  }
  return { exports, comments };
}

/** Reads a source file of the repository. */
export const readSource = (file: string) => readFileSync(join(root, file), 'utf8');
