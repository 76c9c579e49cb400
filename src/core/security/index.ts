/** Security (spec 4.8): the header set, HTTPS, cookies, CORS, CSRF and access checks. */
export {
  type CorsOptions,
  type CorsOrigin,
  cors,
  defaultExposedHeaders,
  originNotAllowed,
} from './cors.ts';
export type {
  AuthorizeHook,
  SecurityHeaderOverrides,
  SecurityRouteConfig,
} from './route-config.ts';
export {
  type HstsOptions,
  httpsRequired,
  type PublicKeyPinsOptions,
  type SecurityHeadersOptions,
  securityHeaders,
} from './security-headers.ts';
