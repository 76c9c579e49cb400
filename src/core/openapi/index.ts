/** The OpenAPI 3.1 document of an API, from its routes and their settings. */
import './route-config.ts';

export {
  type DescribedApi,
  type OpenApiInfo,
  type OpenApiLicense,
  type OpenApiOAuth2,
  type OpenApiOptions,
  type OpenApiServer,
  openapi,
} from './document.ts';
export type { JsonSchema } from './json-schema.ts';
export type {
  OpenApiHeader,
  OpenApiMediaType,
  OpenApiOperationSettings,
  OpenApiRequestBody,
  OpenApiResponse,
} from './route-config.ts';
export { type ServeOpenApiOptions, serveOpenApi } from './serve-open-api.ts';
