/**
 * An OpenAPI 3.1 document from a `Conventions`: every route and method, path parameters, the
 * paging and shaping parameters of list routes, request and response bodies as JSON Schema
 * 2020-12, the error body on the errors the pipeline answers, deprecation and bearer security.
 * Deterministic: paths sorted, methods in a fixed order, so two runs give the same bytes.
 */
import type { RouteInfo } from '../routing/table.ts';
import { fieldsSchema, type JsonSchema, standardJsonSchema } from './json-schema.ts';
import type { OpenApiResponse } from './route-config.ts';

/**
 * The document's `info` object (OpenAPI 3.1 §4.8.2).
 *
 * @category Routing
 */
export interface OpenApiInfo {
  /** The API's name. */
  title: string;
  /** The version of the API (not of this library). */
  version: string;
  /** A description, CommonMark allowed. */
  description?: string;
  /** The license: its name, and an SPDX `identifier` or a `url`. */
  license?: OpenApiLicense;
}

/**
 * A license of the API (OpenAPI 3.1 §4.8.4).
 *
 * @category Routing
 */
export interface OpenApiLicense {
  /** The license's name. */
  name: string;
  /** Its SPDX identifier (`MIT`). */
  identifier?: string;
  /** A URL of its text. */
  url?: string;
}

/**
 * Where the API is served (OpenAPI 3.1 §4.8.5).
 *
 * @category Routing
 */
export interface OpenApiServer {
  /** The base URL, absolute or relative to the document. */
  url: string;
  /** What this server is. */
  description?: string;
}

/**
 * The OAuth 2.0 endpoints of the authorization server, for the `oauth2` security scheme.
 *
 * @category Routing
 */
export interface OpenApiOAuth2 {
  /** The token endpoint (RFC 6749 §3.2). */
  tokenUrl: string;
  /** The authorization endpoint (RFC 6749 §3.1), when the authorization-code flow is offered. */
  authorizationUrl?: string;
  /** The scopes, each with what it grants. */
  scopes?: Readonly<Record<string, string>>;
}

/**
 * Options of {@link openapi}.
 *
 * @category Routing
 */
export interface OpenApiOptions {
  /** The document's `info`: title and version at least. */
  info: OpenApiInfo;
  /** Where the API is served. @default [{ url: '/' }] */
  servers?: readonly OpenApiServer[];
  /**
   * A JSON Schema for a Standard Schema the library cannot convert itself (valibot: its
   * `toJsonSchema`); `undefined` falls back to the schema's own `~standard.jsonSchema`.
   */
  jsonSchema?: (schema: unknown, io: 'input' | 'output') => JsonSchema | undefined;
  /** OAuth 2.0 endpoints and scopes, for an `oauth2` security scheme beside the bearer one. */
  oauth2?: OpenApiOAuth2;
}

/**
 * What {@link openapi} reads of an API: a `Conventions` has it.
 *
 * @category Routing
 */
export interface DescribedApi {
  /** Every declared route, as `Conventions.routes` lists them. */
  readonly routes: readonly RouteInfo[];
  /**
   * The installed plugins' names (`Conventions.plugins`): which headers and security schemes
   * the document describes. @default every one described
   */
  readonly plugins?: readonly string[];
  /**
   * The app's own routes a host handed over (`Conventions.appRoutes`: Express, Fastify and
   * Hono routes beside the table), documented as table routes are. @default none
   */
  readonly appRoutes?: readonly RouteInfo[];
  /**
   * The media types a route answers in (`Conventions.mediaTypesOf`): what content negotiation
   * offers there. @default the route's `formats` (JSON, XML), JSON without
   */
  mediaTypesOf?(route: RouteInfo): readonly string[];
}

/** What the installed plugins add to every operation. */
interface Features {
  bearer: boolean;
  rateLimit: boolean;
  caching: boolean;
  cors: boolean;
  negotiation: boolean;
  /** The media types of a route. */
  typesOf: (route: RouteInfo) => readonly string[];
  /** The shared error responses used so far, by component name. */
  shared: Map<string, unknown>;
}

const header = (description: string, schema: JsonSchema = { type: 'string' }) => ({
  description,
  schema,
});
const rateLimitHeaders = {
  'X-RateLimit-Limit': header('Requests allowed in the window.', { type: 'integer' }),
  'X-RateLimit-Remaining': header('Requests left in the window.', { type: 'integer' }),
  'X-RateLimit-Reset': header('Seconds until the window resets.', { type: 'integer' }),
};

const tooManyHeaders = {
  'Retry-After': header('Seconds to wait before trying again.', { type: 'integer' }),
  ...rateLimitHeaders,
};

const methodOrder = ['GET', 'PUT', 'POST', 'DELETE', 'PATCH'];
const errorDescription = 'The error body of the specification: one entry per problem (spec 7).';
const tooManyDescription = 'The rate limit is reached (RFC 6585 §4, spec 8).';

/** `/v1/books/:id` → `/v1/books/{id}`, and its parameter names. */
function templateOf(pattern: string): { path: string; names: string[] } {
  const names: string[] = [];
  const path = pattern.replace(/[:*]([A-Za-z_$][\w$]*)/g, (_m, name: string) => {
    names.push(name);
    return `{${name}}`;
  });
  return { path, names };
}

const operationId = (method: string, path: string) =>
  method.toLowerCase() +
  path
    .split(/[^A-Za-z0-9]+/)
    .filter((s) => s !== '')
    .map((s) => s[0]!.toUpperCase() + s.slice(1))
    .join('');

function queryParameter(name: string, schema: JsonSchema, description: string, required = false) {
  return { name, in: 'query', required, description, schema };
}

/** The paging, filter, search, sort and shaping parameters of a list or resource route. */
function listParameters(route: RouteInfo): unknown[] {
  const { list, resource } = route.config;
  const out: unknown[] = [];
  if (list !== undefined) {
    const styles = list.styles ?? ['page', 'offset', 'cursor'];
    const int = (min: number) => ({ type: 'integer', minimum: min });
    if (styles.includes('page')) {
      out.push(queryParameter('page', int(1), 'The page, from 1 (spec 4.4).'));
    }
    if (styles.includes('page') || styles.includes('cursor')) {
      out.push(
        queryParameter(
          'per_page',
          { ...int(1), maximum: list.maxPerPage ?? 100 },
          'Items per page.',
        ),
      );
    }
    if (styles.includes('offset') || styles.includes('cursor')) {
      out.push(
        queryParameter('limit', { ...int(1), maximum: list.maxPerPage ?? 100 }, 'Items per page.'),
      );
    }
    if (styles.includes('offset')) out.push(queryParameter('offset', int(0), 'Items to skip.'));
    if (styles.includes('cursor')) {
      out.push(queryParameter('after', { type: 'string' }, 'The cursor of the last item seen.'));
      out.push(queryParameter('before', { type: 'string' }, 'The cursor of the first item seen.'));
    }
    for (const [field, type] of Object.entries(list.filters ?? {}).sort()) {
      const schema =
        type === 'date-time' ? { type: 'string', format: 'date-time' } : { type: type as string };
      out.push(queryParameter(field, schema, `Only items whose ${field} is this value.`));
    }
    if ((list.search ?? []).length > 0) {
      out.push(
        queryParameter(
          'q',
          { type: 'string', maxLength: list.maxSearchLength ?? 200 },
          `Search in ${(list.search ?? []).join(', ')}.`,
        ),
      );
    }
    out.push(
      queryParameter(
        'sort',
        { type: 'string' },
        `Fields to sort by, "-" for descending: ${[...(list.sort ?? []), list.key ?? 'id'].join(', ')}.`,
      ),
    );
    if (list.total === 'on-request') {
      out.push(
        queryParameter(
          'total',
          { type: 'boolean' },
          'Whether the envelope carries the total count.',
        ),
      );
    }
  }
  if (resource !== undefined) {
    out.push(
      queryParameter(
        'fields',
        { type: 'string' },
        'The fields to return, e.g. id,title,author(name) (spec 2.10).',
      ),
    );
    if (resource.views.length > 0) {
      out.push(
        queryParameter(
          'view',
          { type: 'string', enum: [...resource.views] },
          'A named set of fields.',
        ),
      );
    }
  }
  return out;
}

function parametersOf(route: RouteInfo, names: string[], options: OpenApiOptions): unknown[] {
  const params = route.config.params;
  const paramsSchema =
    params === undefined ? {} : standardJsonSchema(params, 'input', options.jsonSchema);
  const props = (paramsSchema.properties ?? {}) as Record<string, JsonSchema>;
  const out: unknown[] = names.map((name) => ({
    name,
    in: 'path',
    required: true,
    schema: props[name] ?? { type: 'string' },
  }));
  const query = route.config.query;
  if (query !== undefined) {
    const schema = standardJsonSchema(query, 'input', options.jsonSchema);
    const required = new Set((schema.required ?? []) as string[]);
    for (const [name, s] of Object.entries(
      (schema.properties ?? {}) as Record<string, JsonSchema>,
    ).sort()) {
      out.push(queryParameter(name, s, `The ${name} parameter.`, required.has(name)));
    }
  }
  out.push(...listParameters(route));
  return out;
}

function requestBodyOf(route: RouteInfo, options: OpenApiOptions): unknown {
  const body = route.config.body;
  if (body === undefined || !['POST', 'PUT', 'PATCH'].includes(route.method)) return undefined;
  const schema =
    '~standard' in (body as object)
      ? standardJsonSchema(body, 'input', options.jsonSchema)
      : fieldsSchema(
          body as never,
          route.method === 'PATCH',
          route.config.rejectUnknownFields ?? true,
        );
  const content: Record<string, unknown> = { 'application/json': { schema } };
  if (route.config.accepts?.includes('form'))
    content['application/x-www-form-urlencoded'] = { schema };
  return { required: true, content };
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

/** The same schema in each media type; an XML body has the same fields as the JSON one. */
const contentOf = (types: readonly string[], schema: unknown) =>
  Object.fromEntries(types.map((type) => [type, { schema }]));

/**
 * The error response in the route's media types, as a shared component: `Error` in JSON alone,
 * `ErrorJsonXml` where XML is offered too (and `TooManyRequests…` for 429), added to `shared`
 * on first use.
 */
function errorResponse(
  types: readonly string[],
  tooMany: boolean,
  shared: Map<string, unknown>,
): unknown {
  const formats = ['json', 'xml'].filter((f) => types.some((t) => t.endsWith(f)));
  const suffix =
    formats.length === 1 && formats[0] === 'json'
      ? ''
      : formats.map((f) => f[0]!.toUpperCase() + f.slice(1)).join('');
  const name = `${tooMany ? 'TooManyRequests' : 'Error'}${suffix}`;
  if (!shared.has(name)) {
    shared.set(name, {
      description: tooMany ? tooManyDescription : errorDescription,
      ...(tooMany ? { headers: tooManyHeaders } : {}),
      content: contentOf(types, { $ref: '#/components/schemas/Error' }),
    });
  }
  return { $ref: `#/components/responses/${name}` };
}

/**
 * A route's own response whose JSON body is also offered in the vendor types negotiation
 * echoes on that route (`application/vnd.acme+json`): the same schema under each.
 */
function withVendorTypes(response: OpenApiResponse, types: readonly string[]): OpenApiResponse {
  const json = response.content?.['application/json'];
  if (json === undefined) return response;
  const more = types.filter((t) => t.endsWith('+json') && response.content?.[t] === undefined);
  if (more.length === 0) return response;
  return {
    ...response,
    content: { ...response.content, ...Object.fromEntries(more.map((t) => [t, json])) },
  };
}

function successHeaders(route: RouteInfo, status: string, features: Features) {
  const headers: Record<string, unknown> = {};
  if (status === '201') headers.Location = header('The new resource.');
  if (features.caching && route.method === 'GET' && status === '200') {
    headers.ETag = header('The version of the representation (RFC 9110 §8.8.3).');
    headers['Last-Modified'] = header('When it last changed (RFC 9110 §8.8.2).');
    headers['Cache-Control'] = header('How the response may be cached (RFC 9111 §5.2).');
  }
  if (features.negotiation && route.method !== 'DELETE') {
    headers.Vary = header('Accept: the representation depends on it (RFC 9110 §12.5.5).');
  }
  if (features.cors) {
    headers['Access-Control-Allow-Origin'] = header(
      'The origin allowed to read the response, on cross-origin requests (Fetch standard).',
    );
  }
  if (features.rateLimit) Object.assign(headers, rateLimitHeaders);
  if (route.config.deprecation !== undefined) {
    headers.Deprecation = header('When the endpoint was deprecated (RFC 9745).');
    headers.Sunset = header('When it stops answering (RFC 8594).');
    headers.Link = header('The successor and the deprecation policy (RFC 8288, RFC 9745 §3).');
  }
  return headers;
}

function responsesOf(
  route: RouteInfo,
  secured: boolean,
  options: OpenApiOptions,
  features: Features,
): Record<string, unknown> {
  const types = features.typesOf(route);
  const given = route.config.response ?? {};
  const responses: Record<string, unknown> = {};
  // Without a declared response the success status is the handler's choice (a value is 200,
  // `created()` 201, `accepted()` 202, `noContent()` 204): only a GET is sure to be 200.
  const declared =
    Object.keys(given).length > 0 ? Object.keys(given) : [route.method === 'GET' ? '200' : '2XX'];
  for (const status of declared) {
    const schema = (given as Record<string, unknown>)[status];
    const headers = successHeaders(route, status, features);
    responses[status] = {
      description: status === '204' ? 'No content.' : 'Success.',
      ...(Object.keys(headers).length > 0 ? { headers } : {}),
      ...(status === '204'
        ? {}
        : {
            content: contentOf(
              types,
              schema === undefined ? {} : standardJsonSchema(schema, 'output', options.jsonSchema),
            ),
          }),
    };
  }
  const errors = ['400', '404', '406', '500', '503'];
  if (secured) errors.push('401', '403');
  if (['POST', 'PUT', 'PATCH'].includes(route.method)) errors.push('413', '415');
  if (route.config.deprecation !== undefined) errors.push('410');
  if (features.caching) errors.push('412');
  if (features.caching && route.config.requireIfMatch === true) errors.push('428');
  if (features.caching && route.method === 'GET') errors.push('304');
  if (features.rateLimit) errors.push('429');
  for (const status of errors.sort()) {
    responses[status] =
      status === '304'
        ? {
            description:
              'Not modified: the version the client holds is current (RFC 9110 §15.4.5).',
          }
        : errorResponse(types, status === '429', features.shared);
  }
  // Any other status the pipeline or the handler answers (405, 409, 414, 431…) is an error
  // with the same body (spec 7).
  responses.default = errorResponse(types, false, features.shared);
  const own = route.config.openapi?.responses;
  if (own !== undefined) {
    for (const [status, response] of Object.entries(own)) {
      responses[status] = withVendorTypes(response, types);
    }
  }
  return responses;
}

function operationOf(
  route: RouteInfo,
  path: string,
  names: string[],
  options: OpenApiOptions,
  features: Features,
) {
  const secured = features.bearer && route.config.auth !== false;
  const scopes = route.config.scopes ?? [];
  const own = route.config.openapi;
  const op: Record<string, unknown> = {
    operationId: operationId(route.method, path),
    summary: own?.summary ?? `${route.method} ${route.pattern}`,
    ...(own?.description !== undefined ? { description: own.description } : {}),
    ...(own?.tags !== undefined ? { tags: [...own.tags] } : {}),
    parameters: parametersOf(route, names, options),
  };
  const body = own?.requestBody ?? requestBodyOf(route, options);
  if (body !== undefined) op.requestBody = body;
  op.responses = responsesOf(route, secured, options, features);
  if (route.config.deprecation !== undefined) op.deprecated = true;
  op.security = secured
    ? [{ bearerAuth: [...scopes] }, ...(options.oauth2 ? [{ oauth2: [...scopes] }] : [])]
    : [];
  if ((op.parameters as unknown[]).length === 0) delete op.parameters;
  return op;
}

/**
 * Builds the OpenAPI 3.1 document of `api` (a `Conventions`): deterministic, so it can be
 * committed and diffed.
 *
 * @example
 * ```ts
 * const doc = openapi(api, { info: { title: 'Bookshelf', version: '1.0.0' } });
 * ```
 *
 * @category Routing
 */
export function openapi(api: DescribedApi, options: OpenApiOptions): Record<string, unknown> {
  if (typeof options?.info?.title !== 'string' || typeof options.info.version !== 'string') {
    throw new TypeError('openapi(): give info: { title, version }.');
  }
  const installed = api.plugins;
  const has = (name: string) => installed === undefined || installed.includes(name);
  const features: Features = {
    bearer: has('bearer'),
    rateLimit: has('rate-limit'),
    caching: has('caching'),
    cors: has('cors'),
    negotiation: has('negotiation'),
    typesOf: api.mediaTypesOf === undefined ? formatTypesOf : (route) => api.mediaTypesOf!(route),
    shared: new Map(),
  };
  const byPath = new Map<string, Record<string, unknown>>();
  const declared = new Set(api.routes.map((r) => `${r.method} ${r.pattern}`));
  const own = (api.appRoutes ?? []).filter((r) => !declared.has(`${r.method} ${r.pattern}`));
  const routes = [...api.routes, ...own]
    .filter((r) => methodOrder.includes(r.method))
    .map((route) => ({ route, key: templateOf(route.pattern).path }))
    .sort((a, b) =>
      a.key === b.key
        ? methodOrder.indexOf(a.route.method) - methodOrder.indexOf(b.route.method)
        : a.key < b.key
          ? -1
          : 1,
    )
    .map(({ route }) => route);
  for (const route of routes) {
    const { path, names } = templateOf(route.pattern);
    let item = byPath.get(path);
    if (item === undefined) {
      item = {};
      byPath.set(path, item);
    }
    item[route.method.toLowerCase()] = operationOf(route, path, names, options, features);
  }
  const securitySchemes: Record<string, unknown> = features.bearer
    ? { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } }
    : {};
  if (options.oauth2 !== undefined) {
    const { tokenUrl, authorizationUrl, scopes = {} } = options.oauth2;
    securitySchemes.oauth2 = {
      type: 'oauth2',
      flows: {
        password: { tokenUrl, scopes },
        clientCredentials: { tokenUrl, scopes },
        ...(authorizationUrl ? { authorizationCode: { authorizationUrl, tokenUrl, scopes } } : {}),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: options.info,
    servers: options.servers ?? [{ url: '/' }],
    paths: Object.fromEntries(byPath),
    components: {
      schemas: {
        Error: {
          type: 'object',
          required: ['errors'],
          properties: {
            errors: {
              type: 'array',
              minItems: 1,
              items: {
                type: 'object',
                required: ['message', 'code'],
                properties: { message: { type: 'string' }, code: { type: 'integer' } },
              },
            },
          },
        },
      },
      responses: Object.fromEntries([...features.shared].sort(([a], [b]) => (a < b ? -1 : 1))),
      securitySchemes,
    },
  };
}
