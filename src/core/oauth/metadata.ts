/** The RFC 8414 authorization-server metadata document and the JWKS route's answer. */
import type { RequestContext } from '../kernel/context.ts';
import type { ResolvedOAuth } from './resolve.ts';

/**
 * The RFC 8414 §2 metadata the server publishes at `/.well-known/oauth-authorization-server`.
 *
 * @category OAuth server
 */
export interface AuthorizationServerMetadata {
  /** The issuer identifier (`iss` of every token). */
  issuer: string;
  /** Every other member of RFC 8414 §2 the server fills in. */
  [member: string]: unknown;
}

/** The parts of the document that depend only on the options, computed once. */
export function compileMetadata(
  o: ResolvedOAuth,
): (ctx: RequestContext) => AuthorizationServerMetadata {
  const clients = [...o.clients.values()];
  const grants = new Set(clients.flatMap((c) => [...c.grants]));
  const hasPublic = clients.some((c) => c.secretDigest === undefined);
  const authMethods = [
    'client_secret_basic',
    ...(o.clientSecretPost ? ['client_secret_post'] : []),
  ];
  const responseTypes = [
    ...(grants.has('authorization_code') ? ['code'] : []),
    ...(grants.has('implicit') ? ['token'] : []),
  ];
  const fixed = {
    grant_types_supported: [...grants].sort(),
    response_types_supported: responseTypes,
    scopes_supported: [...o.scopes],
    token_endpoint_auth_methods_supported: [...authMethods, ...(hasPublic ? ['none'] : [])],
    revocation_endpoint_auth_methods_supported: [...authMethods, ...(hasPublic ? ['none'] : [])],
    introspection_endpoint_auth_methods_supported: authMethods,
    code_challenge_methods_supported: ['S256'],
  };
  const endpoint = o.authorizationEndpoint;
  return (ctx) => {
    const issuer = o.issuerOf(ctx);
    const url = (path: string) => new URL(path, issuer).href;
    return {
      issuer,
      ...(endpoint !== undefined
        ? {
            authorization_endpoint: url(endpoint),
            // RFC 9207: the authorization response carries `iss`.
            authorization_response_iss_parameter_supported: true,
          }
        : {}),
      token_endpoint: url(o.paths.token),
      revocation_endpoint: url(o.paths.revoke),
      introspection_endpoint: url(o.paths.introspect),
      jwks_uri: url(o.paths.jwks),
      ...fixed,
    };
  };
}
