/** Field selection (spec 2.10): `fields=id,title,author(name)` parsed once, checked, applied fast. */
import { ErrorCode } from '../errors/catalogue.ts';
import { type FieldProblem, invalidRequest } from '../errors/helpers.ts';

/**
 * The fields of a resource a client may select: `true` for a value taken whole, a nested tree
 * for an object (or a list of objects) whose own fields may be selected.
 *
 * @example
 * ```ts
 * import type { FieldTree } from 'api-conventions';
 * const book: FieldTree = { id: true, title: true, author: { id: true, name: true } };
 * ```
 *
 * @category Payloads
 */
export interface FieldTree {
  readonly [field: string]: true | FieldTree;
}

/**
 * One requested field, as `fields` writes it: a name, and the fields selected inside it.
 *
 * @category Payloads
 */
export interface FieldRequest {
  /** The field's name. */
  readonly name: string;
  /** The fields selected inside it (`author(name)`), or `undefined` for the whole value. */
  readonly fields: readonly FieldRequest[] | undefined;
}

/**
 * One field of a compiled selection: its name and the selection inside it.
 *
 * @category Payloads
 */
export interface SelectedField {
  /** The field's name. */
  readonly key: string;
  /** The fields kept inside it; `undefined` for a value taken whole. */
  readonly sub: readonly SelectedField[] | undefined;
}

const maxLength = 2048;
const maxDepth = 8;
const namePattern = /[A-Za-z_][A-Za-z0-9_]*/y;

function malformed(at: number, what: string): never {
  throw invalidRequest([
    {
      message: `The query parameter "fields" is not a selection such as id,title,author(name): ${what} at character ${at + 1}.`,
      code: ErrorCode.MalformedFields,
    },
  ]);
}

/**
 * Parses a `fields` value (`id,title,author(name)`) into its requested fields. A malformed value
 * (empty names, unbalanced parentheses, nesting deeper than 8, longer than 2048 characters) is a
 * 400 that says where it went wrong.
 *
 * @category Payloads
 */
export function parseFields(text: string): FieldRequest[] {
  // Cost: linear in the value (each character read once), at most 2048 characters and 8 levels.
  if (text.length > maxLength) malformed(maxLength, `longer than ${maxLength} characters`);
  let at = 0;
  const list = (depth: number): FieldRequest[] => {
    if (depth > maxDepth) malformed(at, `nested deeper than ${maxDepth} levels`);
    const out: FieldRequest[] = [];
    for (;;) {
      namePattern.lastIndex = at;
      const match = namePattern.exec(text);
      if (match === null) malformed(at, 'a field name is expected');
      at = namePattern.lastIndex;
      let fields: FieldRequest[] | undefined;
      if (text[at] === '(') {
        at++;
        fields = list(depth + 1);
        if (text[at] !== ')') malformed(at, '")" is expected');
        at++;
      }
      out.push({ name: match[0], fields });
      if (text[at] !== ',') return out;
      at++;
    }
  };
  const fields = list(1);
  if (at !== text.length) malformed(at, `"${text[at]}" is not expected`);
  return fields;
}

/** Every field of a tree, nested trees taken whole with all their own fields. */
export function wholeTree(tree: FieldTree): SelectedField[] {
  return Object.keys(tree).map((key) => {
    const sub = tree[key]!;
    return { key, sub: sub === true ? undefined : wholeTree(sub) };
  });
}

/**
 * Checks requested fields against the fields there are (`allowed`, in its order) and compiles
 * them; each unknown field, named with its path (`author.email`), is added to `problems`.
 * `extra` names fields outside the tree the caller handles itself (`links`). The result follows
 * the tree's order, whatever order the request used, and a field requested twice is kept once.
 */
export function compileSelection(
  requested: readonly FieldRequest[],
  allowed: FieldTree,
  problems: FieldProblem[],
  where: string,
  prefix = '',
): SelectedField[] {
  // Cost: linear in the requested fields (a field named n times is merged into one list, not
  // copied n times), plus the tree's names in each unknown field's message.
  const wanted = new Map<string, FieldRequest>();
  // The lists this call built by merging, so they can grow in place.
  const merged = new Set<FieldRequest[]>();
  for (const field of requested) {
    const rule = Object.hasOwn(allowed, field.name) ? allowed[field.name] : undefined;
    if (rule === undefined) {
      problems.push({
        message: `The field "${prefix}${field.name}" is not one ${where} has; it has ${Object.keys(
          allowed,
        )
          .map((k) => `${prefix}${k}`)
          .join(', ')}.`,
        code: ErrorCode.UnknownSelectedField,
      });
    } else if (rule === true && field.fields !== undefined) {
      problems.push({
        message: `The field "${prefix}${field.name}" has no fields of its own to select.`,
        code: ErrorCode.UnknownSelectedField,
      });
    } else {
      const before = wanted.get(field.name);
      // `a,a(b)` keeps the whole value: the wider request wins.
      if (before === undefined || (before.fields !== undefined && field.fields === undefined)) {
        wanted.set(field.name, field);
      } else if (before.fields !== undefined && field.fields !== undefined) {
        let fields = before.fields as FieldRequest[];
        if (!merged.has(fields)) {
          fields = [...before.fields];
          merged.add(fields);
          wanted.set(field.name, { name: field.name, fields });
        }
        for (const sub of field.fields) fields.push(sub);
      }
    }
  }
  const out: SelectedField[] = [];
  for (const key of Object.keys(allowed)) {
    const field = wanted.get(key);
    if (field === undefined) continue;
    const rule = allowed[key]!;
    out.push({
      key,
      sub:
        rule === true
          ? undefined
          : field.fields === undefined
            ? wholeTree(rule)
            : compileSelection(field.fields, rule, problems, where, `${prefix}${key}.`),
    });
  }
  return out;
}

/** A selection as a tree of the fields it keeps, so that `fields` can be checked within a view. */
export function selectionTree(fields: readonly SelectedField[]): FieldTree {
  const tree: Record<string, true | FieldTree> = {};
  for (const { key, sub } of fields) tree[key] = sub === undefined ? true : selectionTree(sub);
  return tree;
}
