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

/**
 * The folder a file of src stands for in the folder graph: `core/<name>` under src/core, the
 * top folder elsewhere (`adapters`, `otel`…); `core` for src/core/index.ts and `.` for the
 * entry files at src's root.
 */
function folderOf(file: string): string {
  const parts = file.split('/').slice(0, -1);
  if (parts[0] === 'core') return parts.slice(0, 2).join('/');
  return parts[0] ?? '.';
}

/** The folder graph: each folder, the folders its files name, and one file edge per folder edge. */
function folderGraph(files: ReadonlyMap<string, readonly string[]>): {
  graph: Map<string, string[]>;
  through: Map<string, string>;
} {
  const graph = new Map<string, string[]>();
  const through = new Map<string, string>();
  for (const file of [...files.keys()].sort()) {
    const from = folderOf(file);
    if (!graph.has(from)) graph.set(from, []);
    for (const target of [...(files.get(file) ?? [])].sort()) {
      const to = folderOf(target);
      if (to === from) continue;
      const edge = `${from} → ${to}`;
      if (through.has(edge)) continue;
      through.set(edge, `${file} → ${target}`);
      graph.get(from)!.push(to);
    }
  }
  return { graph, through };
}

/** A folder cycle as a sentence, each arrow with a file import that makes it. */
function nameFolderCycle(cycle: readonly string[], through: ReadonlyMap<string, string>): string {
  const steps = cycle.slice(1).map((to, i) => {
    const edge = `${cycle[i]} → ${to}`;
    return `${edge} (${through.get(edge) ?? '?'})`;
  });
  return steps.join(', ');
}

/**
 * The layers of src/core as CONTRIBUTING.md lists them, lowest first: each numbered item of its
 * "Layers of the core" section names its folders in backticks before the dash that starts its
 * description.
 */
function contributingLayers(text: string): string[][] {
  const section = text.split(/^### Layers of the core$/m)[1]?.split(/^#{2,3} /m)[0] ?? '';
  const items = section.split(/^\d+\. /m).slice(1);
  return items.map((item) => {
    const names = item.replace(/\s+/g, ' ').split(' — ')[0] ?? '';
    return [...names.matchAll(/`([a-z-]+)`/g)].map((match) => `core/${match[1]}`);
  });
}

/** The layer of CONTRIBUTING.md's list that holds the features: they may import each other. */
const featureLayer = (layers: readonly string[][]): number =>
  layers.findIndex((layer) => layer.includes('core/caching'));

describe('src import graph', () => {
  const graph = importGraph();

  it('has no import circle, type-only imports included', () => {
    const cycles = findCycles(graph).map((cycle) => cycle.join(' → '));
    expect(cycles).toEqual([]);
  });

  it('has no folder circle: the folders of src depend on each other in one direction', () => {
    const { graph: folders, through } = folderGraph(graph);
    const cycles = findCycles(folders).map((cycle) => nameFolderCycle(cycle, through));
    expect(cycles).toEqual([]);
  });

  it("keeps each folder of src/core to the layers below its own, as CONTRIBUTING.md's list orders them", () => {
    const layers = contributingLayers(readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8'));
    const features = featureLayer(layers);
    const layerOf = new Map(layers.flatMap((layer, i) => layer.map((folder) => [folder, i])));
    const { graph: folders, through } = folderGraph(graph);
    const core = [...folders.keys()].filter((folder) => folder.startsWith('core/')).sort();
    expect(features).toBeGreaterThan(0);
    expect(core.filter((folder) => !layerOf.has(folder))).toEqual([]);
    expect([...layerOf.keys()].filter((folder) => !folders.has(folder))).toEqual([]);
    const upward = core.flatMap((from) =>
      (folders.get(from) ?? [])
        .filter((to) => {
          const [a, b] = [layerOf.get(from)!, layerOf.get(to)];
          return b === undefined || b > a || (b === a && a !== features);
        })
        .map((to) => through.get(`${from} → ${to}`)),
    );
    expect(upward).toEqual([]);
  });

  it('keeps the kernel to the folders below it: no feature, not the pipeline', () => {
    const layers = contributingLayers(readFileSync(join(root, 'CONTRIBUTING.md'), 'utf8'));
    const below = layers.slice(
      0,
      layers.findIndex((layer) => layer.includes('core/kernel')),
    );
    const allowed = new Set(['core/kernel', ...below.flat()]);
    const reached = [...graph]
      .filter(([file]) => file.startsWith('core/kernel/'))
      .flatMap(([file, targets]) =>
        targets.filter((t) => !allowed.has(folderOf(t))).map((t) => `${file} → ${t}`),
      );
    expect(below.flat()).toContain('core/errors');
    expect(graph.has('core/kernel/context.ts')).toBe(true);
    expect(reached).toEqual([]);
  });

  it('keeps kernel/route-types.ts free of imports (features add their settings by declaration merging)', () => {
    expect(graph.has('core/kernel/route-types.ts')).toBe(true);
    expect(graph.get('core/kernel/route-types.ts')).toEqual([]);
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

  it('names a folder circle by the file imports that make it', () => {
    const { graph: folders, through } = folderGraph(
      new Map([
        ['core/routing/router.ts', ['core/kernel/context.ts']],
        ['core/kernel/context.ts', ['core/kernel/run.ts']],
        ['core/kernel/run.ts', ['core/routing/types.ts']],
        ['core/routing/types.ts', []],
        ['core/index.ts', ['core/kernel/context.ts']],
      ]),
    );
    expect(findCycles(folders).map((cycle) => nameFolderCycle(cycle, through))).toEqual([
      'core/kernel → core/routing (core/kernel/run.ts → core/routing/types.ts), ' +
        'core/routing → core/kernel (core/routing/router.ts → core/kernel/context.ts)',
    ]);
  });

  it("reads CONTRIBUTING.md's layers, lowest first", () => {
    const text = [
      '### Layers of the core',
      '',
      '1. `internal` — helpers',
      '2. `paths`, `origin` — plain rules (`ctx.path`)',
      '3. The features: `caching`,',
      '   `paging` — each in one direction',
      '',
      '## Next',
      '1. `host` — not a layer',
    ].join('\n');
    const layers = contributingLayers(text);
    expect(layers).toEqual([
      ['core/internal'],
      ['core/paths', 'core/origin'],
      ['core/caching', 'core/paging'],
    ]);
    expect(featureLayer(layers)).toBe(2);
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
