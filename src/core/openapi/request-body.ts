/**
 * An operation's request body (OpenAPI 3.1 §4.8.13): the route's own, else its `body` setting (a
 * Standard Schema, or field rules with their examples), else its host's JSON Schema; JSON, and a
 * form where the route accepts one.
 */
import type { RouteInfo } from '../kernel/route-table.ts';
import type { FieldSchema } from '../validation/field-types.ts';
import { isStandardSchema } from '../validation/standard-schema.ts';
import { type Build, schemaOf } from './build.ts';
import { SchemaComponents } from './components.ts';
import { fieldsExample, fieldsSchema, type JsonSchema } from './json-schema.ts';
import { itemNameOf } from './naming.ts';

const bodyMethods = new Set(['POST', 'PUT', 'PATCH']);

/** Field rules as a named component: `BookInput`, or `BookPatch` where every field is optional. */
function fieldRulesBody(route: RouteInfo, rules: FieldSchema, b: Build) {
  const partial = route.method === 'PATCH';
  const schema = fieldsSchema(rules, partial, route.config.rejectUnknownFields ?? true);
  const item = itemNameOf(route);
  const named =
    item === undefined
      ? schema
      : SchemaComponents.ref(b.schemas.add(`${item}${partial ? 'Patch' : 'Input'}`, schema));
  return { schema: named, example: fieldsExample(rules, partial) };
}

/** The request body of `route`'s operation, or `undefined` when it reads none. */
export function requestBodyOf(route: RouteInfo, b: Build): unknown {
  const own = route.config.openapi?.requestBody;
  if (own !== undefined) {
    const content = Object.fromEntries(
      Object.entries(own.content).map(([type, media]) => [
        type,
        { ...media, schema: b.schemas.lift(media.schema as JsonSchema) },
      ]),
    );
    return { ...own, content };
  }
  if (!bodyMethods.has(route.method)) return undefined;
  const body = route.config.body;
  const host = route.schemas?.body;
  let schema: JsonSchema;
  let example = route.config.openapi?.example?.body;
  if (body !== undefined) {
    if (isStandardSchema(body)) {
      schema = schemaOf(body, 'input', b);
    } else {
      const fields = fieldRulesBody(route, body as FieldSchema, b);
      schema = fields.schema;
      example ??= fields.example;
    }
  } else if (host !== undefined) {
    schema = schemaOf(host, 'input', b);
  } else {
    return undefined;
  }
  const media = { schema, ...(example !== undefined ? { example } : {}) };
  // What the route parses (spec 4.2): JSON unless its `accepts` says otherwise.
  const accepts = route.config.accepts ?? ['json'];
  const content: Record<string, unknown> = {};
  if (accepts.includes('json')) content['application/json'] = media;
  if (accepts.includes('form')) content['application/x-www-form-urlencoded'] = media;
  return { required: true, content };
}
