/** What the live audit takes from an OpenAPI document: concrete paths, their methods, bodies, security. */
import { generateValue } from './generate.ts';
import { type OpenApiDocument, resolveRef } from './ref.ts';

const methods = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch'];

/** A security scheme an operation accepts (OpenAPI §4.8.27), as far as the audit reads it. */
export interface Scheme {
  /** Its name in `components.securitySchemes`. */
  name: string;
  /** `apiKey`, `http`, `oauth2`, `openIdConnect`, `mutualTLS`. */
  type: string;
  /** For `http`: `bearer`, `basic`… (lower-case). */
  scheme?: string;
  /** For `apiKey`: `header`, `query` or `cookie`, and the parameter's name. */
  in?: string;
  parameter?: string;
}

/** A documented path, filled in with example values where it has parameters. */
export interface DocumentedPath {
  /** The template with the servers' base path (`/v1/books/{id}`). */
  template: string;
  /** The path to request, with its required query parameters, or undefined when one has no value. */
  concrete: string | undefined;
  /** Set when a parameter's value was made from its schema, the document giving no example. */
  generated?: boolean;
  /** The first parameter with no example, when `concrete` is undefined. */
  missing?: string;
  /** The declared methods, upper-case. */
  methods: string[];
  /** A POST body example, when the document gives one. */
  postExample: unknown;
  /** The POST body's JSON schema, when the document gives one. */
  postSchema?: unknown;
  /** The schemes the GET accepts (any one of them); empty when it needs none or says nothing. */
  security: Scheme[];
  /** The operations by method (lower-case), as the document has them. */
  operations: Record<string, Operation>;
  /** The GET's parameters, the path item's included. */
  parameters: Parameter[];
  /** The template's values: each path parameter's example. */
  pathValues: Record<string, string>;
}

/** An operation of the document, as far as the audit reads it. */
export interface Operation {
  parameters?: unknown[];
  requestBody?: unknown;
  responses?: Record<string, unknown>;
  security?: Record<string, unknown>[];
}

/** A parameter of the document (OpenAPI §4.8.12). */
export interface Parameter {
  name?: string;
  in?: string;
  required?: boolean;
  example?: unknown;
  examples?: Record<string, unknown>;
  schema?: unknown;
}

/** The base path of the first server (`https://api.example.com/v1` → `/v1`), '' without one. */
export function serverPrefix(doc: OpenApiDocument): string {
  const url = doc.servers?.[0]?.url;
  if (typeof url !== 'string') return '';
  try {
    return new URL(url, 'http://server.invalid').pathname.replace(/\/$/, '');
  } catch {
    return '';
  }
}

/** A path as a client sends it (a space becomes %20), on the base origin whatever it holds. */
export function asPath(path: string): string {
  return new URL(`http://x${path.startsWith('/') ? '' : '/'}${path}`).pathname;
}

/** The example of a parameter, a media type or a schema: `example`, `examples`, then the schema's. */
export function exampleOf(doc: OpenApiDocument, node: unknown): unknown {
  const value = resolveRef(doc, node) as
    | { example?: unknown; examples?: unknown; schema?: unknown }
    | undefined;
  if (!value || typeof value !== 'object') return undefined;
  if (value.example !== undefined) return value.example;
  if (value.examples && typeof value.examples === 'object' && !Array.isArray(value.examples)) {
    const first = Object.values(value.examples as Record<string, unknown>)[0];
    const resolved = resolveRef(doc, first) as { value?: unknown } | undefined;
    if (resolved?.value !== undefined) return resolved.value;
  }
  return schemaExample(doc, value.schema, 0);
}

/** A schema's example, default or first enum value; for an array, one of its items'. */
function schemaExample(doc: OpenApiDocument, node: unknown, depth: number): unknown {
  const schema = resolveRef(doc, node) as
    | {
        example?: unknown;
        examples?: unknown[];
        default?: unknown;
        enum?: unknown[];
        type?: unknown;
        items?: unknown;
      }
    | undefined;
  if (!schema || typeof schema !== 'object' || depth > 2) return undefined;
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.type === 'array') {
    const item = schemaExample(doc, schema.items, depth + 1);
    return item === undefined ? undefined : [item];
  }
  return undefined;
}

/** The parameters of an operation, the path item's included, `$ref`s followed. */
export function parametersOf(
  doc: OpenApiDocument,
  item: Record<string, unknown>,
  operation: Operation | undefined,
): Parameter[] {
  // A document may hold anything where a list belongs: only a list is read.
  const list = (value: unknown) => (Array.isArray(value) ? value : []);
  const own = list(operation?.parameters).map((p) => resolveRef(doc, p) as Parameter);
  const shared = list(item.parameters).map((p) => resolveRef(doc, p) as Parameter);
  // An operation's parameter overrides the path item's of the same name and place.
  return [
    ...own,
    ...shared.filter((p) => !own.some((o) => o?.name === p?.name && o?.in === p?.in)),
  ].filter((p): p is Parameter => p !== null && typeof p === 'object');
}

/** The schemes an operation accepts: its own `security`, else the document's. */
function securityOf(doc: OpenApiDocument, operation: Operation | undefined): Scheme[] {
  const requirements =
    operation?.security ?? (doc as { security?: Record<string, unknown>[] }).security ?? [];
  if (!Array.isArray(requirements)) return [];
  // An empty requirement ({}) lets anonymous callers in: nothing is required.
  if (requirements.some((r) => r && typeof r === 'object' && Object.keys(r).length === 0)) {
    return [];
  }
  const defined = (doc.components?.securitySchemes ?? {}) as Record<string, unknown>;
  const names = new Set(
    requirements.flatMap((r) => (r && typeof r === 'object' ? Object.keys(r) : [])),
  );
  return [...names].flatMap((name) => {
    const scheme = resolveRef(doc, defined[name]) as Record<string, unknown> | undefined;
    if (!scheme || typeof scheme.type !== 'string') return [];
    return [
      {
        name,
        type: scheme.type,
        ...(typeof scheme.scheme === 'string' ? { scheme: scheme.scheme.toLowerCase() } : {}),
        ...(typeof scheme.in === 'string' ? { in: scheme.in } : {}),
        ...(typeof scheme.name === 'string' ? { parameter: scheme.name } : {}),
      },
    ];
  });
}

/** Every documented path, with what the live checks need. */
export function documentedPaths(doc: OpenApiDocument): DocumentedPath[] {
  const prefix = serverPrefix(doc);
  return Object.entries(doc.paths ?? {}).flatMap(([template, raw]) => {
    if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return [];
    const item = raw as Record<string, unknown>;
    const declared = methods.filter((m) => item[m] !== null && typeof item[m] === 'object');
    const operations = Object.fromEntries(declared.map((m) => [m, item[m] as Operation]));
    const get = operations.get;
    const params = parametersOf(doc, item, get ?? Object.values(operations)[0]);
    let missing: string | undefined;
    let generated = false;
    // A parameter without an example gets a value made from its schema (an integer 1, a word).
    const valueFor = (param: Parameter | undefined): unknown => {
      const example = param ? exampleOf(doc, param) : undefined;
      if (example !== undefined || param?.schema === undefined) return example;
      const made = generateValue(doc, param.schema);
      if (made !== undefined && (typeof made !== 'object' || made === null)) generated = true;
      return typeof made === 'object' && made !== null ? undefined : made;
    };
    const pathValues: Record<string, string> = {};
    const concrete = template.replace(/\{([^}]+)\}/g, (_, name: string) => {
      const param = params.find((p) => p.in === 'path' && p.name === name);
      const example = valueFor(param);
      if (example === undefined) missing ??= name;
      pathValues[name] = String(example);
      return encodeURIComponent(String(example));
    });
    // Required query parameters are sent, with their example, so the GET is a valid request.
    const query = new URLSearchParams();
    for (const param of params.filter((p) => p.in === 'query' && p.required === true)) {
      const example = valueFor(param);
      if (example === undefined) missing ??= String(param.name);
      else
        query.append(
          String(param.name),
          Array.isArray(example) ? String(example[0]) : String(example),
        );
    }
    const body = resolveRef(doc, operations.post?.requestBody) as
      | { content?: Record<string, unknown> }
      | undefined;
    const json = body?.content?.['application/json'];
    const search = query.size > 0 ? `?${query}` : '';
    return [
      {
        template: `${prefix}${template}`,
        // A path of the base origin, never a reference: `//host/x` stays a path.
        concrete: missing === undefined ? `${asPath(`${prefix}${concrete}`)}${search}` : undefined,
        ...(missing !== undefined ? { missing } : {}),
        ...(generated ? { generated } : {}),
        methods: declared.map((m) => m.toUpperCase()),
        postExample: json === undefined ? undefined : exampleOf(doc, json),
        ...(json !== undefined
          ? { postSchema: resolveRef(doc, (json as { schema?: unknown }).schema) }
          : {}),
        security: securityOf(doc, get),
        operations,
        parameters: params,
        pathValues,
      },
    ];
  });
}
