/**
 * End to end: a standard OAuth client (openid-client) discovers the bookshelf and gets, uses,
 * refreshes, introspects and revokes tokens on every host — password, client credentials,
 * refresh, and authorization code with PKCE.
 */
import * as client from 'openid-client';
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { demoRedirectUri } from '../../examples/bookshelf/oauth.ts';
import { describeMatrix, type Served } from './_matrix.ts';

const quiet = { logger: { error() {}, warn() {} } };
// The bookshelf listens on http://127.0.0.1 in the tests; production servers use HTTPS.
const options = { algorithm: 'oauth2' as const, execute: [client.allowInsecureRequests] };

async function discover(served: Served, id = 'demo-client', secret = 'demo-secret') {
  // spec 4.9: the client's credentials go in HTTP Basic.
  const config = await client.discovery(
    new URL(served.url('')),
    id,
    undefined,
    client.ClientSecretBasic(secret),
    options,
  );
  return config;
}

/** A plain request with the token, for answers a client library reports as challenges (401, 403). */
function asBearer(served: Served, token: string, path: string) {
  return fetch(served.url(path), { headers: { authorization: `Bearer ${token}` } });
}

async function booksWith(served: Served, config: client.Configuration, token: string) {
  return client.fetchProtectedResource(
    config,
    token,
    new URL(served.url('/v1/books?per_page=1')),
    'GET',
  );
}

describeMatrix(
  'a standard OAuth client against the bookshelf',
  () => createBookshelf(quiet),
  (served) => {
    it('discovers the server from its RFC 8414 metadata', async () => {
      const config = await discover(served);
      const meta = config.serverMetadata();
      expect(meta.issuer).toBe(served.url(''));
      expect(meta.token_endpoint).toBe(served.url('/v1/oauth2/token'));
    });

    it('gets a token with the password grant, uses it, refreshes it (spec 4.9, 5.3, 5.7)', async () => {
      const config = await discover(served);
      const tokens = await client.genericGrantRequest(config, 'password', {
        username: 'alice',
        password: 'wonderland',
        scope: 'books:read books:write',
      });
      expect(tokens.token_type).toBe('bearer');
      expect(tokens.expiresIn()).toBeGreaterThan(3500);
      expect((await booksWith(served, config, tokens.access_token)).status).toBe(200);

      const refreshed = await client.refreshTokenGrant(config, tokens.refresh_token!);
      expect(refreshed.access_token).not.toBe(tokens.access_token);
      expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
      expect((await booksWith(served, config, refreshed.access_token)).status).toBe(200);
      // The spent refresh token is refused, as a standard client sees it.
      await expect(client.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({
        error: 'invalid_grant',
      });
    });

    it('refuses a wrong password with invalid_grant, read by the client library (RFC 6749 §5.2)', async () => {
      const config = await discover(served);
      await expect(
        client.genericGrantRequest(config, 'password', { username: 'alice', password: 'x' }),
      ).rejects.toMatchObject({ error: 'invalid_grant', status: 400 });
      const wrongSecret = await discover(served, 'demo-client', 'nope');
      // A 401 with WWW-Authenticate: Basic is reported as a challenge, with the answer attached.
      const refused = await client.clientCredentialsGrant(wrongSecret).catch((e: unknown) => e);
      expect(refused).toBeInstanceOf(client.WWWAuthenticateChallengeError);
      const { response, cause } = refused as client.WWWAuthenticateChallengeError;
      expect(response.status).toBe(401);
      expect(cause[0]?.scheme).toBe('basic');
      expect(await response.json()).toMatchObject({ error: 'invalid_client' });
    });

    it('gets a client-credentials token for public data only (spec 5.4)', async () => {
      const config = await discover(served);
      const tokens = await client.clientCredentialsGrant(config, { scope: 'books:read' });
      expect(tokens.refresh_token).toBeUndefined();
      expect((await booksWith(served, config, tokens.access_token)).status).toBe(200);
      const me = await asBearer(served, tokens.access_token, '/v1/me');
      expect(me.status).toBe(403);
    });

    it('runs the authorization-code flow with PKCE (RFC 6749 §4.1, RFC 7636)', async () => {
      const config = await discover(served, 'demo-web', 'demo-web-secret');
      const verifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(config, {
        redirect_uri: demoRedirectUri,
        scope: 'books:read',
        code_challenge: await client.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
        state,
      });
      // The user signs in at the authorization endpoint (a form post, as a sign-in page sends).
      const signIn = await fetch(url.origin + url.pathname, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `${url.searchParams}&username=alice&password=wonderland`,
      });
      expect(signIn.status).toBe(303);
      const callback = new URL(signIn.headers.get('location')!);
      const tokens = await client.authorizationCodeGrant(config, callback, {
        pkceCodeVerifier: verifier,
        expectedState: state,
      });
      expect(tokens.scope).toBeUndefined();
      expect((await booksWith(served, config, tokens.access_token)).status).toBe(200);
      const me = await client.fetchProtectedResource(
        config,
        tokens.access_token,
        new URL(served.url('/v1/me')),
        'GET',
      );
      expect(await me.json()).toMatchObject({
        id: 'alice',
        clientId: 'demo-web',
        scopes: ['books:read'],
      });
      expect(
        (await client.refreshTokenGrant(config, tokens.refresh_token!)).access_token,
      ).toBeTruthy();
    });

    it('introspects and revokes a token (RFC 7662, RFC 7009)', async () => {
      const config = await discover(served);
      const tokens = await client.genericGrantRequest(config, 'password', {
        username: 'bob',
        password: 'builder',
      });
      const active = await client.tokenIntrospection(config, tokens.access_token);
      expect(active).toMatchObject({
        active: true,
        sub: 'bob',
        client_id: 'demo-client',
        scope: 'books:read',
      });
      await client.tokenRevocation(config, tokens.access_token);
      expect((await client.tokenIntrospection(config, tokens.access_token)).active).toBe(false);
      const refused = await asBearer(served, tokens.access_token, '/v1/books');
      expect(refused.status).toBe(401);
      expect(refused.headers.get('www-authenticate')).toContain('error="invalid_token"');
    });
  },
);
