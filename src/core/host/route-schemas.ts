/**
 * What a route declares of itself in a route schema of the shape Fastify gave the Node world
 * (body, querystring, params, headers, response by status, and the words `@fastify/swagger`
 * reads: summary, description, tags, hide), as the core's plain `AppRouteSchemas`. Any host whose
 * routes carry such a schema reads it here. A shared schema it refers to by `$id`
 * (`fastify.addSchema`) goes with it as a definition of its name, so the document names it too.
 */
import type { AppRouteSchemas } from '../kernel/route-types.ts';

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Fastify 5's `{ content: { 'application/json': { schema } } }` form, or the schema itself. */
function jsonSchemaOf(value: unknown): Json | undefined {
  if (!isObject(value)) return undefined;
  const content = value.content;
  if (isObject(content)) {
    const json = content['application/json'] ?? Object.values(content)[0];
    return isObject(json) && isObject(json.schema) ? json.schema : undefined;
  }
  return value;
}

/**
 * `schema` with references to shared schemas (`'book#'`, `'book'`) made references to
 * definitions carried beside it (`#/$defs/book`); a reference into one (`'book#/properties/id'`)
 * is replaced by what it points to.
 */
function withShared(schema: Json, shared: Readonly<Record<string, unknown>>): Json {
  const defs: Json = {};
  const visit = (value: unknown, depth: number): unknown => {
    if (depth > 32) return {};
    if (Array.isArray(value)) return value.map((v) => visit(v, depth + 1));
    if (!isObject(value)) return value;
    const out: Json = {};
    for (const [key, v] of Object.entries(value)) {
      if (key === '$ref' && typeof v === 'string' && !v.startsWith('#')) {
        const [id, pointer = ''] = v.split('#') as [string, string?];
        const target = shared[id];
        if (!isObject(target)) {
          out[key] = v;
          continue;
        }
        if (pointer === '' || pointer === '/') {
          if (!(id in defs)) {
            defs[id] = {};
            const { $id: _, ...rest } = target;
            defs[id] = visit(rest, depth + 1);
          }
          out.$ref = `#/$defs/${id}`;
          continue;
        }
        let at: unknown = target;
        for (const part of pointer.split('/').slice(1)) at = isObject(at) ? at[part] : undefined;
        Object.assign(out, visit(at, depth + 1));
        continue;
      }
      out[key] = visit(v, depth + 1);
    }
    return out;
  };
  const body = visit(schema, 0) as Json;
  return Object.keys(defs).length === 0
    ? body
    : { ...body, $defs: { ...defs, ...(body.$defs as Json) } };
}

/** The host schemas of one Fastify route, `undefined` when it declares none. */
export function routeSchemasOf(
  schema: unknown,
  shared: Readonly<Record<string, unknown>>,
): AppRouteSchemas | undefined {
  if (!isObject(schema)) return undefined;
  const part = (value: unknown) => {
    const json = jsonSchemaOf(value);
    return json === undefined ? undefined : withShared(json, shared);
  };
  let response: Record<string, Json> | undefined;
  if (isObject(schema.response)) {
    response = {};
    for (const [status, value] of Object.entries(schema.response)) {
      const json = part(value);
      if (json !== undefined) response[status.toUpperCase()] = json;
    }
  }
  const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
  return {
    body: part(schema.body),
    querystring: part(schema.querystring ?? schema.query),
    params: part(schema.params),
    headers: part(schema.headers),
    response,
    summary: text(schema.summary),
    description: text(schema.description),
    tags: Array.isArray(schema.tags) ? schema.tags.filter((t) => typeof t === 'string') : undefined,
    hide: schema.hide === true ? true : undefined,
  };
}
