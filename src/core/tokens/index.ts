/** Access tokens: signing keys and JWKS, RFC 9068 issuing, RFC 6750 bearer checks with a verified-token cache. */
// What this folder adds to RouteConfig by declaration merging: `auth`, `scopes`, `user`.
import './route-config.ts';

export { BearerPlugin, bearer } from './bearer.ts';
export type { BearerOptions, PerRequest } from './bearer-options.ts';
export { type AccessTokenClaims, type IssuedAccessToken, issueAccessToken } from './issue.ts';
export {
  createTokenKeys,
  type JwkSet,
  type TokenAlgorithm,
  type TokenKey,
  type TokenKeyInput,
  TokenKeys,
  type TokenKeysOptions,
} from './keys.ts';
export type { Expected as TokenExpectations } from './verifier.ts';
