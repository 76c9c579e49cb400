/**
 * JSON writers compiled at start-up from a response's JSON Schema (issue 22): the members the
 * schema names are written by a writer chosen once for their type (a `date-time` string from a
 * `Date` with no look-up of its `toJSON`, a string quoted without a type switch), and anything
 * the schema does not foresee (an extra member, a value of another type, a `toJSON`, a class
 * instance) by the general writer. So the text is always exactly `JSON.stringify`'s, whatever
 * the value; the schema only decides how fast. No code is generated (no `new Function`): the
 * writers are closures, which Workers and other strict runtimes allow.
 */
import { dateToJSON, quote, quotedKey, writeDate, writeMember } from './json.ts';

/** A member's writer: its JSON text under `key`, `undefined` when it is left out. */
type Writer = (value: unknown, key: string | number) => string | undefined;

/** Deeper than this, members are written by the general writer (no schema nests further). */
const maxDepth = 32;

const general: Writer = writeMember;

const stringWriter: Writer = (value, key) =>
  typeof value === 'string' ? quote(value) : writeMember(value, key);

const numberWriter: Writer = (value, key) =>
  typeof value === 'number'
    ? Number.isFinite(value)
      ? String(value)
      : 'null'
    : writeMember(value, key);

// spec 2.6: a date-time member is most often a `Date`, written as its built-in toJSON writes it.
const dateTimeWriter: Writer = (value, key) => {
  if (typeof value === 'string') return quote(value);
  if (value instanceof Date && value.toJSON === dateToJSON) return writeDate(value);
  return writeMember(value, key);
};

type Schema = Record<string, unknown>;

/** Whether Object.prototype has no enumerable member (nobody polluted it), as of this write. */
let prototypeClean = true;

function checkPrototype(): boolean {
  for (const _ in Object.prototype) return false;
  return true;
}

const isPlainObject = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value);
  return (proto === Object.prototype || proto === null) && !('toJSON' in value);
};

function objectWriter(properties: Schema, depth: number): Writer {
  const members = new Map<string, { prefix: string; write: Writer }>();
  for (const [name, schema] of Object.entries(properties)) {
    members.set(name, { prefix: quotedKey(name), write: compile(schema, depth + 1) });
  }
  return (value, key) => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      return writeMember(value, key);
    }
    if (!isPlainObject(value)) return writeMember(value, key);
    let out = '{';
    let first = true;
    // Its own enumerable keys in JSON.stringify's order (ECMA-262 EnumerableOwnProperties):
    // `for…in` walks the same keys in the same order while Object.prototype has no enumerable
    // member (checked on every write), without the array Object.keys builds.
    if (prototypeClean) {
      for (const name in value) {
        const item = (value as Record<string, unknown>)[name];
        const member = members.get(name);
        const text = member === undefined ? writeMember(item, name) : member.write(item, name);
        if (text === undefined) continue;
        out += `${first ? '' : ','}${member === undefined ? quotedKey(name) : member.prefix}${text}`;
        first = false;
      }
    } else {
      for (const name of Object.keys(value)) {
        const item = (value as Record<string, unknown>)[name];
        const member = members.get(name);
        const text = member === undefined ? writeMember(item, name) : member.write(item, name);
        if (text === undefined) continue;
        out += `${first ? '' : ','}${member === undefined ? quotedKey(name) : member.prefix}${text}`;
        first = false;
      }
    }
    return `${out}}`;
  };
}

function arrayWriter(items: Writer): Writer {
  return (value, key) => {
    if (!Array.isArray(value) || 'toJSON' in value) return writeMember(value, key);
    let out = '[';
    for (let i = 0; i < value.length; i++) {
      if (i > 0) out += ',';
      out += items(value[i], i) ?? 'null';
    }
    return `${out}]`;
  };
}

function compile(schema: unknown, depth: number): Writer {
  if (typeof schema !== 'object' || schema === null || depth > maxDepth) return general;
  const { type, properties, items, format } = schema as Schema;
  switch (type) {
    case 'object':
      return typeof properties === 'object' && properties !== null
        ? objectWriter(properties as Schema, depth)
        : general;
    case 'array':
      return typeof items === 'object' && items !== null
        ? arrayWriter(compile(items, depth + 1))
        : general;
    case 'string':
      return format === 'date-time' ? dateTimeWriter : stringWriter;
    case 'number':
    case 'integer':
      return numberWriter;
    default:
      return general;
  }
}

/**
 * A writer of JSON text for values described by `schema` (JSON Schema 2020-12): the same text
 * as `JSON.stringify(value)` for every value, faster where the value fits the schema.
 *
 * @internal
 */
export function compileJsonWriter(schema: Record<string, unknown>): (value: unknown) => string {
  const write = compile(schema, 0);
  return (value) => {
    prototypeClean = checkPrototype();
    return write(value, '') ?? 'null';
  };
}
