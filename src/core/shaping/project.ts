/** Field selection applied: the selected fields of a value, by a projector made once per selection. */
import { type FieldProblem, invalidRequest } from '../errors/helpers.ts';
import { compiled, compilesCode } from '../internal/platform.ts';
import {
  compileSelection,
  type FieldTree,
  parseFields,
  type SelectedField,
} from './select-fields.ts';

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
