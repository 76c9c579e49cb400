/**
 * JSON Schema 2020-12 of a route's schemas, for the OpenAPI document: a Standard Schema's own
 * (Standard JSON Schema, `~standard.jsonSchema`: zod 4, arktype 2), or the field rules'.
 */
import type { FieldRule, FieldSchema } from '../validation/field-types.ts';
import { isStandardSchema } from '../validation/standard-schema.ts';

/**
 * A JSON Schema object.
 *
 * @category Routing
 */
export type JsonSchema = Record<string, unknown>;

interface JsonSchemaConverter {
  input(options: { target: string }): JsonSchema;
  output(options: { target: string }): JsonSchema;
}

function fieldRuleSchema(rule: FieldRule): JsonSchema {
  const out: JsonSchema =
    rule.type === 'date-time' ? { type: 'string', format: 'date-time' } : { type: rule.type };
  if (rule.type === 'string') {
    if (rule.min !== undefined) out.minLength = rule.min;
    if (rule.max !== undefined) out.maxLength = rule.max;
    if (rule.pattern !== undefined) out.pattern = rule.pattern.source;
  } else if (rule.type === 'integer' || rule.type === 'number') {
    if (rule.min !== undefined) out.minimum = rule.min;
    if (rule.max !== undefined) out.maximum = rule.max;
  } else if (rule.type === 'array') {
    if (rule.min !== undefined) out.minItems = rule.min;
    if (rule.max !== undefined) out.maxItems = rule.max;
  }
  if (rule.enum !== undefined) out.enum = [...rule.enum];
  if (rule.nullable) out.type = [out.type as string, 'null'];
  if (rule.example !== undefined) out.examples = [rule.example];
  return out;
}

/**
 * An example body made of the field rules' own examples, when every required field has one (all
 * optional on PATCH); `undefined` otherwise.
 */
export function fieldsExample(fields: FieldSchema, partial: boolean): unknown {
  const example: Record<string, unknown> = {};
  for (const [name, rule] of Object.entries(fields)) {
    if (rule.example !== undefined) example[name] = rule.example;
    else if (rule.required && !partial) return undefined;
  }
  return Object.keys(example).length > 0 ? example : undefined;
}

/** The JSON Schema of field rules: an object of those fields (all optional on PATCH). */
export function fieldsSchema(fields: FieldSchema, partial: boolean, closed: boolean): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, rule] of Object.entries(fields)) {
    properties[name] = fieldRuleSchema(rule);
    if (rule.required && !partial) required.push(name);
  }
  return {
    type: 'object',
    properties,
    ...(required.length > 0 ? { required } : {}),
    ...(closed ? { additionalProperties: false } : {}),
  };
}

/**
 * The JSON Schema of a Standard Schema, as input (a request) or output (a response); an empty
 * schema (anything) when the library offers no converter (valibot: pass `@valibot/to-json-schema`
 * through `openapi({ jsonSchema })`).
 */
export function standardJsonSchema(
  schema: unknown,
  io: 'input' | 'output',
  convert?: (schema: unknown, io: 'input' | 'output') => object | undefined,
): JsonSchema {
  const given = convert?.(schema, io);
  if (given !== undefined) return withoutDialect(given as JsonSchema);
  if (!isStandardSchema(schema)) return {};
  const props = schema['~standard'] as { vendor: string; jsonSchema?: JsonSchemaConverter };
  const converter = props.jsonSchema;
  if (converter === undefined) return {};
  try {
    return withoutDialect(
      converter[io]({
        target: 'draft-2020-12',
        ...(props.vendor === 'zod' ? { libraryOptions: zodOptions } : {}),
      } as { target: string }),
    );
  } catch {
    // A schema the library cannot express at all: described as anything.
    return {};
  }
}

/**
 * zod's own options: a part it cannot express is described as anything rather than failing the
 * whole schema, and a `Date` as the RFC 3339 string the serializer writes (spec 2.6).
 */
const zodOptions = {
  unrepresentable: 'any',
  override: (ctx: {
    zodSchema: { _zod?: { def?: { type?: string } } };
    jsonSchema: JsonSchema;
  }) => {
    if (ctx.zodSchema._zod?.def?.type === 'date') {
      ctx.jsonSchema.type = 'string';
      ctx.jsonSchema.format = 'date-time';
    }
  },
};

/** OpenAPI 3.1 documents are JSON Schema 2020-12 already: a nested `$schema` is noise. */
export function withoutDialect(schema: JsonSchema): JsonSchema {
  const { $schema: _, ...rest } = schema;
  return rest;
}
