/**
 * An operation's parameters (OpenAPI 3.1 §4.8.12): its path parameters, its query schema's
 * members, what a list reads (paging, filters, `q`, `sort`, `total`), what a read of a resource
 * reads (`fields`, `view`), the format it may be asked for, and a host route's own schemas.
 */
import type { RouteInfo } from '../kernel/route-table.ts';
import { type Build, isXmlType, schemaOf } from './build.ts';
import type { JsonSchema } from './json-schema.ts';

type Where = 'query' | 'header' | 'path';

// OpenAPI 3.1 §4.8.12.1: these headers are described by the operation's media types and security.
const describedElsewhere = new Set(['accept', 'content-type', 'authorization']);

const parameter = (
  name: string,
  where: Where,
  schema: JsonSchema,
  description: string,
  required = false,
) => ({ name, in: where, required: where === 'path' || required, description, schema });

const int = (min: number, max?: number) => ({
  type: 'integer',
  minimum: min,
  ...(max === undefined ? {} : { maximum: max }),
});

/** The paging, filter, search, sort and total parameters of a list route (spec 4.4). */
function listParameters(route: RouteInfo): unknown[] {
  const list = route.config.list;
  if (list === undefined) return [];
  const out: unknown[] = [];
  const styles = list.styles ?? ['page', 'offset', 'cursor'];
  const max = list.maxPerPage ?? 100;
  if (styles.includes('page'))
    out.push(parameter('page', 'query', int(1), 'The page, from 1 (spec 4.4).'));
  if (styles.includes('page') || styles.includes('cursor')) {
    out.push(parameter('per_page', 'query', int(1, max), 'Items per page.'));
  }
  if (styles.includes('offset') || styles.includes('cursor')) {
    out.push(parameter('limit', 'query', int(1, max), 'Items per page.'));
  }
  if (styles.includes('offset')) out.push(parameter('offset', 'query', int(0), 'Items to skip.'));
  if (styles.includes('cursor')) {
    out.push(parameter('after', 'query', { type: 'string' }, 'The cursor of the last item seen.'));
    out.push(
      parameter('before', 'query', { type: 'string' }, 'The cursor of the first item seen.'),
    );
  }
  for (const [field, type] of Object.entries(list.filters ?? {}).sort()) {
    const schema =
      type === 'date-time' ? { type: 'string', format: 'date-time' } : { type: type as string };
    out.push(parameter(field, 'query', schema, `Only items whose ${field} is this value.`));
  }
  const search = list.search ?? [];
  if (search.length > 0) {
    const schema = { type: 'string', maxLength: list.maxSearchLength ?? 200 };
    out.push(parameter('q', 'query', schema, `Search in ${search.join(', ')}.`));
  }
  const sortable = [...(list.sort ?? []), list.key ?? 'id'];
  out.push(
    parameter(
      'sort',
      'query',
      { type: 'string' },
      `Fields to sort by, comma-separated, "-" for descending: ${sortable.join(', ')}.`,
    ),
  );
  if (list.total === 'on-request') {
    const description = 'Whether the envelope carries the total count.';
    out.push(parameter('total', 'query', { type: 'boolean' }, description));
  }
  return out;
}

/**
 * `fields` and `view` (spec 2.10), on the reads of a resource. A write shapes its answer too, but
 * the document leaves them out there: what a write answers is described whole, its members
 * required ([OpenAPI 3.1](../../../docs/openapi.md), "Required members").
 */
function selectionParameters(route: RouteInfo): unknown[] {
  const resource = route.config.resource;
  if (resource === undefined || route.method !== 'GET') return [];
  const out: unknown[] = [
    parameter(
      'fields',
      'query',
      { type: 'string' },
      'The fields to return, comma-separated, such as id,title,author(name) (spec 2.10); the others are left out.',
    ),
  ];
  if (resource.views.length > 0) {
    const schema = { type: 'string', enum: [...resource.views] };
    out.push(parameter('view', 'query', schema, 'A named set of fields (spec 2.10).'));
  }
  return out;
}

/** The query parameter that picks a format (spec 4.5), where there is a choice of formats. */
function formatParameter(route: RouteInfo, b: Build): unknown[] {
  if (b.formatQuery === undefined || route.method === 'DELETE') return [];
  const types = b.typesOf(route);
  const formats = ['json', 'xml'].filter((f) =>
    types.some((t) => (f === 'xml' ? isXmlType(t) : !isXmlType(t))),
  );
  const description = 'The format of the answer, instead of Accept (spec 4.5).';
  return [parameter(b.formatQuery, 'query', { type: 'string', enum: formats }, description)];
}

/** The members of an object schema, each a parameter in `where`. */
function membersOf(schema: JsonSchema, where: Where, b: Build, skip: ReadonlySet<string>) {
  const resolved = b.schemas.resolve(schema);
  const required = new Set((resolved.required ?? []) as string[]);
  const properties = (resolved.properties ?? {}) as Record<string, JsonSchema>;
  return Object.entries(properties)
    .filter(([name]) => !skip.has(name.toLowerCase()))
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([name, s]) => {
      const { description, ...rest } = s;
      const text =
        typeof description === 'string'
          ? description
          : `The ${name} ${where === 'header' ? 'header' : 'parameter'}.`;
      return parameter(name, where, rest, text, required.has(name));
    });
}

/** Every parameter of the operation of `route`, whose path has the parameters `names`. */
export function parametersOf(route: RouteInfo, names: readonly string[], b: Build): unknown[] {
  const { params, query } = route.config;
  const host = route.schemas;
  const pathSchema =
    params !== undefined
      ? schemaOf(params, 'input', b)
      : host?.params !== undefined
        ? schemaOf(host.params, 'input', b)
        : {};
  const props = (b.schemas.resolve(pathSchema).properties ?? {}) as Record<string, JsonSchema>;
  const out: unknown[] = names.map((name) => {
    const { description, ...schema } = props[name] ?? { type: 'string' };
    const text = typeof description === 'string' ? description : `The ${name} of the resource.`;
    return parameter(name, 'path', schema, text);
  });
  const taken = new Set<string>();
  const own: unknown[] = [];
  if (query !== undefined) own.push(...membersOf(schemaOf(query, 'input', b), 'query', b, taken));
  if (host?.querystring !== undefined) {
    own.push(...membersOf(schemaOf(host.querystring, 'input', b), 'query', b, taken));
  }
  for (const p of own) taken.add((p as { name: string }).name);
  out.push(...own);
  const derived = [
    ...listParameters(route),
    ...selectionParameters(route),
    ...formatParameter(route, b),
  ].filter((p) => !taken.has((p as { name: string }).name));
  out.push(...derived);
  if (host?.headers !== undefined) {
    out.push(...membersOf(schemaOf(host.headers, 'input', b), 'header', b, describedElsewhere));
  }
  // What the route reads itself, told by its `openapi` setting, over the derived ones.
  const given = route.config.openapi?.parameters ?? [];
  if (given.length === 0) return out;
  const key = (p: unknown) => `${(p as { in: string }).in} ${(p as { name: string }).name}`;
  const replaced = new Set(given.map(key));
  return [
    ...out.filter((p) => !replaced.has(key(p))),
    ...given.map((p) => ({ ...p, required: p.in === 'path' || p.required === true })),
  ];
}
