/** The options of {@link openapi} and what it reads of the API it describes. */

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
   * `toJsonSchema`, whose `JSONSchema7` result is taken as it is); `undefined` falls back to
   * the schema's own `~standard.jsonSchema`.
   */
  jsonSchema?: (schema: unknown, io: 'input' | 'output') => object | undefined;
  /** OAuth 2.0 endpoints and scopes, for an `oauth2` security scheme beside the bearer one. */
  oauth2?: OpenApiOAuth2;
  /**
   * What each tag groups, for a documentation page. @default each tag the operations use, as
   * "Operations on <tag>."
   */
  tags?: readonly OpenApiTag[];
  /**
   * What the `negotiation()` plugin was given, where it differs from its defaults: the query
   * parameter that picks a format (`false` for none) and the XML root element.
   * @default { query: 'format', xmlRoot: 'response' }
   */
  negotiation?: OpenApiNegotiation;
}

/**
 * A tag of the document (OpenAPI 3.1 §4.8.22): its name and what the operations it groups do.
 *
 * @category Routing
 */
export interface OpenApiTag {
  /** The tag, as operations name it (`books`). */
  name: string;
  /** What its operations are about, CommonMark allowed. */
  description: string;
}

/**
 * The settings of the `negotiation()` plugin the document needs to describe its answers.
 *
 * @category Routing
 */
export interface OpenApiNegotiation {
  /** The query parameter that picks a format, as the plugin's `query` option. @default 'format' */
  query?: string | false;
  /** The root element of XML bodies, as the plugin's `xml.root` option. @default 'response' */
  xmlRoot?: string;
}
