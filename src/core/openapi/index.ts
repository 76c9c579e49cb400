/** The OpenAPI 3.1 document of an API, from its routes and their settings. */
import './route-config.ts';

export { openapi } from './document.ts';
export type { JsonSchema } from './json-schema.ts';
export type {
  OpenApiInfo,
  OpenApiLicense,
  OpenApiNegotiation,
  OpenApiOAuth2,
  OpenApiOptions,
  OpenApiServer,
  OpenApiTag,
} from './options.ts';
export type {
  OpenApiExamples,
  OpenApiHeader,
  OpenApiMediaType,
  OpenApiOperationSettings,
  OpenApiParameter,
  OpenApiRequestBody,
  OpenApiResponse,
  OpenApiSecurityScheme,
} from './route-config.ts';
export { type ServeOpenApiOptions, serveOpenApi } from './serve-open-api.ts';
