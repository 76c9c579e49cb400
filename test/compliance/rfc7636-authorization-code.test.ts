/** The authorization-code grant with PKCE: RFC 6749 §4.1, RFC 7636 §4, RFC 9207, on every host. */
import { createHash, randomBytes } from 'node:crypto';
import { expect, it } from 'vitest';
import { describeMatrix, type Served } from '../conformance/_matrix.ts';
import { basic, form, oauthApp, postForm, redirectUri } from './_oauth-app.ts';

const web = basic('demo-web', 'demo-web-secret');
const authorize = '/v1/oauth2/authorize';

function pkce() {
  const verifier = randomBytes(32).toString('base64url');
  const challenge = createHash('sha256').update(verifier).digest('base64url');
  return { verifier, challenge };
}

function query(params: Record<string, string>): string {
  return new URLSearchParams(params).toString();
}

/** Signs alice in at the authorization endpoint and returns the redirect's parameters. */
async function signIn(
  served: Served,
  params: Record<string, string>,
  user = { username: 'alice', password: 'wonderland' },
): Promise<{ status: number; location: URL | undefined }> {
  const res = await served.fetchAs('anonymous', authorize, {
    method: 'POST',
    headers: form,
    body: query({ ...params, ...user }),
  });
  const location = res.headers.get('location');
  return { status: res.status, location: location ? new URL(location) : undefined };
}

function codeRequest(challenge: string, extra: Record<string, string> = {}) {
  return {
    response_type: 'code',
    client_id: 'demo-web',
    redirect_uri: redirectUri,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'af0ifjsldkj',
    scope: 'books:read',
    ...extra,
  };
}

const exchange = (
  served: Served,
  code: string,
  verifier: string,
  extra = '',
  auth: string | null = web,
) =>
  postForm(
    served,
    `grant_type=authorization_code&code=${code}&redirect_uri=${encodeURIComponent(redirectUri)}&code_verifier=${verifier}${extra}`,
    auth,
  );

describeMatrix(
  'OAuth authorization code with PKCE',
  () => oauthApp().app,
  (served) => {
    it('issues a one-time code bound to the redirect URI, with state and iss (RFC 6749 §4.1.2, RFC 9207 §2)', async () => {
      const { challenge } = pkce();
      const described = await served.fetchAs(
        'anonymous',
        `${authorize}?${query(codeRequest(challenge))}`,
      );
      expect(described.status).toBe(200);
      expect(await described.json()).toMatchObject({ clientId: 'demo-web', scope: 'books:read' });
      const { status, location } = await signIn(served, codeRequest(challenge));
      expect(status).toBe(303);
      expect(`${location!.origin}${location!.pathname}`).toBe(redirectUri);
      expect(location!.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      expect(location!.searchParams.get('state')).toBe('af0ifjsldkj');
      expect(location!.searchParams.get('iss')).toBe(served.url(''));
    });

    it('exchanges the code with the verifier for tokens (RFC 6749 §4.1.3, RFC 7636 §4.5, §4.6)', async () => {
      const { verifier, challenge } = pkce();
      const { location } = await signIn(served, codeRequest(challenge));
      const res = await exchange(served, location!.searchParams.get('code')!, verifier);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = await res.json();
      expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 3600 });
      expect(body.refresh_token).toBeDefined();
      expect(body.scope).toBeUndefined();
    });

    it('refuses a wrong or missing code_verifier (RFC 7636 §4.6)', async () => {
      const { challenge } = pkce();
      const a = await signIn(served, codeRequest(challenge));
      const wrong = await exchange(served, a.location!.searchParams.get('code')!, pkce().verifier);
      expect(wrong.status).toBe(400);
      expect((await wrong.json()).error).toBe('invalid_grant');
      const b = await signIn(served, codeRequest(challenge));
      const missing = await postForm(
        served,
        `grant_type=authorization_code&code=${b.location!.searchParams.get('code')}&redirect_uri=${encodeURIComponent(redirectUri)}`,
        web,
      );
      expect(missing.status).toBe(400);
      expect((await missing.json()).error).toBe('invalid_request');
    });

    it('refuses a used code and revokes what its first use issued (RFC 6749 §4.1.2, §10.5)', async () => {
      const { verifier, challenge } = pkce();
      const { location } = await signIn(served, codeRequest(challenge));
      const code = location!.searchParams.get('code')!;
      const first = await (await exchange(served, code, verifier)).json();
      const again = await exchange(served, code, verifier);
      expect(again.status).toBe(400);
      expect((await again.json()).error).toBe('invalid_grant');
      const refreshed = await postForm(
        served,
        `grant_type=refresh_token&refresh_token=${first.refresh_token}`,
        web,
      );
      expect(refreshed.status).toBe(400);
    });

    it('refuses a code with another redirect_uri or another client (RFC 6749 §4.1.3)', async () => {
      const { verifier, challenge } = pkce();
      const { location } = await signIn(served, codeRequest(challenge));
      const code = location!.searchParams.get('code')!;
      const other = await postForm(
        served,
        `grant_type=authorization_code&code=${code}&redirect_uri=${encodeURIComponent('https://app.example.com/other')}&code_verifier=${verifier}`,
        web,
      );
      expect((await other.json()).error).toBe('invalid_grant');
      const c = await signIn(served, codeRequest(challenge));
      const byPublic = await exchange(
        served,
        c.location!.searchParams.get('code')!,
        verifier,
        '&client_id=spa',
        null,
      );
      expect(byPublic.status).toBe(400);
      expect((await byPublic.json()).error).toBe('invalid_grant');
    });

    it('lets a public client redeem its code with PKCE alone (RFC 6749 §2.1, RFC 7636 §1)', async () => {
      const { verifier, challenge } = pkce();
      const { location } = await signIn(served, codeRequest(challenge, { client_id: 'spa' }));
      const res = await exchange(
        served,
        location!.searchParams.get('code')!,
        verifier,
        '&client_id=spa',
        null,
      );
      expect(res.status).toBe(200);
    });

    it.each<[Record<string, string>, string]>([
      [{ code_challenge: '' }, 'invalid_request'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ response_type: 'magic' }, 'unsupported_response_type'],
      [{ response_type: 'token' }, 'unauthorized_client'],
      [{ scope: 'books:admin' }, 'invalid_scope'],
    ])(
      'redirects %o back with error %s and the state (RFC 6749 §4.1.2.1, RFC 7636 §4.4.1)',
      async (change, error) => {
        const res = await served.fetchAs(
          'anonymous',
          `${authorize}?${query(codeRequest(pkce().challenge, change))}`,
        );
        expect(res.status).toBe(302);
        const location = new URL(res.headers.get('location')!);
        // An implicit request (response_type=token) is answered in the fragment (RFC 6749 §4.2.2.1).
        const answer =
          change.response_type === 'token'
            ? new URLSearchParams(location.hash.slice(1))
            : location.searchParams;
        expect(answer.get('error')).toBe(error);
        expect(answer.get('state')).toBe('af0ifjsldkj');
      },
    );

    it.each([
      [{ redirect_uri: 'https://evil.example/callback' }],
      [{ redirect_uri: `${redirectUri}/` }],
      [{ client_id: 'nobody' }],
    ])(
      'never redirects to an unregistered URI or for an unknown client: %o gets 400 (RFC 6749 §4.1.2.1, RFC 9700 §2.1)',
      async (change) => {
        const res = await served.fetchAs(
          'anonymous',
          `${authorize}?${query(codeRequest(pkce().challenge, change))}`,
        );
        expect(res.status).toBe(400);
        expect(res.headers.get('location')).toBeNull();
        expect((await res.json()).errors[0].code).toBe(40047);
      },
    );

    it('issues the implicit grant only to a client that names it, in the fragment (RFC 6749 §4.2.2)', async () => {
      const { status, location } = await signIn(served, {
        response_type: 'token',
        client_id: 'legacy-spa',
        redirect_uri: redirectUri,
        state: 's1',
      });
      expect(status).toBe(303);
      expect(location!.search).toBe('');
      const fragment = new URLSearchParams(location!.hash.slice(1));
      expect(fragment.get('token_type')).toBe('Bearer');
      expect(fragment.get('access_token')).toBeTruthy();
      expect(fragment.get('state')).toBe('s1');
      expect(fragment.get('refresh_token')).toBeNull();
    });
  },
);
