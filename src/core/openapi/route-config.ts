/** The `openapi` route setting: what a route adds to, or says instead of, its generated operation. */
import type { JsonSchema } from './json-schema.ts';

/**
 * One documented response of an operation (OpenAPI 3.1 §4.8.17): its description, headers and
 * body per media type, each body as a JSON Schema 2020-12.
 *
 * @category Routing
 */
export interface OpenApiResponse {
  /** What the response means. */
  description: string;
  /** Its headers, each with a description and a schema. */
  headers?: Readonly<Record<string, OpenApiHeader>>;
  /** Its body per media type (`application/json`), each as a JSON Schema. */
  content?: Readonly<Record<string, OpenApiMediaType>>;
}

/**
 * A response header (OpenAPI 3.1 §4.8.21).
 *
 * @category Routing
 */
export interface OpenApiHeader {
  /** What it says. */
  description: string;
  /** Its value's schema. */
  schema: JsonSchema;
}

/**
 * A body in one media type (OpenAPI 3.1 §4.8.14).
 *
 * @category Routing
 */
export interface OpenApiMediaType {
  /** The body's JSON Schema; its `$defs` become named components of the document. */
  schema: JsonSchema;
  /** An example of the body. */
  example?: unknown;
}

/**
 * A parameter of an operation (OpenAPI 3.1 §4.8.12): one the route reads itself, beside those
 * its settings declare.
 *
 * @category Routing
 */
export interface OpenApiParameter {
  /** Its name. */
  name: string;
  /** Where it is sent. */
  in: 'query' | 'header' | 'path' | 'cookie';
  /** What it means. */
  description?: string;
  /** Whether every request must carry it. @default false (true in the path) */
  required?: boolean;
  /** Its value's schema. */
  schema: JsonSchema;
}

/**
 * Examples of a route's bodies, carried into the document (OpenAPI 3.1 §4.8.14): the request
 * body's, and a response's by status.
 *
 * @category Routing
 */
export interface OpenApiExamples {
  /** An example request body. */
  body?: unknown;
  /** An example response body per status (`'200'`, `'201'`). */
  responses?: Readonly<Record<string, unknown>>;
}

/**
 * A security scheme (OpenAPI 3.1 §4.8.27): how a client proves who it is on the routes that name
 * it in their `security`.
 *
 * @category Routing
 */
export interface OpenApiSecurityScheme {
  /** `http` (Basic, Bearer), `apiKey`, `oauth2`, `openIdConnect` or `mutualTLS`. */
  type: 'http' | 'apiKey' | 'oauth2' | 'openIdConnect' | 'mutualTLS';
  /** What the client sends. */
  description?: string;
  /** The HTTP authentication scheme of a `http` scheme (`basic`, `bearer`). */
  scheme?: string;
  /** The format of a bearer token (`JWT`). */
  bearerFormat?: string;
  /** The header, query parameter or cookie of an `apiKey` scheme. */
  name?: string;
  /** Where an `apiKey` goes. */
  in?: 'query' | 'header' | 'cookie';
  /** The flows of an `oauth2` scheme. */
  flows?: Readonly<Record<string, unknown>>;
  /** The discovery document of an `openIdConnect` scheme. */
  openIdConnectUrl?: string;
}

/**
 * What a route says of itself in the OpenAPI document, over what {@link openapi} derives from
 * its settings: a summary, a description, tags, responses by status (`'200'`, `'303'`), each
 * replacing the derived one of that status, examples, security, or that it is no operation of
 * the API at all (`hide`). Routes a plugin serves (the OAuth endpoints,
 * job status resources) describe their bodies this way.
 *
 * @category Routing
 */
export interface OpenApiOperationSettings {
  /** A short summary. @default from the method and the resource: "List books", "Read a book" */
  summary?: string;
  /** A longer description, CommonMark allowed. */
  description?: string;
  /** Tags that group operations in a documentation page. @default the resource: `books` */
  tags?: readonly string[];
  /** Parameters the route reads itself, beside (or replacing, by name) the derived ones. */
  parameters?: readonly OpenApiParameter[];
  /** The request body, replacing the one derived from the `body` setting. */
  requestBody?: OpenApiRequestBody;
  /**
   * Responses by status, replacing the derived ones of the same status. A success (`'2XX'`,
   * `'201'`) or, on a method other than GET, a redirect (`'303'`) given here stands instead of
   * the success the document would otherwise derive.
   */
  responses?: Readonly<Record<string, OpenApiResponse>>;
  /** Examples of the request body and of responses by status. */
  example?: OpenApiExamples;
  /**
   * Who may call, as OpenAPI security requirements, replacing the derived ones (the bearer
   * token and its scopes); `[]` for none. Each scheme named is in `securitySchemes` here or
   * the document's own.
   */
  security?: readonly Readonly<Record<string, readonly string[]>>[];
  /** Security schemes the route's `security` names, added to the document's components. */
  securitySchemes?: Readonly<Record<string, OpenApiSecurityScheme>>;
  /**
   * `true` leaves the route out of the document: a page for people or its assets, not an
   * operation of the API. @default false
   */
  hide?: boolean;
}

/**
 * A request body of an operation (OpenAPI 3.1 §4.8.13): per media type, a JSON Schema.
 *
 * @category Routing
 */
export interface OpenApiRequestBody {
  /** What it is. */
  description?: string;
  /** Whether a body must be sent. @default false */
  required?: boolean;
  /** Its schema per media type (`application/x-www-form-urlencoded`). */
  content: Readonly<Record<string, OpenApiMediaType>>;
}

declare module '../kernel/route-types.ts' {
  interface RouteConfig {
    /**
     * What the route says of itself in the OpenAPI document (summary, description, tags,
     * responses, examples, security, `hide`), over what {@link openapi} derives from its other
     * settings. @default nothing
     */
    openapi?: OpenApiOperationSettings;
  }
}
