/**
 * `api-conventions/oauth`: the OAuth 2.0 authorization server (RFC 6749) as a plugin — the token
 * endpoint and its grants, refresh-token rotation, revocation (RFC 7009), introspection (RFC 7662),
 * metadata (RFC 8414) and the helpers an authorization page is built on. A service that only
 * checks tokens needs `bearer()` from `api-conventions`, not this. The guide:
 * [The OAuth 2.0 server](../docs/oauth.md).
 *
 * @module api-conventions/oauth
 */
// The server shares the one copy of the core (`#core`, package.json "imports") with every subpath.
export {
  type AccessTokenClaims,
  type AccessTokenRequest,
  type AccessTokenSide,
  type AuthorizationCheck,
  type AuthorizationHelpers,
  type AuthorizationRequest,
  type AuthorizationServerMetadata,
  type BruteForceOptions,
  type GrantType,
  hashClientSecret,
  type IntrospectionResponse,
  type IssuedAccessToken,
  issueAccessToken,
  type OAuthClient,
  type OAuthErrorWord,
  type OAuthServer,
  type OAuthServerOptions,
  type OAuthUser,
  oauthError,
  oauthServer,
  type TokenResponse,
} from '#core';
