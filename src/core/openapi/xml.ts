/**
 * The schema of a body sent as XML (OpenAPI 3.1 §4.8.26): the members of its JSON schema with
 * the element names the XML serializer writes ([Content negotiation](../../../docs/negotiation.md)): every body under one root
 * element (`<response>`), each member an element of its name, a list wrapped in its element and
 * each entry named by the singular of the list's name (`<books><book>…</book></books>`, `<links>
 * <link>`), a top-level list's entries `<item>`.
 */
import { singularOf } from '../negotiation/xml-names.ts';
import { SchemaComponents } from './components.ts';
import type { JsonSchema } from './json-schema.ts';

// Deeper than this (or a schema that refers to itself), an element's content is left open.
const maxDepth = 12;

/** An element's schema: `schema` with its arrays wrapped and their entries named. */
function element(
  schema: JsonSchema,
  components: SchemaComponents,
  depth: number,
  seen: ReadonlySet<string>,
): JsonSchema {
  const name = SchemaComponents.nameOf(schema);
  if (name !== undefined) {
    if (seen.has(name) || depth > maxDepth) return {};
    const target = components.get(name);
    if (target === undefined) return schema;
    return element(target, components, depth + 1, new Set([...seen, name]));
  }
  if (depth > maxDepth) return {};
  const out: JsonSchema = { ...schema };
  for (const key of ['allOf', 'anyOf', 'oneOf'] as const) {
    const list = schema[key];
    if (Array.isArray(list)) {
      out[key] = list.map((s) => element(s as JsonSchema, components, depth + 1, seen));
    }
  }
  const properties = schema.properties as Record<string, JsonSchema> | undefined;
  if (properties !== undefined) {
    out.properties = Object.fromEntries(
      Object.entries(properties).map(([key, member]) => [
        key,
        memberOf(key, member, components, depth + 1, seen),
      ]),
    );
  }
  if (schema.items !== undefined && typeof schema.items === 'object') {
    out.items = element(schema.items as JsonSchema, components, depth + 1, seen);
  }
  return out;
}

/** A member's element: a list is wrapped in the member's element, its entries named singly. */
function memberOf(
  key: string,
  member: JsonSchema,
  components: SchemaComponents,
  depth: number,
  seen: ReadonlySet<string>,
): JsonSchema {
  const resolved = element(member, components, depth, seen);
  if (!isArray(resolved)) return resolved;
  const items = (resolved.items ?? {}) as JsonSchema;
  return {
    ...resolved,
    xml: { wrapped: true },
    items: { ...items, xml: { name: singularOf(key) } },
  };
}

const isArray = (schema: JsonSchema) =>
  schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'));

/**
 * The schema of a body in XML under `root`. Its top level names no `type`: the members and names
 * describe the document's element tree, and a validator that reads XML as text (Prism, which
 * checks an XML body as a string, stoplightio/prism#2050) then has no type to refuse it by.
 */
export function xmlSchemaOf(
  schema: JsonSchema,
  root: string,
  components: SchemaComponents,
): JsonSchema {
  const body = element(schema, components, 0, new Set());
  const { type: _type, ...rest } = body;
  if (isArray(body)) {
    const items = (body.items ?? {}) as JsonSchema;
    return {
      ...rest,
      xml: { name: root, wrapped: true },
      items: { ...items, xml: { name: 'item' } },
    };
  }
  return { ...rest, xml: { name: root } };
}
