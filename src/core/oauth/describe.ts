/**
 * The OAuth endpoints in the OpenAPI document: their RFC bodies as named schemas and the client
 * authentication they ask for, through the `openapi` route setting (the routes are the plugin's,
 * so are their descriptions).
 */
import type { OpenApiOperationSettings, OpenApiResponse } from '../openapi/route-config.ts';
import type { GrantType } from './options.ts';
import type { ResolvedOAuth } from './resolve.ts';

type Schema = Record<string, unknown>;

const str = { type: 'string' };
const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
/** A JSON body whose schema is the definition `name`: the document names it `name`. */
const named = (name: string, schema: Schema) => ({
  'application/json': { schema: { ...ref(name), $defs: { [name]: schema } } },
});

/** RFC 6749 §5.2's `error` words, and RFC 6750's and RFC 7009's the endpoints also send. */
const errorWords = [
  'invalid_request',
  'invalid_client',
  'invalid_grant',
  'unauthorized_client',
  'unsupported_grant_type',
  'invalid_scope',
  'unsupported_token_type',
  'access_denied',
  'server_error',
  'temporarily_unavailable',
];

/** RFC 6749 §5.2: `error` and `error_description`, beside the spec's own error body. */
const oauthErrorSchema: Schema = {
  allOf: [{ $ref: '#/components/schemas/Error' }],
  type: 'object',
  description: 'An OAuth error (RFC 6749 §5.2), with the error body of the specification too.',
  required: ['error'],
  properties: {
    error: { type: 'string', enum: errorWords },
    error_description: str,
  },
};

const oauthError = (description: string): OpenApiResponse => ({
  description,
  content: named('OAuthError', oauthErrorSchema),
});

const noStore = {
  'Cache-Control': { description: 'no-store: never cached (RFC 6749 §5.1).', schema: str },
  Pragma: { description: 'no-cache, for HTTP/1.0 caches (RFC 6749 §5.1).', schema: str },
};

/**
 * How a client proves who it is (RFC 6749 §2.3): HTTP Basic with its id and secret, the
 * `clientBasic` scheme; where the server also takes them in the body (`client_secret_post`) or
 * knows public clients, the empty requirement says a request may carry no `Authorization` (the
 * body's `client_id` and `client_secret` then, which OpenAPI has no scheme for).
 */
function clientAuth(
  o: ResolvedOAuth,
): Pick<OpenApiOperationSettings, 'security' | 'securitySchemes'> {
  const publicClients = [...o.clients.values()].some((c) => c.secretDigest === undefined);
  return {
    security: [{ clientBasic: [] }, ...(o.clientSecretPost || publicClients ? [{}] : [])],
    securitySchemes: {
      clientBasic: {
        type: 'http',
        scheme: 'basic',
        description:
          "The client's id and secret, each form-encoded, as HTTP Basic credentials (RFC 6749 §2.3.1): client_secret_basic.",
      },
    },
  };
}

/** A form of the client's parameters, with its credentials where the server takes them there. */
function form(o: ResolvedOAuth, name: string, properties: Schema, required: string[]) {
  const credentials = {
    client_id: { type: 'string', description: 'The client, when it sends no Basic credentials.' },
    ...(o.clientSecretPost
      ? { client_secret: { type: 'string', description: 'Its secret (client_secret_post).' } }
      : {}),
  };
  const schema = { type: 'object', required, properties: { ...properties, ...credentials } };
  return {
    required: true,
    content: {
      'application/x-www-form-urlencoded': { schema: { ...ref(name), $defs: { [name]: schema } } },
    },
  };
}

/** `POST …/token` (RFC 6749 §3.2, §5.1, spec 4.9). */
function tokenDocument(o: ResolvedOAuth): OpenApiOperationSettings {
  const grants = new Set<GrantType>();
  for (const client of o.clients.values()) for (const g of client.grants) grants.add(g);
  grants.delete('implicit');
  return {
    summary: 'Issue an access token',
    description:
      'The grants of RFC 6749 (password, client credentials, authorization code with PKCE, refresh token), each client limited to its own.',
    tags: ['oauth'],
    requestBody: form(
      o,
      'TokenRequest',
      {
        grant_type: { type: 'string', enum: [...grants].sort() },
        username: str,
        password: str,
        scope: { type: 'string', description: 'Scopes, space-separated.' },
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
        headers: noStore,
        content: named('TokenResponse', {
          type: 'object',
          required: ['access_token', 'token_type', 'expires_in'],
          properties: {
            access_token: str,
            token_type: { type: 'string', enum: ['Bearer'] },
            expires_in: { type: 'integer', minimum: 1, description: 'Seconds until it expires.' },
            refresh_token: str,
            scope: { type: 'string', description: 'The scopes granted, space-separated.' },
          },
          examples: [
            {
              access_token: 'eyJhbGciOiJFUzI1NiJ9.e30.sig',
              token_type: 'Bearer',
              expires_in: 3600,
              refresh_token: 'r1.9f2c',
              scope: 'books:read',
            },
          ],
        }),
      },
      '400': oauthError('A request the endpoint cannot grant (RFC 6749 §5.2).'),
      '401': oauthError('Client authentication failed (RFC 6749 §5.2: invalid_client).'),
    },
    ...clientAuth(o),
  };
}

/** `POST …/revoke` (RFC 7009 §2.2): 200 whether or not the token was known. */
function revokeDocument(o: ResolvedOAuth): OpenApiOperationSettings {
  return {
    summary: 'Revoke a token',
    tags: ['oauth'],
    requestBody: form(o, 'RevocationRequest', { token: str, token_type_hint: str }, ['token']),
    responses: {
      '200': {
        description: 'Revoked, or unknown (RFC 7009 §2.2): an empty object.',
        headers: noStore,
        content: named('Revocation', { type: 'object', additionalProperties: false }),
      },
      '400': oauthError('A request the endpoint cannot read (RFC 7009 §2.2.1).'),
      '401': oauthError('Client authentication failed (RFC 6749 §5.2: invalid_client).'),
    },
    ...clientAuth(o),
  };
}

/** `POST …/introspect` (RFC 7662 §2.2). */
function introspectDocument(o: ResolvedOAuth): OpenApiOperationSettings {
  return {
    summary: 'Introspect a token',
    tags: ['oauth'],
    requestBody: form(o, 'IntrospectionRequest', { token: str, token_type_hint: str }, ['token']),
    responses: {
      '200': {
        description: 'Whether the token is active, and its claims when it is (RFC 7662 §2.2).',
        headers: noStore,
        content: named('Introspection', {
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
            aud: { anyOf: [str, { type: 'array', items: str }] },
            token_type: str,
          },
        }),
      },
      '400': oauthError('A request the endpoint cannot read (RFC 7662 §2.3).'),
      '401': oauthError('Client authentication failed (RFC 6749 §5.2: invalid_client).'),
    },
    ...clientAuth(o),
  };
}

/** `GET /.well-known/oauth-authorization-server` (RFC 8414 §3.2). */
export const metadataDocument: OpenApiOperationSettings = {
  summary: 'The authorization server metadata',
  tags: ['oauth'],
  responses: {
    '200': {
      description: 'RFC 8414 §2 metadata.',
      content: named('AuthorizationServerMetadata', {
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
      content: named('JwkSet', {
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

/** The documents of the endpoints that depend on the server's options. */
export function oauthDocuments(o: ResolvedOAuth) {
  return { token: tokenDocument(o), revoke: revokeDocument(o), introspect: introspectDocument(o) };
}
