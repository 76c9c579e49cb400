/** Token revocation, RFC 7009 §2, and introspection, RFC 7662 §2, on every host. */
import { expect, it } from 'vitest';
import { describeMatrix, type Served } from '../conformance/_matrix.ts';
import { basic, oauthApp, postForm } from './_oauth-app.ts';

const revoke = '/v1/oauth2/revoke';
const introspect = '/v1/oauth2/introspect';
const web = basic('demo-web', 'demo-web-secret');

async function login(served: Served) {
  const res = await postForm(served, 'grant_type=password&username=alice&password=wonderland');
  return (await res.json()) as { access_token: string; refresh_token: string };
}

const inspect = async (
  served: Served,
  token: string,
  auth: string | null | undefined = undefined,
) => postForm(served, `token=${encodeURIComponent(token)}`, auth, introspect);

describeMatrix(
  'OAuth revocation (RFC 7009)',
  () => oauthApp().app,
  (served) => {
    it('revokes a refresh token and its family: 200, then invalid_grant (RFC 7009 §2.1, §2.2)', async () => {
      const { refresh_token } = await login(served);
      const res = await postForm(
        served,
        `token=${refresh_token}&token_type_hint=refresh_token`,
        undefined,
        revoke,
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const after = await postForm(
        served,
        `grant_type=refresh_token&refresh_token=${refresh_token}`,
      );
      expect(after.status).toBe(400);
      expect((await after.json()).error).toBe('invalid_grant');
    });

    it('revokes an access token so introspection calls it inactive (RFC 7009 §2.1, RFC 7662 §2.2)', async () => {
      const { access_token } = await login(served);
      expect((await (await inspect(served, access_token)).json()).active).toBe(true);
      const res = await postForm(served, `token=${access_token}`, undefined, revoke);
      expect(res.status).toBe(200);
      expect(await (await inspect(served, access_token)).json()).toEqual({ active: false });
    });

    it('answers 200 for an unknown token (RFC 7009 §2.2)', async () => {
      const res = await postForm(served, 'token=not-a-token-we-know', undefined, revoke);
      expect(res.status).toBe(200);
    });

    it("leaves another client's token alone and still answers 200 (RFC 7009 §2.1)", async () => {
      const { refresh_token } = await login(served);
      expect((await postForm(served, `token=${refresh_token}`, web, revoke)).status).toBe(200);
      expect(
        (await postForm(served, `grant_type=refresh_token&refresh_token=${refresh_token}`)).status,
      ).toBe(200);
    });

    it('answers an unknown token_type_hint with unsupported_token_type (RFC 7009 §2.2.1)', async () => {
      const res = await postForm(served, 'token=x&token_type_hint=id_token', undefined, revoke);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        error: 'unsupported_token_type',
        errors: [{ code: 40045 }],
      });
    });

    it('needs client authentication: 401 invalid_client (RFC 7009 §2.1)', async () => {
      const res = await postForm(served, 'token=x', null, revoke);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
      expect((await res.json()).error).toBe('invalid_client');
    });

    it('needs the token parameter: invalid_request (RFC 7009 §2.1)', async () => {
      const res = await postForm(served, 'token_type_hint=access_token', undefined, revoke);
      expect(res.status).toBe(400);
      expect((await res.json()).error).toBe('invalid_request');
    });

    it('answers only POST: 405 with Allow (RFC 7009 §2.1)', async () => {
      const res = await served.fetchAs('anonymous', revoke);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toContain('POST');
    });
  },
);

describeMatrix(
  'OAuth introspection (RFC 7662)',
  () => oauthApp().app,
  (served) => {
    it('describes an active access token (RFC 7662 §2.2)', async () => {
      const { access_token } = await login(served);
      const res = await inspect(served, access_token);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = await res.json();
      expect(body).toMatchObject({
        active: true,
        scope: 'books:read books:write',
        client_id: 'demo-client',
        sub: 'alice',
        token_type: 'Bearer',
      });
      expect(Number.isInteger(body.exp)).toBe(true);
    });

    it('describes an active refresh token, and a used one as inactive (RFC 7662 §2.2)', async () => {
      const { refresh_token } = await login(served);
      expect(await (await inspect(served, refresh_token)).json()).toMatchObject({
        active: true,
        token_type: 'refresh_token',
        client_id: 'demo-client',
        sub: 'alice',
      });
      await postForm(served, `grant_type=refresh_token&refresh_token=${refresh_token}`);
      expect(await (await inspect(served, refresh_token)).json()).toEqual({ active: false });
    });

    it('answers {"active":false} for an unknown, forged or foreign token (RFC 7662 §2.2)', async () => {
      const { access_token } = await login(served);
      const [head, payload] = access_token.split('.');
      for (const token of ['nonsense', `${head}.${payload}.AAAA`, `${head}.${payload}.`]) {
        expect(await (await inspect(served, token)).json()).toEqual({ active: false });
      }
      // demo-web may see only its own tokens.
      expect(await (await inspect(served, access_token, web)).json()).toEqual({ active: false });
    });

    it('needs client authentication: 401 invalid_client (RFC 7662 §2.1)', async () => {
      const res = await inspect(served, 'x', null);
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe('invalid_client');
    });
  },
);
