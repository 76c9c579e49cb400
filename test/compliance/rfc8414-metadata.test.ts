/** The authorization-server metadata (RFC 8414 §2, §3) and the JWKS route, on every host. */
import { expect, it } from 'vitest';
import { describeMatrix } from '../conformance/_matrix.ts';
import { oauthApp } from './_oauth-app.ts';

describeMatrix(
  'OAuth metadata (RFC 8414)',
  () => oauthApp().app,
  (served) => {
    it('publishes the metadata at /.well-known/oauth-authorization-server with the issuer it was fetched from (RFC 8414 §3.1, §3.3)', async () => {
      const res = await served.fetchAs('anonymous', '/.well-known/oauth-authorization-server');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const issuer = served.url('');
      expect(await res.json()).toEqual({
        issuer,
        authorization_endpoint: `${issuer}/v1/oauth2/authorize`,
        authorization_response_iss_parameter_supported: true,
        token_endpoint: `${issuer}/v1/oauth2/token`,
        revocation_endpoint: `${issuer}/v1/oauth2/revoke`,
        introspection_endpoint: `${issuer}/v1/oauth2/introspect`,
        jwks_uri: `${issuer}/v1/oauth2/jwks`,
        grant_types_supported: [
          'authorization_code',
          'client_credentials',
          'implicit',
          'password',
          'refresh_token',
        ],
        response_types_supported: ['code', 'token'],
        scopes_supported: ['books:read', 'books:write'],
        token_endpoint_auth_methods_supported: ['client_secret_basic', 'none'],
        revocation_endpoint_auth_methods_supported: ['client_secret_basic', 'none'],
        introspection_endpoint_auth_methods_supported: ['client_secret_basic'],
        code_challenge_methods_supported: ['S256'],
      });
    });

    it('serves the JWKS document without a token (RFC 8414 §2 jwks_uri)', async () => {
      const res = await served.fetchAs('anonymous', '/v1/oauth2/jwks');
      expect(res.status).toBe(200);
      expect(await res.json()).toHaveProperty('keys');
    });
  },
);
