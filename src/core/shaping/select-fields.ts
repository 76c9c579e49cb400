/** Field selection (spec 2.10): `fields=id,title,author(name)` parsed once, checked, applied fast. */
import { ErrorCode } from '../errors/catalogue.ts';
import { type FieldProblem, invalidRequest } from '../errors/helpers.ts';
import { compiled, compilesCode } from '../internal/platform.ts';

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

/**
 * Keeps the selected fields of a value: of an object, of each object of an array, nested
 * selections applied inside. Values that are not objects, and `Date`s, are kept as they are.
 *
 * @category Payloads
 */
export function project(value: unknown, fields: readonly SelectedField[]): unknown {
  if (typeof value !== 'object' || value === null || value instanceof Date) return value;
  if (Array.isArray(value)) {
    const out = new Array(value.length);
    for (let i = 0; i < value.length; i++) out[i] = project(value[i], fields);
    return out;
  }
  return projectObject(value as Record<string, unknown>, fields);
}

/** {@link project} of one object. */
function projectObject(
  value: Readonly<Record<string, unknown>>,
  fields: readonly SelectedField[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (let i = 0; i < fields.length; i++) {
    const { key, sub } = fields[i]!;
    const v = value[key];
    if (v === undefined) continue;
    const kept = sub === undefined || typeof v !== 'object' || v === null ? v : project(v, sub);
    // An assignment to `__proto__` would set the copy's prototype instead of a member.
    if (key === '__proto__') {
      Object.defineProperty(out, key, {
        value: kept,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    } else {
      out[key] = kept;
    }
  }
  return out;
}

/**
 * {@link project} for one selection, compiled once: what the payloads plugin runs per item. The
 * second argument, for a projector made with a trailing member, is that member's value.
 */
export type Projector = (value: unknown, trailing?: unknown) => unknown;

interface Projectors {
  plain?: Projector;
  links?: Projector;
}

const projectors = new WeakMap<readonly SelectedField[], Projectors>();

/**
 * The projector of a selection, made on first use and kept while the selection lives (the
 * resource keeps its selections). Same results as {@link project}, but for a member whose value
 * is `undefined`, which may be kept as `undefined` (JSON, XML and the schemas read it as absent).
 * With `trailing` (the payloads plugin's `links`), an object's copy ends with that member, set
 * to the projector's second argument.
 *
 * Where the runtime compiles code (`compilesCode`), each object is copied by a function
 * generated once from the selection's names, one object literal: V8 gives every copy the same
 * shape, with room for the trailing member, for about a quarter of the time of a member-by-member
 * copy (which also gives the copy a slow shape when a member is added afterwards). The names are
 * the resource's (never a request's) and are written as JSON string literals. Elsewhere an object
 * whose own enumerable keys are the selection's, in its order, is copied whole by
 * `Object.assign`, and any other member by member.
 */
export function projectorOf(fields: readonly SelectedField[], trailing?: 'links'): Projector {
  let found = projectors.get(fields);
  if (found === undefined) {
    found = {};
    projectors.set(fields, found);
  }
  const slot = trailing === undefined ? 'plain' : 'links';
  let projector = found[slot];
  if (projector === undefined) {
    projector = compileProjector(fields, trailing);
    found[slot] = projector;
  }
  return projector;
}

type Copier = (
  value: Readonly<Record<string, unknown>>,
  trailing: unknown,
) => Record<string, unknown>;

/**
 * One object literal copying `fields` (each nested selection through its projector) and then
 * `trailing`: `undefined` where code cannot be compiled, or a name is `__proto__`, which in a
 * literal would set the prototype instead of a member.
 */
function literalCopier(fields: readonly SelectedField[], trailing?: string): Copier | undefined {
  if (!compilesCode || fields.some((f) => f.key === '__proto__')) return undefined;
  const nested: Projector[] = [];
  const members = fields.map(({ key, sub }) => {
    const read = `v[${JSON.stringify(key)}]`;
    if (sub === undefined) return `${JSON.stringify(key)}: ${read}`;
    nested.push(projectorOf(sub));
    return `${JSON.stringify(key)}: n[${nested.length - 1}](${read})`;
  });
  if (trailing !== undefined) members.push(`${JSON.stringify(trailing)}: t`);
  return compiled<Copier>(['n'], `"use strict"; return (v, t) => ({ ${members.join(', ')} });`, [
    nested,
  ]);
}

function compileProjector(fields: readonly SelectedField[], trailing?: string): Projector {
  const copier = literalCopier(fields, trailing);
  let one: (value: Record<string, unknown>, extra: unknown) => Record<string, unknown>;
  if (copier !== undefined) {
    one = copier;
  } else {
    const names = fields.map((f) => f.key);
    // The members with a selection inside, each with its own projector.
    const nested = fields.flatMap((f) =>
      f.sub === undefined ? [] : [{ key: f.key, project: projectorOf(f.sub) }],
    );
    // Object.assign sets members one by one: `__proto__` would set the copy's prototype.
    const copies = !names.includes('__proto__');
    // A row whose own keys are the selection's, in order, copied whole then projected inside.
    const whole = (value: Record<string, unknown>): Record<string, unknown> | undefined => {
      const own = Object.keys(value);
      if (!copies || own.length !== names.length) return undefined;
      for (let i = 0; i < own.length; i++) if (own[i] !== names[i]) return undefined;
      const out = Object.assign({}, value);
      for (const { key, project } of nested) {
        const v = out[key];
        if (typeof v === 'object' && v !== null) out[key] = project(v);
      }
      return out;
    };
    one = (value, extra) => {
      const out = whole(value) ?? projectObject(value, fields);
      if (trailing !== undefined) out[trailing] = extra;
      return out;
    };
  }
  const projector: Projector = (value, extra) => {
    if (typeof value !== 'object' || value === null || value instanceof Date) return value;
    if (Array.isArray(value)) {
      const out = new Array(value.length);
      for (let i = 0; i < value.length; i++) out[i] = projector(value[i], extra);
      return out;
    }
    return one(value as Record<string, unknown>, extra);
  };
  return projector;
}

/**
 * Selects fields of a value by a `fields` string, checked against the fields there are: the
 * one-call form of parsing the string, checking it and projecting the value. Unknown fields are a 400
 * naming each. Routes declare a resource instead (see [Fields, views and links](../../../docs/shaping.md)), which parses each
 * distinct `fields` value once.
 *
 * @example
 * ```ts
 * import { selectFields } from 'api-conventions';
 *
 * const book = { id: 'emma', title: 'Emma', author: { name: 'Jane Austen', born: 1775 } };
 * selectFields(book, 'id,author(name)', { id: true, title: true, author: { name: true } });
 * // { id: 'emma', author: { name: 'Jane Austen' } }
 * ```
 *
 * @category Payloads
 */
export function selectFields(value: unknown, fields: string, allowed: FieldTree): unknown {
  const problems: FieldProblem[] = [];
  const selection = compileSelection(parseFields(fields), allowed, problems, 'the resource');
  if (problems.length > 0) throw invalidRequest(problems);
  return project(value, selection);
}
