/**
 * The bookshelf's OAuth part: the demo client and users, the token endpoint and its siblings,
 * `/v1/me`, and a sign-in endpoint for the authorization-code flow.
 */
import {
  bearer,
  type ConventionsOptions,
  createTokenKeys,
  type PathMethods,
  type Plugin,
  type RequestContext,
  type RouteConfig,
  type RouteDefinition,
  type RouteTable,
  type Store,
  type TokenKeys,
} from 'api-conventions';
import {
  issueAccessToken,
  type OAuthClient,
  type OAuthServer,
  type OAuthUser,
  oauthError,
  oauthServer,
} from 'api-conventions/oauth';

/** The demo users: name → password and the scopes they may grant. */
export const bookshelfUsers: Readonly<Record<string, { password: string; scopes: string[] }>> = {
  alice: { password: 'wonderland', scopes: ['books:read', 'books:write'] },
  bob: { password: 'builder', scopes: ['books:read'] },
};

/** Where the demo web client wants its authorization answers. */
export const demoRedirectUri = 'https://app.example.com/callback';

/** Where the demo browser app's sign-ins come back to (see `OAuthSettings.browserRedirectUris`). */
export const demoBrowserRedirectUri = 'https://app.example.com/signed-in';

/**
 * The demo clients. `demo-client` has the grants of the contract (password, client
 * credentials, refresh); `demo-web` shows the authorization-code flow with PKCE; `demo-browser`
 * is a public client (no secret) for a page in the browser: the same flow, the client proven by
 * PKCE alone.
 */
export const bookshelfClients: readonly OAuthClient[] = [
  {
    id: 'demo-client',
    secret: 'demo-secret',
    grants: ['password', 'client_credentials', 'refresh_token'],
  },
  {
    id: 'demo-web',
    secret: 'demo-web-secret',
    grants: ['authorization_code', 'refresh_token'],
    redirectUris: [demoRedirectUri],
  },
  {
    id: 'demo-browser',
    grants: ['authorization_code', 'refresh_token'],
    redirectUris: [demoBrowserRedirectUri],
  },
];

/** Checks a demo user's password; one answer (`undefined`) for an unknown user and a wrong password. */
export function verifyBookshelfUser(username: string, password: string): OAuthUser | undefined {
  const user = Object.hasOwn(bookshelfUsers, username) ? bookshelfUsers[username] : undefined;
  return user !== undefined && user.password === password
    ? { subject: username, scopes: user.scopes }
    : undefined;
}

// The sign-in endpoint authenticates users itself: no bearer token there.
// RFC 6749 §4.1.2: the answer goes back to the client's redirect_uri, with a code or an error.
const redirects = {
  '302': {
    description: "Back to the client's redirect_uri with a code, or an error (RFC 6749 §4.1.2).",
    headers: {
      Location: { description: 'The redirect_uri and its parameters.', schema: { type: 'string' } },
    },
  },
  '303': {
    description: "Back to the client's redirect_uri after the sign-in form (RFC 6749 §4.1.2).",
    headers: {
      Location: { description: 'The redirect_uri and its parameters.', schema: { type: 'string' } },
    },
  },
};
const str = { type: 'string' };
// What GET describes: the request a sign-in page would show.
const authorizationRequest = {
  description: 'The authorization request, checked: what a sign-in page would show.',
  content: {
    'application/json': {
      schema: {
        type: 'object',
        required: ['clientId', 'signIn'],
        properties: { clientId: str, scope: str, signIn: str },
      },
    },
  },
};
// What POST reads: the authorization request's parameters, and the user's sign-in.
const signInForm = {
  required: true,
  content: {
    'application/x-www-form-urlencoded': {
      schema: {
        type: 'object',
        required: ['response_type', 'client_id', 'username', 'password'],
        properties: {
          response_type: str,
          client_id: str,
          redirect_uri: str,
          scope: str,
          state: str,
          code_challenge: str,
          code_challenge_method: str,
          username: str,
          password: str,
        },
      },
    },
  },
};
const authorizeTags = ['oauth'];
// RFC 6749 §4.1.1 and RFC 7636 §4.3: what the client puts in the query.
const authorizationParameters = [
  ['response_type', 'code (or token where the implicit grant is on).', true],
  ['client_id', 'The client asking.', true],
  ['redirect_uri', "Where the answer goes: one of the client's.", false],
  ['scope', 'The scopes asked for, space-separated.', false],
  ['state', 'A value the answer carries back.', false],
  ['code_challenge', 'PKCE: the challenge of the code verifier (RFC 7636).', false],
  ['code_challenge_method', 'PKCE: S256.', false],
] as const;
const open = {
  auth: false,
  openapi: {
    summary: 'Check an authorization request',
    tags: authorizeTags,
    parameters: authorizationParameters.map(([name, description, required]) => ({
      name,
      in: 'query' as const,
      description,
      required,
      schema: str,
    })),
    responses: { ...redirects, '200': authorizationRequest },
  },
} as RouteConfig;
const openForm = {
  auth: false,
  accepts: ['form'],
  openapi: {
    summary: 'Sign in and authorize',
    tags: authorizeTags,
    requestBody: signInForm,
    responses: redirects,
  },
} as RouteConfig;

// Who the token names (`/v1/me`).
const me = {
  '200': {
    description: 'The user the token names, its client and its scopes.',
    content: {
      'application/json': {
        schema: {
          $ref: '#/$defs/Me',
          $defs: {
            Me: {
              type: 'object',
              required: ['id', 'clientId', 'scopes'],
              properties: { id: str, clientId: str, scopes: { type: 'array', items: str } },
            },
          },
        },
      },
    },
  },
};

/**
 * The authorization endpoint (RFC 6749 §3.1) of a JSON API: `GET` checks the request and
 * describes it (what a sign-in page would show); `POST` with the same parameters plus
 * `username` and `password` signs the user in (through the server's `verifyUser`, its failures
 * counted with the token endpoint's) and redirects (303) with a one-time code.
 */
export function authorizeRoutes(oauth: OAuthServer): RouteTable {
  const { check, approve, signIn } = oauth.authorization;
  return {
    '/v1/oauth2/authorize': {
      GET: {
        handler: (ctx: RequestContext) => {
          const checked = check(ctx.query, ctx);
          if (checked.redirect) return checked.redirect;
          const { request } = checked;
          return {
            clientId: request.clientId,
            scope: request.scopes ? [...request.scopes].join(' ') : undefined,
            signIn: 'POST this endpoint as a form with these parameters, username and password.',
          };
        },
        config: open,
      },
      POST: {
        handler: async (ctx: RequestContext) => {
          // A form's fields (the authorization request's, and the sign-in's).
          const form: Record<string, unknown> =
            typeof ctx.body === 'object' && ctx.body !== null ? { ...ctx.body } : {};
          const { username, password, ...params } = form;
          const checked = check(params, ctx);
          if (checked.redirect) return checked.redirect;
          // signIn counts failures with the token endpoint's: 429 past the limit.
          const user =
            typeof username === 'string' && typeof password === 'string'
              ? await signIn(checked.request, username, password, ctx)
              : undefined;
          if (user === undefined) {
            throw oauthError('access_denied', 'The username or password is wrong.');
          }
          return approve(checked.request, user, ctx, 303);
        },
        config: openForm,
      },
    },
  };
}

/** OAuth settings of one bookshelf instance. */
export interface OAuthSettings {
  /**
   * The issuer of its tokens and metadata (`ISSUER`), fixed: a URL, or a function that returns it
   * once known (main.ts: the origin the server listens on). Every instance that shares tokens
   * names the same one. @default the origin of each request (tests and embedding only)
   */
  issuer?: string | (() => string);
  /** Access-token lifetime in seconds (`TOKEN_TTL`). @default 3600 */
  tokenTtl?: number;
  /**
   * The redirect URIs of `demo-browser`, the public client of a browser app (a test page's, say;
   * its origin goes in `security.extraOrigins` too). @default [demoBrowserRedirectUri]
   */
  browserRedirectUris?: readonly string[];
  /** Where refresh tokens, codes, counters and revoked token ids live. @default memory */
  store?: Store;
  /** The signing keys; instances that share them accept each other's tokens. @default a development key */
  keys?: Promise<TokenKeys>;
  /**
   * Where the development-key warning of the keys made here goes (the server's own warnings go
   * to the service's logger). @default the service's logger
   */
  logger?: ConventionsOptions['logger'];
}

/** The scopes of the bookshelf; `books:read` is public (a client-credentials token may hold it). */
export const bookshelfScopes = ['books:read', 'books:write'];

/**
 * The OAuth part: the authorization server (token, revoke, introspect, JWKS, metadata), the
 * bearer check every other route goes through, the sign-in endpoint and `/v1/me`.
 */
export function oauthPart(settings: OAuthSettings = {}): { plugins: Plugin[]; routes: RouteTable } {
  // A demonstration service with published passwords: its development key is wanted even under
  // NODE_ENV=production (the library refuses one there unless asked), so the bookshelf asks.
  const keys =
    settings.keys ??
    createTokenKeys({ development: true, ...(settings.logger ? { logger: settings.logger } : {}) });
  let auth: ReturnType<typeof bearer> | undefined;
  const oauth = oauthServer({
    scopes: bookshelfScopes,
    publicScopes: ['books:read'],
    clients: settings.browserRedirectUris
      ? bookshelfClients.map((c) =>
          c.id === 'demo-browser' ? { ...c, redirectUris: settings.browserRedirectUris } : c,
        )
      : bookshelfClients,
    verifyUser: (username, password) => verifyBookshelfUser(username, password),
    authorizationEndpoint: '/v1/oauth2/authorize',
    ...(settings.issuer !== undefined ? { issuer: settings.issuer } : {}),
    ...(settings.tokenTtl !== undefined ? { accessTokenTtl: settings.tokenTtl } : {}),
    ...(settings.store ? { store: settings.store } : {}),
    tokens: {
      issue: async (request) => issueAccessToken(await keys, request),
      verify: async (token, ctx) => {
        const expected = { issuer: oauth.issuerOf(ctx), audience: oauth.audienceOf(ctx) };
        return (await auth!.verify(token, expected)).claims ?? {};
      },
      revoke: (jti, expiresAt) => auth!.revoke(jti, expiresAt),
      jwks: async () => (await keys).jwks(),
    },
  });
  // One issuer for both sides: the fixed one, else (tests only) the origin each request came to.
  auth = bearer({
    keys,
    issuer: oauth.issuerOf,
    audience: oauth.audienceOf,
    ...(settings.store ? { store: settings.store } : {}),
  });
  return {
    plugins: [oauth, auth],
    routes: {
      ...authorizeRoutes(oauth),
      '/v1/me': {
        GET: {
          // A token without a user (client credentials) gets 403.
          handler: (ctx: RequestContext) => ({
            id: ctx.identity!.subject,
            clientId: ctx.identity!.clientId,
            scopes: [...ctx.identity!.scopes].sort(),
          }),
          config: { user: true, openapi: { summary: 'Read who the token names', responses: me } },
        },
      },
    },
  };
}

const readMethods = new Set(['GET', 'HEAD', 'OPTIONS']);

/** The book routes with their scopes: reading needs `books:read`, changing `books:write`. */
export function withBookScopes(table: RouteTable): RouteTable {
  const out: Record<string, PathMethods> = {};
  for (const [pattern, methods] of Object.entries(table)) {
    const scoped: Record<string, RouteDefinition> = {};
    for (const [method, route] of Object.entries(methods) as [
      string,
      PathMethods[keyof PathMethods],
    ][]) {
      if (route === undefined) continue;
      const definition: RouteDefinition = typeof route === 'function' ? { handler: route } : route;
      const scopes = [readMethods.has(method) ? 'books:read' : 'books:write'];
      scoped[method] = { ...definition, config: { ...definition.config, scopes } };
    }
    out[pattern] = scoped as PathMethods;
  }
  return out;
}
