/**
 * The bookshelf's OAuth part: the demo client and users, the token endpoint and its siblings,
 * `/v1/me`, and a sign-in endpoint for the authorization-code flow.
 */
import {
  type OAuthClient,
  type OAuthServer,
  type OAuthUser,
  oauthError,
  type RequestContext,
  type RouteConfig,
  type RouteTable,
} from 'api-conventions';

/** The demo users: name → password and the scopes they may grant. */
export const bookshelfUsers: Readonly<Record<string, { password: string; scopes: string[] }>> = {
  alice: { password: 'wonderland', scopes: ['books:read', 'books:write'] },
  bob: { password: 'builder', scopes: ['books:read'] },
};

/** Where the demo web client wants its authorization answers. */
export const demoRedirectUri = 'https://app.example.com/callback';

/**
 * The demo clients. `demo-client` has the grants of the contract (password, client
 * credentials, refresh); `demo-web` shows the authorization-code flow with PKCE.
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
];

/** Checks a demo user's password; one answer (`undefined`) for an unknown user and a wrong password. */
export function verifyBookshelfUser(username: string, password: string): OAuthUser | undefined {
  const user = Object.hasOwn(bookshelfUsers, username) ? bookshelfUsers[username] : undefined;
  return user !== undefined && user.password === password
    ? { subject: username, scopes: user.scopes }
    : undefined;
}

// The sign-in endpoint authenticates users itself: no bearer token there.
const open = { auth: false } as RouteConfig;
const openForm = { auth: false, accepts: ['form'] } as RouteConfig;

/**
 * The authorization endpoint (RFC 6749 §3.1) of a JSON API: `GET` checks the request and
 * describes it (what a sign-in page would show); `POST` with the same parameters plus
 * `username` and `password` signs the user in and redirects (303) with a one-time code.
 */
export function authorizeRoutes(oauth: OAuthServer): RouteTable {
  const { check, approve } = oauth.authorization;
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
          const { username, password, ...params } = (ctx.body ?? {}) as Record<string, unknown>;
          const checked = check(params, ctx);
          if (checked.redirect) return checked.redirect;
          const user =
            typeof username === 'string' && typeof password === 'string'
              ? verifyBookshelfUser(username, password)
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
