/** Security (spec 4.8): the header set, HTTPS, cookies, CORS, CSRF and access checks. */

export { type AccessChecksOptions, accessChecks } from './access-checks.ts';
export { type CookieOptions, readCookie, serializeCookie } from './cookies.ts';
export {
  type CorsOptions,
  type CorsOrigin,
  cors,
  defaultExposedHeaders,
  originNotAllowed,
} from './cors.ts';
export { type CsrfOptions, type CsrfPlugin, csrf } from './csrf.ts';
export type {
  AuthorizeHook,
  ReferrerPolicyValue,
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
