/**
 * What the document's parts share while it is built: the options, what the installed plugins add,
 * each route's media types, and the components gathered so far.
 */
import type { DescribedApi } from '../kernel/plugin.ts';
import type { RouteInfo } from '../kernel/route-table.ts';
import { isStandardSchema } from '../validation/standard-schema.ts';
import { SchemaComponents } from './components.ts';
import { type JsonSchema, standardJsonSchema, withoutDialect } from './json-schema.ts';
import type { OpenApiOptions } from './options.ts';
import { xmlSchemaOf } from './xml.ts';

/** The plugins whose behaviour the document describes. */
interface Features {
  readonly bearer: boolean;
  readonly rateLimit: boolean;
  readonly caching: boolean;
  readonly cors: boolean;
  readonly negotiation: boolean;
}

/** One document being built. */
export interface Build {
  readonly options: OpenApiOptions;
  readonly features: Features;
  /** The media types a route answers in. */
  readonly typesOf: (route: RouteInfo) => readonly string[];
  /** `components.schemas`. */
  readonly schemas: SchemaComponents;
  /** `components.responses`, the shared error responses, by name. */
  readonly responses: Map<string, unknown>;
  /** The shared error responses' names, by what they hold. */
  readonly responseNames: Map<string, string>;
  /** `components.headers`, the headers the features send, by name. */
  readonly headers: Map<string, unknown>;
  /** `components.securitySchemes`. */
  readonly securitySchemes: Record<string, unknown>;
  /** The root element of XML bodies. */
  readonly xmlRoot: string;
  /** The query parameter that picks a format, when negotiation reads one. */
  readonly formatQuery: string | undefined;
}

const mediaTypes: Record<string, string> = { json: 'application/json', xml: 'application/xml' };

/**
 * The media types of a route without a negotiation plugin to ask: its `formats` (JSON, XML) when
 * it names them (a `.json`/`.xml` twin names one), else JSON.
 */
function formatTypesOf(route: RouteInfo): readonly string[] {
  const formats =
    route.config.formatSuffix !== undefined
      ? [route.config.formatSuffix]
      : (route.config.formats ?? ['json']);
  const types = formats.flatMap((f) => (mediaTypes[f] === undefined ? [] : [mediaTypes[f]!]));
  return types.length > 0 ? types : ['application/json'];
}

/** A new build of `api`'s document. */
export function startBuild(api: DescribedApi, options: OpenApiOptions): Build {
  const installed = api.plugins;
  const has = (name: string) => installed === undefined || installed.includes(name);
  const query = options.negotiation?.query;
  return {
    options,
    features: {
      bearer: has('bearer'),
      rateLimit: has('rate-limit'),
      caching: has('caching'),
      cors: has('cors'),
      negotiation: has('negotiation'),
    },
    typesOf: api.mediaTypesOf === undefined ? formatTypesOf : (route) => api.mediaTypesOf!(route),
    schemas: new SchemaComponents(),
    responses: new Map(),
    responseNames: new Map(),
    headers: new Map(),
    securitySchemes: {},
    xmlRoot: options.negotiation?.xmlRoot ?? 'response',
    formatQuery: has('negotiation') && query !== false ? (query ?? 'format') : undefined,
  };
}

/**
 * Headers as references to `components.headers`, each kept once under its name (a header of the
 * same name that says something else gets the next free name).
 */
export function headerRefs(
  headers: Readonly<Record<string, unknown>>,
  b: Build,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers)) {
    const text = JSON.stringify(value);
    let key = name;
    for (let n = 2; b.headers.has(key) && JSON.stringify(b.headers.get(key)) !== text; n++) {
      key = `${name}${n}`;
    }
    b.headers.set(key, value);
    out[name] = { $ref: `#/components/headers/${key}` };
  }
  return out;
}

/** Whether a media type carries JSON: `application/json` or a `+json` type (RFC 6839). */
const isJsonType = (type: string) => type === 'application/json' || type.endsWith('+json');

/** Whether a media type carries XML. */
export const isXmlType = (type: string) =>
  type === 'application/xml' || type === 'text/xml' || type.endsWith('+xml');

/**
 * A schema of the route's own, for the document: a Standard Schema converted, or a JSON Schema as
 * it is, with the definitions it names lifted into components.
 */
export function schemaOf(value: unknown, io: 'input' | 'output', b: Build): JsonSchema {
  const converted = isStandardSchema(value)
    ? standardJsonSchema(value, io, b.options.jsonSchema)
    : withoutDialect((value ?? {}) as JsonSchema);
  return b.schemas.lift(converted);
}

/**
 * The body in each media type: the schema itself for JSON, its XML form (a component of its own
 * when the JSON one is named) for XML, anything for others.
 */
export function contentOf(
  types: readonly string[],
  schema: JsonSchema,
  b: Build,
  example?: unknown,
): Record<string, unknown> {
  let xml: JsonSchema | undefined;
  const xmlOf = () => {
    if (xml !== undefined) return xml;
    const form = xmlSchemaOf(schema, b.xmlRoot, b.schemas);
    const name = SchemaComponents.nameOf(schema);
    xml = name === undefined ? form : SchemaComponents.ref(b.schemas.add(`${name}Xml`, form));
    return xml;
  };
  return Object.fromEntries(
    types.map((type) => {
      if (isJsonType(type)) {
        return [type, { schema, ...(example !== undefined ? { example } : {}) }];
      }
      return [type, { schema: isXmlType(type) ? xmlOf() : {} }];
    }),
  );
}
