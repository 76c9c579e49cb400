/**
 * A small service with the OAuth server for the compliance tests: the bookshelf's clients and
 * users, and an access-token side made with jose (HS256) so these tests check the server alone.
 */
import {
  type Conventions,
  conventions,
  MemoryStore,
  type RequestContext,
  type Store,
} from 'api-conventions';
import {
  type AccessTokenSide,
  type OAuthServer,
  type OAuthServerOptions,
  oauthServer,
} from 'api-conventions/oauth';
import { jwtVerify, SignJWT } from 'jose';
import { authorizeRoutes } from '../../examples/bookshelf/oauth.ts';
import type { Served } from '../conformance/_matrix.ts';

export const users: Record<string, { password: string; scopes: string[] }> = {
  alice: { password: 'wonderland', scopes: ['books:read', 'books:write'] },
  bob: { password: 'builder', scopes: ['books:read'] },
};

export const redirectUri = 'https://app.example.com/callback';

/** An HS256 token side with its own secret; `revoked` holds revoked ids. */
export function testTokens(secret = crypto.getRandomValues(new Uint8Array(32))) {
  const revoked = new Set<string>();
  const side: AccessTokenSide = {
    async issue(r) {
      const jti = crypto.randomUUID();
      const now = Math.floor(Date.now() / 1000);
      const token = await new SignJWT({ scope: r.scope, client_id: r.clientId, jti })
        .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt' })
        .setIssuer(r.issuer)
        .setAudience(r.audience)
        .setSubject(r.subject ?? r.clientId)
        .setIssuedAt(now)
        .setExpirationTime(now + r.ttlSeconds)
        .sign(secret);
      return { token, expiresIn: r.ttlSeconds, jti, expiresAt: now + r.ttlSeconds };
    },
    async verify(token: string, _ctx: RequestContext) {
      const { payload } = await jwtVerify(token, secret, { typ: 'at+jwt' });
      if (revoked.has(payload.jti as string)) throw new Error('revoked');
      return payload;
    },
    revoke(jti) {
      revoked.add(jti);
    },
    jwks: () => ({ keys: [] }),
  };
  return { side, revoked };
}

/** The server's options: demo-client, demo-web (code + PKCE), spa (public), alice and bob. */
export function oauthOptions(
  overrides: Partial<OAuthServerOptions> = {},
  store: Store = new MemoryStore({ whenFull: 'evict' }),
  tokens = testTokens().side,
): OAuthServerOptions {
  return {
    scopes: ['books:read', 'books:write'],
    publicScopes: ['books:read'],
    clients: [
      {
        id: 'demo-client',
        secret: 'demo-secret',
        grants: ['password', 'client_credentials', 'refresh_token'],
      },
      {
        id: 'demo-web',
        secret: 'demo-web-secret',
        grants: ['authorization_code', 'refresh_token'],
        redirectUris: [redirectUri],
      },
      { id: 'spa', grants: ['authorization_code', 'refresh_token'], redirectUris: [redirectUri] },
      { id: 'odd client:1', secret: 'p@ss word+%:é', grants: ['client_credentials'] },
      { id: 'legacy-spa', grants: ['implicit'], redirectUris: [redirectUri] },
    ],
    verifyUser: (username, password) => {
      const user = Object.hasOwn(users, username) ? users[username] : undefined;
      return user && user.password === password
        ? { subject: username, scopes: user.scopes }
        : undefined;
    },
    tokens,
    store,
    authorizationEndpoint: '/v1/oauth2/authorize',
    ...overrides,
  };
}

/** A service with only the OAuth server (and one protected-looking route). */
export function oauthApp(options: OAuthServerOptions = oauthOptions()): {
  app: Conventions;
  oauth: OAuthServer;
} {
  const oauth = oauthServer(options);
  const app = conventions({
    routes: { '/v1/ping': { GET: () => ({ pong: true }) }, ...authorizeRoutes(oauth) },
    plugins: [oauth],
    logger: { error() {}, warn() {} },
  });
  return { app, oauth };
}

/** `Basic` credentials, form-encoded first as RFC 6749 Appendix B asks. */
export function basic(id: string, secret: string): string {
  const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
  return `Basic ${Buffer.from(`${enc(id)}:${enc(secret)}`).toString('base64')}`;
}

export const demo = basic('demo-client', 'demo-secret');
export const form = { 'content-type': 'application/x-www-form-urlencoded' };

/** POSTs a form to an OAuth endpoint with the given Authorization (none when `null`). */
export function postForm(
  served: Served,
  body: string,
  authorization: string | null = demo,
  path = '/v1/oauth2/token',
): Promise<Response> {
  const headers: Record<string, string> = { ...form };
  if (authorization !== null) headers.authorization = authorization;
  return served.fetchAs('anonymous', path, { method: 'POST', headers, body });
}
