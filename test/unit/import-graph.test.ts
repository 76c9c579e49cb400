import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
const src = join(root, 'src');

/** Every .ts file under `dir`, as paths relative to src. */
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [relative(src, path)] : [];
  });
}

/**
 * The relative module specifiers a file names: imports and re-exports (type-only included),
 * `import('…')` types and calls, and `declare module '…'` augmentations.
 */
function relativeSpecifiers(text: string, name = 'file.ts'): string[] {
  const file = ts.createSourceFile(name, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TS);
  const found: string[] = [];
  const note = (node: ts.Node | undefined) => {
    if (node && ts.isStringLiteralLike(node) && node.text.startsWith('.')) found.push(node.text);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) note(node.moduleSpecifier);
    else if (
      ts.isImportEqualsDeclaration(node) &&
      ts.isExternalModuleReference(node.moduleReference)
    )
      note(node.moduleReference.expression);
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument))
      note(node.argument.literal);
    else if (ts.isModuleDeclaration(node)) note(node.name);
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword)
      note(node.arguments[0]);
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

/** Whether a file augments a module of src (`declare module './…'`): a route-config file, say. */
function augmentsRelative(text: string): boolean {
  const file = ts.createSourceFile(
    'file.ts',
    text,
    ts.ScriptTarget.Latest,
    false,
    ts.ScriptKind.TS,
  );
  return file.statements.some(
    (s) => ts.isModuleDeclaration(s) && ts.isStringLiteral(s.name) && s.name.text.startsWith('.'),
  );
}

/** The files reachable from `start` through relative references. */
function reachable(graph: ReadonlyMap<string, readonly string[]>, start: string): Set<string> {
  const seen = new Set([start]);
  for (const file of seen) for (const next of graph.get(file) ?? []) seen.add(next);
  return seen;
}

/** src's import graph: each file (relative to src) and the src files it names. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(src)) {
    const text = readFileSync(join(src, file), 'utf8');
    const targets = relativeSpecifiers(text, file).map((specifier) =>
      relative(src, resolve(dirname(join(src, file)), specifier)),
    );
    graph.set(file, [...new Set(targets)]);
  }
  return graph;
}

/** One cycle per strongly connected component of more than one file (Tarjan), as a path. */
function findCycles(graph: ReadonlyMap<string, readonly string[]>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const connect = (node: string): void => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!index.has(next)) {
        connect(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(node, Math.min(low.get(node)!, index.get(next)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    const selfLoop = graph.get(node)?.includes(node) ?? false;
    if (component.length > 1 || selfLoop) components.push(component);
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) connect(node);
  return components.map((component) => cycleWithin(graph, new Set(component)));
}

/** A shortest cycle through the component's first file (in name order), as a path back to it. */
function cycleWithin(
  graph: ReadonlyMap<string, readonly string[]>,
  members: Set<string>,
): string[] {
  const start = [...members].sort()[0]!;
  const previous = new Map<string, string>();
  const queue = [start];
  for (let i = 0; i < queue.length; i++) {
    const node = queue[i]!;
    for (const next of graph.get(node) ?? []) {
      if (!members.has(next)) continue;
      if (next === start) {
        const path = [node];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start];
      }
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return [start, start];
}

describe('src import graph', () => {
  const graph = importGraph();

  it('has no import circle, type-only imports included', () => {
    const cycles = findCycles(graph).map((cycle) => cycle.join(' → '));
    expect(cycles).toEqual([]);
  });

  it('keeps routing/types.ts free of imports outside src/core/routing (features add their settings by declaration merging)', () => {
    const outside = (graph.get('core/routing/types.ts') ?? []).filter(
      (target) => !target.startsWith('core/routing/'),
    );
    expect(graph.has('core/routing/types.ts')).toBe(true);
    expect(outside).toEqual([]);
  });

  // A merge in a file nothing imports would be missing from every program and from the built
  // types, so its settings would type-check nowhere.
  it('reaches every file that adds to RouteConfig or RequestState from the core entry', () => {
    const fromCore = reachable(graph, 'core/index.ts');
    const augmenting = [...graph.keys()].filter(
      (file) => file.startsWith('core/') && augmentsRelative(readFileSync(join(src, file), 'utf8')),
    );
    expect(augmenting.length).toBeGreaterThanOrEqual(10);
    expect(augmenting.filter((file) => !fromCore.has(file))).toEqual([]);
  });

  it('reads every kind of relative reference, type-only and augmentations included', () => {
    const text = [
      "import type { A } from './a.ts';",
      "import { type B } from '../b.ts';",
      "export * from './c.ts';",
      "export type { D } from './d.ts';",
      "let e: import('./e.ts').E;",
      "declare module './f.ts' { interface F { x?: number } }",
      "const g = await import('./g.ts');",
      "import 'node:fs'; import x from 'pkg';",
      "// import { H } from './h.ts';",
      "/** import { I } from './i.ts' */",
    ].join('\n');
    expect(relativeSpecifiers(text)).toEqual([
      './a.ts',
      '../b.ts',
      './c.ts',
      './d.ts',
      './e.ts',
      './f.ts',
      './g.ts',
    ]);
  });

  it('finds a cycle and names it as a path', () => {
    const cycles = findCycles(
      new Map([
        ['a.ts', ['b.ts']],
        ['b.ts', ['c.ts', 'd.ts']],
        ['c.ts', ['a.ts']],
        ['d.ts', []],
        ['e.ts', ['e.ts']],
      ]),
    );
    expect(cycles).toEqual([
      ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
      ['e.ts', 'e.ts'],
    ]);
  });
});
