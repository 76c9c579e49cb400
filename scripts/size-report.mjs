// Lists the source files over 200 lines and the functions over 80 lines (CONTRIBUTING.md rule 2),
// with the TypeScript compiler's own parse, so a regular expression or a brace in a string does
// not miscount. Each figure is given twice: every line, and the lines of code alone (comments and
// blank lines left out), because a long TSDoc does not make a file long.
//
//   node scripts/size-report.mjs [--code] [--file-lines N] [--function-lines N] [dir …]
//
// Directories default to src. `--code` applies the limits to lines of code instead of every line.
// A report, not a check: it always exits 0.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const args = process.argv.slice(2);
const limits = { file: 200, fn: 80 };
let byCode = false;
const dirs = [];
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--code') byCode = true;
  else if (arg === '--file-lines') limits.file = Number(args[++i]);
  else if (arg === '--function-lines') limits.fn = Number(args[++i]);
  else if (arg.startsWith('--')) throw new TypeError(`size-report: unknown option ${arg}`);
  else dirs.push(arg);
}
if (dirs.length === 0) dirs.push('src');

/** Every .ts file under `dir` but declaration files. */
function sourceFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const isJsDoc = (node) =>
  node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode;

/** The 0-based lines that hold a token: every line but blank ones and those of comments alone. */
function codeLines(file) {
  const lines = new Set();
  const visit = (node) => {
    if (isJsDoc(node) || node.kind === ts.SyntaxKind.EndOfFileToken) return;
    const children = node.getChildren(file);
    if (children.length > 0) {
      for (const child of children) visit(child);
      return;
    }
    const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
    const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
    for (let line = first; line <= last; line++) lines.add(line);
  };
  visit(file);
  return lines;
}

/** A readable name for a function-like node: its own, or what it is assigned or passed to. */
function nameOf(node, file) {
  if (ts.isConstructorDeclaration(node)) return `${nameOf(node.parent, file)} constructor`;
  if (node.name) {
    const own = node.name.getText(file);
    const owner = node.parent && ts.isClassLike(node.parent) ? node.parent.name?.text : undefined;
    return owner ? `${owner}.${own}` : own;
  }
  const parent = node.parent;
  if (parent && (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent)))
    return parent.name.getText(file);
  if (parent && ts.isPropertyDeclaration(parent)) return parent.name.getText(file);
  if (parent && ts.isCallExpression(parent))
    return `callback of ${parent.expression.getText(file).slice(0, 40)}`;
  return '(anonymous)';
}

const isFunctionLike = (node) =>
  ts.isFunctionDeclaration(node) ||
  ts.isMethodDeclaration(node) ||
  ts.isArrowFunction(node) ||
  ts.isFunctionExpression(node) ||
  ts.isConstructorDeclaration(node) ||
  ts.isGetAccessorDeclaration(node) ||
  ts.isSetAccessorDeclaration(node);

const files = [];
const functions = [];
for (const dir of dirs) {
  for (const path of sourceFiles(dir)) {
    const text = readFileSync(path, 'utf8');
    const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
    const code = codeLines(file);
    const name = relative(process.cwd(), path);
    const total = file.getLineAndCharacterOfPosition(text.trimEnd().length).line + 1;
    files.push({ name, lines: total, code: code.size });
    const visit = (node) => {
      if (isFunctionLike(node) && node.body) {
        // From the signature (its TSDoc left out) to the closing brace.
        const first = file.getLineAndCharacterOfPosition(node.getStart(file)).line;
        const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
        let inCode = 0;
        for (let line = first; line <= last; line++) if (code.has(line)) inCode++;
        functions.push({
          name: nameOf(node, file),
          at: `${name}:${first + 1}`,
          lines: last - first + 1,
          code: inCode,
        });
      }
      ts.forEachChild(node, visit);
    };
    visit(file);
  }
}

const measure = (entry) => (byCode ? entry.code : entry.lines);
const byMeasure = (a, b) => measure(b) - measure(a) || a.name.localeCompare(b.name);
const longFiles = files.filter((f) => measure(f) > limits.file).sort(byMeasure);
const longFunctions = functions.filter((f) => measure(f) > limits.fn).sort(byMeasure);
const basis = byCode ? 'lines of code' : 'lines';
const row = (entry, label) =>
  `${String(entry.lines).padStart(6)} ${String(entry.code).padStart(6)}  ${label}`;

console.log(`Files over ${limits.file} ${basis}: ${longFiles.length} of ${files.length}`);
console.log(' lines   code  file');
for (const f of longFiles) console.log(row(f, f.name));
console.log('');
console.log(`Functions over ${limits.fn} ${basis}: ${longFunctions.length} of ${functions.length}`);
console.log(' lines   code  function');
for (const f of longFunctions) console.log(row(f, `${f.at}  ${f.name}`));
