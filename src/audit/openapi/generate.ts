/**
 * Values made from a document's schemas: a valid one (a request body to create with when the
 * document gives no example, a query value the schema allows) and one the schema forbids (to
 * see it refused). Only what the schema says is used; a schema that says too little gives none.
 */
import { type OpenApiDocument, resolveRef } from './ref.ts';
import type { JsonSchema } from './schema.ts';

const maxDepth = 8;

/** A schema with its `$ref` followed and its `allOf` parts merged (properties and required). */
export function flatten(doc: OpenApiDocument, node: unknown, depth = 0): JsonSchema | undefined {
  const s = resolveRef(doc, node) as JsonSchema | undefined;
  if (!s || typeof s !== 'object' || depth > maxDepth) return undefined;
  if (!Array.isArray(s.allOf)) return s;
  const merged: JsonSchema = { ...s, allOf: undefined };
  const properties: Record<string, unknown> = {};
  const required: unknown[] = [];
  for (const part of [s, ...s.allOf]) {
    const flat = part === s ? s : flatten(doc, part, depth + 1);
    if (!flat) continue;
    Object.assign(properties, flat.properties ?? {});
    if (Array.isArray(flat.required)) required.push(...flat.required);
    if (merged.type === undefined && flat.type !== undefined) merged.type = flat.type;
  }
  if (Object.keys(properties).length > 0) merged.properties = properties;
  if (required.length > 0) merged.required = [...new Set(required)];
  return merged;
}

/** The first type a schema names (`["string","null"]` → `string`). */
function typeOf(s: JsonSchema): string | undefined {
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  if (typeof type === 'string') return type;
  if (s.properties) return 'object';
  if (s.items) return 'array';
  return undefined;
}

const sampleStrings: Record<string, string> = {
  'date-time': '2026-01-01T00:00:00Z',
  date: '2026-01-01',
  email: 'audit@example.com',
  uuid: '00000000-0000-4000-8000-000000000000',
  uri: 'https://example.com/',
};

/** A value the schema allows, made from its examples, defaults, enums and types; undefined when it says too little. */
export function generateValue(doc: OpenApiDocument, node: unknown, depth = 0): unknown {
  const s = flatten(doc, node);
  if (!s || depth > maxDepth) return undefined;
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length > 0) return s.examples[0];
  if (s.default !== undefined) return s.default;
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum) && s.enum.length > 0) return s.enum[0];
  const alternatives = (s.oneOf ?? s.anyOf) as unknown[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    return generateValue(doc, alternatives[0], depth + 1);
  }
  switch (typeOf(s)) {
    case 'object': {
      const out: Record<string, unknown> = {};
      const properties = (s.properties ?? {}) as Record<string, unknown>;
      for (const name of Array.isArray(s.required) ? s.required : []) {
        if (typeof name !== 'string') continue;
        const value = generateValue(doc, properties[name] ?? {}, depth + 1);
        if (value === undefined) return undefined;
        out[name] = value;
      }
      return out;
    }
    case 'array': {
      const count = typeof s.minItems === 'number' ? Math.min(s.minItems, 3) : 0;
      const items = Array.from({ length: count }, () => generateValue(doc, s.items, depth + 1));
      return items.includes(undefined) ? undefined : items;
    }
    case 'string': {
      if (typeof s.pattern === 'string') return undefined;
      const format = typeof s.format === 'string' ? sampleStrings[s.format] : undefined;
      if (format) return format;
      const min = typeof s.minLength === 'number' ? s.minLength : 1;
      const max = typeof s.maxLength === 'number' ? s.maxLength : 64;
      const text = 'api-conventions-audit'.padEnd(min, 'a').slice(0, Math.max(max, 0));
      return text.length >= min ? text : undefined;
    }
    case 'integer':
    case 'number': {
      const min = typeof s.minimum === 'number' ? Math.ceil(s.minimum) : 1;
      const max = typeof s.maximum === 'number' ? s.maximum : Number.MAX_SAFE_INTEGER;
      return min <= max ? min : undefined;
    }
    case 'boolean':
      return true;
    default:
      return undefined;
  }
}

/** A value the schema forbids, and why; undefined when the schema constrains nothing it can break. */
interface Violation {
  value: unknown;
  why: string;
}

/**
 * A query or path parameter value (text) that the parameter's schema forbids: a word where a
 * number or boolean is wanted, a number past a bound, a word outside an enum, a string too long,
 * text that is not the declared date or UUID.
 */
export function violatingText(doc: OpenApiDocument, node: unknown): Violation | undefined {
  const s = flatten(doc, node);
  if (!s) return undefined;
  const word = 'api-conventions-audit';
  if (Array.isArray(s.enum) && s.enum.length > 0)
    return { value: word, why: 'a value outside its enum' };
  const type = typeOf(s);
  if (type === 'integer' || type === 'number') {
    if (typeof s.maximum === 'number')
      return { value: String(s.maximum + 1), why: `above its maximum ${s.maximum}` };
    if (typeof s.minimum === 'number')
      return { value: String(s.minimum - 1), why: `below its minimum ${s.minimum}` };
    return {
      value: word,
      why: `a word where it wants ${type === 'integer' ? 'an integer' : 'a number'}`,
    };
  }
  if (type === 'boolean') return { value: word, why: 'a word where it wants a boolean' };
  if (type === 'string') {
    if (typeof s.maxLength === 'number' && s.maxLength < 2_000) {
      return {
        value: 'a'.repeat(s.maxLength + 1),
        why: `longer than its maxLength ${s.maxLength}`,
      };
    }
    if (s.format === 'date-time' || s.format === 'date' || s.format === 'uuid') {
      return { value: word, why: `not a ${String(s.format)}` };
    }
  }
  return undefined;
}

/** A JSON body the request body's schema forbids: a required property left out, or a wrong type. */
export function violatingBody(doc: OpenApiDocument, node: unknown): Violation | undefined {
  const s = flatten(doc, node);
  if (!s || typeOf(s) !== 'object') return undefined;
  const valid = generateValue(doc, s) as Record<string, unknown> | undefined;
  const required = (Array.isArray(s.required) ? s.required : []).filter(
    (n): n is string => typeof n === 'string',
  );
  if (valid && typeof valid === 'object' && required.length > 0) {
    const { [required[0]!]: _left, ...rest } = valid;
    return { value: rest, why: `without the required "${required[0]}"` };
  }
  return { value: [], why: 'an array where it wants an object' };
}
