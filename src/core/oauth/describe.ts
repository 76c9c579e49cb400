/**
 * The OAuth endpoints in the OpenAPI document: their RFC shapes, through the `openapi` route
 * setting (the routes are the plugin's, so are their descriptions).
 */
import type { OpenApiOperationSettings, OpenApiResponse } from '../openapi/route-config.ts';

const json = (schema: Record<string, unknown>) => ({ 'application/json': { schema } });
const str = { type: 'string' };

/** RFC 6749 §5.2: `error` and `error_description`, beside the spec's own error body. */
const oauthError: OpenApiResponse = {
  description: 'An OAuth error (RFC 6749 §5.2), with the error body of the specification too.',
  content: json({
    allOf: [{ $ref: '#/components/schemas/Error' }],
    type: 'object',
    required: ['error'],
    properties: { error: str, error_description: str },
  }),
};

/** A form of the client's parameters (RFC 6749 §2.3.1 allows the client's credentials in it). */
const form = (properties: Record<string, unknown>, required: string[]) => ({
  required: true,
  content: {
    'application/x-www-form-urlencoded': {
      schema: {
        type: 'object',
        required,
        properties: { ...properties, client_id: str, client_secret: str },
      },
    },
  },
});

/** `POST …/token` (RFC 6749 §5.1, spec 4.9). */
export const tokenDocument: OpenApiOperationSettings = {
  summary: 'Issue an access token',
  tags: ['oauth'],
  requestBody: form(
    {
      grant_type: {
        type: 'string',
        enum: ['password', 'client_credentials', 'refresh_token', 'authorization_code'],
      },
      username: str,
      password: str,
      scope: str,
      refresh_token: str,
      code: str,
      redirect_uri: str,
      code_verifier: str,
    },
    ['grant_type'],
  ),
  responses: {
    '200': {
      description: 'A token (RFC 6749 §5.1): never stored by caches.',
      content: json({
        type: 'object',
        required: ['access_token', 'token_type', 'expires_in'],
        properties: {
          access_token: str,
          token_type: { type: 'string', enum: ['Bearer'] },
          expires_in: { type: 'integer' },
          refresh_token: str,
          scope: str,
        },
      }),
    },
    '400': oauthError,
    '401': oauthError,
  },
};

/** `POST …/revoke` (RFC 7009 §2.2): 200 whether or not the token was known. */
export const revokeDocument: OpenApiOperationSettings = {
  summary: 'Revoke a token',
  tags: ['oauth'],
  requestBody: form({ token: str, token_type_hint: str }, ['token']),
  responses: {
    '200': {
      description: 'Revoked, or unknown (RFC 7009 §2.2).',
      content: json({ type: 'object' }),
    },
    '400': oauthError,
    '401': oauthError,
  },
};

/** `POST …/introspect` (RFC 7662 §2.2). */
export const introspectDocument: OpenApiOperationSettings = {
  summary: 'Introspect a token',
  tags: ['oauth'],
  requestBody: form({ token: str, token_type_hint: str }, ['token']),
  responses: {
    '200': {
      description: 'Whether the token is active, and its claims when it is (RFC 7662 §2.2).',
      content: json({
        type: 'object',
        required: ['active'],
        properties: {
          active: { type: 'boolean' },
          scope: str,
          client_id: str,
          sub: str,
          exp: { type: 'integer' },
          iat: { type: 'integer' },
          iss: str,
          aud: {},
          token_type: str,
        },
      }),
    },
    '400': oauthError,
    '401': oauthError,
  },
};

/** `GET /.well-known/oauth-authorization-server` (RFC 8414 §3.2). */
export const metadataDocument: OpenApiOperationSettings = {
  summary: 'The authorization server metadata',
  tags: ['oauth'],
  responses: {
    '200': {
      description: 'RFC 8414 §2 metadata.',
      content: json({
        type: 'object',
        required: ['issuer', 'token_endpoint'],
        properties: {
          issuer: str,
          token_endpoint: str,
          jwks_uri: str,
          revocation_endpoint: str,
          introspection_endpoint: str,
          authorization_endpoint: str,
          grant_types_supported: { type: 'array', items: str },
          scopes_supported: { type: 'array', items: str },
        },
      }),
    },
  },
};

/** `GET …/jwks` (RFC 7517 §5). */
export const jwksDocument: OpenApiOperationSettings = {
  summary: 'The token signing keys',
  tags: ['oauth'],
  responses: {
    '200': {
      description: 'A JWK set of the public keys tokens are signed with (RFC 7517 §5).',
      content: json({
        type: 'object',
        required: ['keys'],
        properties: {
          keys: {
            type: 'array',
            items: {
              type: 'object',
              required: ['kty'],
              properties: { kty: str, kid: str, alg: str, use: str },
            },
          },
        },
      }),
    },
  },
};
