/**
 * Members a selection can drop (spec 2.10): where a read takes `fields` and `view`, the members
 * the resource lets a client select are optional in its schema, whatever the schema says, so the
 * document never promises a member a selection leaves out.
 */

import type { RouteInfo } from '../kernel/route-table.ts';
import type { FieldTree } from '../shaping/select-fields.ts';
import { SchemaComponents } from './components.ts';
import type { JsonSchema } from './json-schema.ts';

/** `schema` with the members of `tree` optional, nested trees too; `schema` when none was required. */
function relax(schema: JsonSchema, tree: FieldTree, components: SchemaComponents): JsonSchema {
  const name = SchemaComponents.nameOf(schema);
  const target = components.resolve(schema);
  let changed = false;
  const out: JsonSchema = { ...target };
  if (Array.isArray(target.required)) {
    const required = (target.required as string[]).filter(
      (key) => !(key in tree) && key !== 'links',
    );
    if (required.length !== target.required.length) {
      changed = true;
      if (required.length > 0) out.required = required;
      else delete out.required;
    }
  }
  const properties = target.properties as Record<string, JsonSchema> | undefined;
  if (properties !== undefined) {
    const next: Record<string, JsonSchema> = {};
    for (const [key, member] of Object.entries(properties)) {
      const sub = tree[key];
      next[key] = typeof sub === 'object' ? relaxMember(member, sub, components) : member;
      if (next[key] !== member) changed = true;
    }
    out.properties = next;
  }
  if (!changed) return schema;
  return name === undefined ? out : SchemaComponents.ref(components.add(`${name}Selection`, out));
}

/** A member that is an object, or a list of objects, with selectable members of its own. */
function relaxMember(member: JsonSchema, tree: FieldTree, components: SchemaComponents) {
  const target = components.resolve(member);
  if (target.type === 'array' && typeof target.items === 'object' && target.items !== null) {
    const items = relax(target.items as JsonSchema, tree, components);
    return items === target.items ? member : { ...target, items };
  }
  return relax(member, tree, components);
}

/**
 * The success schema of a read with `resource`: each item (the envelope's list on a `list`
 * route) with its selectable members optional.
 */
export function selectable(
  schema: JsonSchema,
  route: RouteInfo,
  components: SchemaComponents,
): JsonSchema {
  const resource = route.config.resource;
  if (resource === undefined || route.method !== 'GET') return schema;
  const listName = route.config.list?.name;
  if (listName === undefined) return relax(schema, resource.fields, components);
  const envelope = components.resolve(schema);
  const list = (envelope.properties as Record<string, JsonSchema> | undefined)?.[listName];
  if (list === undefined) return schema;
  const relaxed = relaxMember(list, resource.fields, components);
  if (relaxed === list) return schema;
  const out = {
    ...envelope,
    properties: { ...(envelope.properties as object), [listName]: relaxed },
  };
  const name = SchemaComponents.nameOf(schema);
  return name === undefined ? out : SchemaComponents.ref(components.add(`${name}Selection`, out));
}
