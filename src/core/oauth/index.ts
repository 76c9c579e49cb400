/** The OAuth 2.0 authorization server: token endpoint and grants, revocation, introspection, metadata. */
export type { AuthorizationCheck } from './authorization-check.ts';
export type { AuthorizationRequest } from './authorization-request.ts';
export type { AuthorizationHelpers } from './authorize.ts';
export { type OAuthErrorWord, oauthError } from './errors.ts';
export type { AuthorizationServerMetadata } from './metadata.ts';
export { type OAuthServer, oauthServer } from './oauth-server.ts';
export type {
  AccessTokenRequest,
  AccessTokenSide,
  BruteForceOptions,
  GrantType,
  OAuthClient,
  OAuthServerOptions,
  OAuthUser,
} from './options.ts';
export type { IntrospectionResponse } from './revoke-introspect.ts';
export { hashClientSecret } from './secrets.ts';
export type { TokenResponse } from './token-endpoint.ts';
