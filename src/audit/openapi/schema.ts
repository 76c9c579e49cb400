/**
 * A small JSON Schema validator for the schemas of an OpenAPI document (OpenAPI 3.0's subset and
 * 3.1's JSON Schema 2020-12 as far as API bodies use it), so the auditor checks a response against
 * its declared schema without a runtime dependency. What it does not know (`discriminator`,
 * `patternProperties`, remote `$ref`s) it lets pass: it may miss a mismatch, never invent one.
 * Bounded in depth and in work, so a hostile document or body cannot make it run away.
 */
import { isRfc3339 } from '../checks/dates.ts';
import { type OpenApiDocument, resolveRef } from './ref.ts';

/** A schema as far as the validator reads it. */
export type JsonSchema = Record<string, unknown>;

const maxDepth = 64;
const maxProblems = 5;

const formats: Record<string, (text: string) => boolean> = {
  'date-time': (t) => isRfc3339(t) && /[Tt]/.test(t),
  date: (t) => /^\d{4}-\d{2}-\d{2}$/.test(t) && isRfc3339(t),
  uuid: (t) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(t),
  email: (t) => /^[^\s@]+@[^\s@]+$/.test(t),
};

/** The JSON type names a value has (`integer` is a `number` too). */
function typesOf(value: unknown): string[] {
  if (value === null) return ['null'];
  if (Array.isArray(value)) return ['array'];
  if (typeof value === 'number')
    return Number.isInteger(value) ? ['integer', 'number'] : ['number'];
  return [typeof value];
}

/** Where a value sits, for a problem's text: `$.books[0].title`. */
function at(where: string, key: string | number): string {
  return typeof key === 'number' ? `${where}[${key}]` : `${where}.${key}`;
}

/** The keywords every value meets: `type` (with 3.0's `nullable`), `enum` and `const`. */
function valueProblems(s: JsonSchema, data: unknown, fail: (text: string) => void): void {
  const types = typesOf(data);
  let type = s.type as string | string[] | undefined;
  if (s.nullable === true && typeof type === 'string') type = [type, 'null'];
  if (type !== undefined) {
    const wanted = Array.isArray(type) ? type : [type];
    if (!wanted.some((t) => types.includes(t))) {
      fail(`is ${types[0]}, not ${wanted.join(' or ')}`);
    }
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(data))) {
    fail(`is ${JSON.stringify(data)?.slice(0, 40)}, not one of the schema's enum`);
  }
  if ('const' in s && JSON.stringify(s.const) !== JSON.stringify(data)) {
    fail("is not the schema's const");
  }
  if (typeof data === 'string') stringProblems(s, data, fail);
  if (typeof data === 'number') numberProblems(s, data, fail);
}

/** The keywords of a string: its length in code points, `pattern` and `format`. */
function stringProblems(s: JsonSchema, data: string, fail: (text: string) => void): void {
  const length = [...data].length;
  if (typeof s.minLength === 'number' && length < s.minLength)
    fail(`is shorter than ${s.minLength}`);
  if (typeof s.maxLength === 'number' && length > s.maxLength)
    fail(`is longer than ${s.maxLength}`);
  if (typeof s.pattern === 'string') {
    let pattern: RegExp | undefined;
    try {
      pattern = new RegExp(s.pattern, 'u');
    } catch {
      pattern = undefined;
    }
    if (pattern && data.length <= 10_000 && !pattern.test(data))
      fail(`does not match ${s.pattern}`);
  }
  const format = typeof s.format === 'string' ? formats[s.format] : undefined;
  if (format && !format(data)) fail(`is not a ${String(s.format)}`);
}

/** The bounds of a number, `exclusiveMinimum` and `exclusiveMaximum` in 3.0's and 3.1's forms. */
function numberProblems(s: JsonSchema, data: number, fail: (text: string) => void): void {
  if (typeof s.minimum === 'number' && data < s.minimum) fail(`is below ${s.minimum}`);
  if (typeof s.maximum === 'number' && data > s.maximum) fail(`is above ${s.maximum}`);
  const exMin = s.exclusiveMinimum === true ? s.minimum : s.exclusiveMinimum;
  const exMax = s.exclusiveMaximum === true ? s.maximum : s.exclusiveMaximum;
  if (typeof exMin === 'number' && data <= exMin) fail(`is not above ${exMin}`);
  if (typeof exMax === 'number' && data >= exMax) fail(`is not below ${exMax}`);
}

/** Validates `value` against `schema`; returns the problems found (at most a few), none when valid. */
export function validate(doc: OpenApiDocument, schema: unknown, value: unknown): string[] {
  const problems: string[] = [];
  let work = 20_000;
  const check = (node: unknown, data: unknown, where: string, depth: number): boolean => {
    if (--work < 0 || depth > maxDepth) return true;
    const s = resolveRef(doc, node) as JsonSchema | boolean | undefined;
    if (s === true || s === undefined || s === null || typeof s !== 'object') return s !== false;
    const local: string[] = [];
    const fail = (text: string) => local.push(`${where}: ${text}`);
    valueProblems(s, data, fail);
    if (Array.isArray(data)) {
      if (typeof s.minItems === 'number' && data.length < s.minItems)
        fail(`has fewer than ${s.minItems} items`);
      if (typeof s.maxItems === 'number' && data.length > s.maxItems)
        fail(`has more than ${s.maxItems} items`);
      if (s.items !== undefined && !Array.isArray(s.items)) {
        for (const [i, item] of data.entries()) {
          if (!check(s.items, item, at(where, i), depth + 1)) break;
        }
      }
    }
    if (data !== null && typeof data === 'object' && !Array.isArray(data)) {
      const object = data as Record<string, unknown>;
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      if (Array.isArray(s.required)) {
        for (const name of s.required) {
          if (typeof name === 'string' && !(name in object)) fail(`has no "${name}"`);
        }
      }
      for (const [name, item] of Object.entries(object)) {
        if (name in properties) check(properties[name], item, at(where, name), depth + 1);
        else if (s.additionalProperties === false)
          fail(`has "${name}", which the schema does not allow`);
        else if (s.additionalProperties && typeof s.additionalProperties === 'object') {
          check(s.additionalProperties, item, at(where, name), depth + 1);
        }
      }
    }
    for (const part of Array.isArray(s.allOf) ? s.allOf : []) check(part, data, where, depth + 1);
    // oneOf is read as anyOf: overlapping alternatives without a discriminator are common, and
    // the auditor must not report a body that fits two of them.
    for (const key of ['anyOf', 'oneOf'] as const) {
      const options = s[key];
      if (!Array.isArray(options) || options.length === 0) continue;
      const fits = options.some((option) => validate(doc, option, data).length === 0);
      if (!fits) fail(`fits none of the ${key} alternatives`);
    }
    if (s.not !== undefined && validate(doc, s.not, data).length === 0)
      fail("matches the schema's not");
    problems.push(...local);
    return local.length === 0;
  };
  check(schema, value, '$', 0);
  return problems.slice(0, maxProblems);
}
