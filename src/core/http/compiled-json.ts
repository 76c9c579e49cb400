/**
 * JSON writers compiled at start-up from a response's JSON Schema (issue 22). The built-in
 * `JSON.stringify` writes strings, numbers and plain objects faster than any JavaScript can, and
 * its text is flat, ready for the socket; what makes it slow on Node 20 is a `Date`, whose
 * `toJSON` it calls back in JavaScript. So the schema is used to find where instants are (the
 * `date-time` strings it names) and nothing else: a compiled replacer visits only those places,
 * puts each `Date` found there in its text (what its built-in `toJSON` returns, from a table of
 * recent instants), copying only the objects and arrays on the way to one, and the built-in
 * writes the result. Replacing a `Date` by what its `toJSON` returns changes nothing in the text,
 * wherever it is; so the text is always exactly `JSON.stringify`'s, whatever the value, and the
 * schema only decides how fast. Where the runtime compiles code, each object's replacer is a
 * function generated once from the schema's member names (written as JSON string literals),
 * which reads each member by its name; elsewhere (Workers) closures do the same. The handler's
 * value is never changed.
 */
import { compiled, compilesCode } from '../internal/platform.ts';
import { dateText, dateToJSON, stringifyJson } from './json.ts';

/** A value with the `Date`s a schema foresees replaced: the value itself when none was found. */
type Replacer = (value: unknown) => unknown;

type Schema = Record<string, unknown>;

/** Deeper than this, nothing is looked at (no response schema nests further). */
const maxDepth = 32;

const { getPrototypeOf } = Object;

// spec 2.6: a date-time member is most often a `Date`, written as its built-in toJSON writes it.
const replaceDate: Replacer = (value) =>
  value instanceof Date && value.toJSON === dateToJSON ? dateText(value) : value;

/**
 * A plain object's members: those the schema says may hold an instant are replaced, in a copy
 * made at the first change. Only own enumerable members are written by JSON.stringify, so only
 * those are replaced: the spread copy holds exactly those, so asking the copy whether a member
 * is its own tells, far more cheaply than `propertyIsEnumerable` (a call into C++). An object
 * with a `toJSON`, or of a class, is left to the built-in.
 */
function objectReplacer(names: readonly string[], replacers: readonly Replacer[]): Replacer {
  return generatedReplacer(names, replacers) ?? closureReplacer(names, replacers);
}

/**
 * {@link objectReplacer} as one generated function: each member read by its name, an instant's
 * replacement written inline; `undefined` where code cannot be compiled. (A member is set on
 * the copy only when the spread copied it, that is when it is an own enumerable one: so even
 * `__proto__` is set as a member, never as the prototype.)
 */
function generatedReplacer(
  names: readonly string[],
  replacers: readonly Replacer[],
): Replacer | undefined {
  if (!compilesCode) return undefined;
  const members = names.map((name, i) => {
    const key = JSON.stringify(name);
    const next =
      replacers[i] === replaceDate
        ? 'x instanceof Date && x.toJSON === D ? T(x) : x'
        : `r[${i}](x)`;
    return `x = v[${key}];
if (typeof x === "object" && x !== null) {
  n = ${next};
  if (n !== x) { if (c === undefined) c = { ...v }; if (ho.call(c, ${key})) c[${key}] = n; }
}`;
  });
  const source = `"use strict";
return (v) => {
if (typeof v !== "object" || v === null || isArray(v)) return v;
const p = gp(v);
if ((p !== OP && p !== null) || "toJSON" in v) return v;
let c, x, n;
${members.join('\n')}
return c === undefined ? v : c;
};`;
  return compiled<Replacer>(['gp', 'OP', 'isArray', 'ho', 'r', 'D', 'T'], source, [
    getPrototypeOf,
    Object.prototype,
    Array.isArray,
    Object.prototype.hasOwnProperty,
    replacers,
    dateToJSON,
    dateText,
  ]);
}

/** {@link objectReplacer} as a closure, for runtimes that compile no code. */
function closureReplacer(names: readonly string[], replacers: readonly Replacer[]): Replacer {
  return (value) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    const proto = getPrototypeOf(value);
    if ((proto !== Object.prototype && proto !== null) || 'toJSON' in value) return value;
    let copy: Record<string, unknown> | undefined;
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const item = (value as Record<string, unknown>)[name];
      if (typeof item !== 'object' || item === null) continue;
      const next = replacers[i]!(item);
      if (next === item) continue;
      copy ??= { ...value };
      if (Object.hasOwn(copy, name)) copy[name] = next;
    }
    return copy ?? value;
  };
}

/** An array's items, replaced in a copy made at the first change. */
function arrayReplacer(replace: Replacer): Replacer {
  return (value) => {
    if (!Array.isArray(value) || 'toJSON' in value) return value;
    let copy: unknown[] | undefined;
    for (let i = 0; i < value.length; i++) {
      const item: unknown = value[i];
      if (typeof item !== 'object' || item === null) continue;
      const next = replace(item);
      if (next === item) continue;
      copy ??= value.slice();
      copy[i] = next;
    }
    return copy ?? value;
  };
}

/** Each replacer in turn: for a value several schemas may describe (`anyOf`, a type list). */
function inTurn(replacers: readonly Replacer[]): Replacer | undefined {
  if (replacers.length <= 1) return replacers[0];
  return (value) => {
    let out = value;
    for (const replace of replacers) out = replace(out);
    return out;
  };
}

function objectOf(properties: Schema, depth: number): Replacer | undefined {
  const names: string[] = [];
  const replacers: Replacer[] = [];
  for (const [name, schema] of Object.entries(properties)) {
    const replace = compile(schema, depth + 1);
    if (replace === undefined) continue;
    names.push(name);
    replacers.push(replace);
  }
  return names.length === 0 ? undefined : objectReplacer(names, replacers);
}

/** The replacer for values of `schema`, or `undefined` when it foresees no instant. */
function compile(schema: unknown, depth: number): Replacer | undefined {
  if (typeof schema !== 'object' || schema === null || depth > maxDepth) return undefined;
  const { type, properties, items, format, anyOf, oneOf, allOf } = schema as Schema;
  const found: Replacer[] = [];
  const types = Array.isArray(type) ? type : [type];
  if (types.includes('string') && format === 'date-time') found.push(replaceDate);
  if (types.includes('object') && typeof properties === 'object' && properties !== null) {
    const replace = objectOf(properties as Schema, depth);
    if (replace !== undefined) found.push(replace);
  }
  if (types.includes('array') && typeof items === 'object' && items !== null) {
    const replace = compile(items, depth + 1);
    if (replace !== undefined) found.push(arrayReplacer(replace));
  }
  for (const branches of [anyOf, oneOf, allOf]) {
    if (!Array.isArray(branches)) continue;
    for (const branch of branches) {
      const replace = compile(branch, depth + 1);
      if (replace !== undefined) found.push(replace);
    }
  }
  return inTurn(found);
}

/**
 * A writer of JSON text for values described by `schema` (JSON Schema 2020-12): the same text
 * as `JSON.stringify(value)` for every value, faster where the value fits the schema.
 *
 * @internal
 */
export function compileJsonWriter(schema: Record<string, unknown>): (value: unknown) => string {
  const replace = compile(schema, 0);
  if (replace === undefined) return (value) => stringifyJson(value) ?? 'null';
  return (value) => JSON.stringify(replace(value)) ?? 'null';
}
