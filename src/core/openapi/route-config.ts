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
  /** The body's JSON Schema. */
  schema: JsonSchema;
}

/**
 * What a route says of itself in the OpenAPI document, over what {@link openapi} derives from
 * its settings: a summary, a description, tags, and responses by status (`'200'`, `'303'`),
 * each replacing the derived one of that status. Routes a plugin serves (the OAuth endpoints,
 * job status resources) describe their bodies this way.
 *
 * @category Routing
 */
export interface OpenApiOperationSettings {
  /** A short summary. @default "METHOD /pattern" */
  summary?: string;
  /** A longer description, CommonMark allowed. */
  description?: string;
  /** Tags that group operations in a documentation page. */
  tags?: readonly string[];
  /** The request body, replacing the one derived from the `body` setting. */
  requestBody?: OpenApiRequestBody;
  /** Responses by status, replacing the derived ones of the same status. */
  responses?: Readonly<Record<string, OpenApiResponse>>;
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

declare module '../routing/types.ts' {
  interface RouteConfig {
    /**
     * What the route says of itself in the OpenAPI document (summary, description, tags,
     * responses), over what {@link openapi} derives from its other settings. @default nothing
     */
    openapi?: OpenApiOperationSettings;
  }
}
