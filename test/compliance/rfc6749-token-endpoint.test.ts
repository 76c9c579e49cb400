/** The token endpoint, RFC 6749 §2.3, §3.2, §4.3, §4.4, §5 and spec 4.9, on every host. */
import { expect, it } from 'vitest';
import { describeMatrix } from '../conformance/_matrix.ts';
import { basic, demo, oauthApp, oauthOptions, postForm } from './_oauth-app.ts';

const token = '/v1/oauth2/token';

describeMatrix(
  'OAuth token endpoint',
  () => oauthApp().app,
  (served) => {
    it('issues a bearer token for the password grant with no-store (spec 4.9, RFC 6749 §4.3.3, §5.1)', async () => {
      const res = await postForm(served, 'grant_type=password&username=alice&password=wonderland');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(res.headers.get('pragma')).toBe('no-cache');
      const body = await res.json();
      expect(body.token_type).toBe('Bearer');
      expect(Number.isInteger(body.expires_in)).toBe(true);
      expect(body.expires_in).toBe(3600);
      expect(typeof body.access_token).toBe('string');
      // Its family's place (owner digest, slot, family id), then 256 random bits.
      expect(body.refresh_token).toMatch(
        /^[A-Za-z0-9_-]{43}\.\d+\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{43}$/,
      );
      // Nothing asked, everything granted: the answer names the scope (RFC 6749 §5.1).
      expect(body.scope).toBe('books:read books:write');
    });

    it('leaves scope out when it is the one requested, and names it when narrower (RFC 6749 §3.3, §5.1)', async () => {
      const same = await (
        await postForm(
          served,
          'grant_type=password&username=alice&password=wonderland&scope=books:read',
        )
      ).json();
      expect(same.scope).toBeUndefined();
      const narrowed = await (
        await postForm(
          served,
          'grant_type=password&username=bob&password=builder&scope=books:read%20books:write',
        )
      ).json();
      expect(narrowed.scope).toBe('books:read');
    });

    it('answers an unknown user and a wrong password alike with invalid_grant (RFC 6749 §5.2)', async () => {
      const wrong = await postForm(served, 'grant_type=password&username=alice&password=nope');
      const unknown = await postForm(served, 'grant_type=password&username=mallory&password=nope');
      expect(wrong.status).toBe(400);
      expect(unknown.status).toBe(400);
      const a = await wrong.json();
      expect(a).toEqual(await unknown.json());
      expect(a).toMatchObject({ error: 'invalid_grant', errors: [{ code: 40041 }] });
      expect(a.error_description).toBe(a.errors[0].message);
      expect(wrong.headers.get('cache-control')).toBe('no-store');
    });

    it('answers an unknown client and a wrong secret alike: 401 invalid_client with WWW-Authenticate Basic (RFC 6749 §5.2)', async () => {
      const body = 'grant_type=client_credentials';
      const wrong = await postForm(served, body, basic('demo-client', 'nope'));
      const unknown = await postForm(served, body, basic('nobody', 'nope'));
      for (const res of [wrong, unknown]) {
        expect(res.status).toBe(401);
        expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm="/);
      }
      const a = await wrong.json();
      expect(a).toEqual(await unknown.json());
      expect(a).toMatchObject({ error: 'invalid_client', errors: [{ code: 40102 }] });
    });

    it('form-decodes the Basic client id and secret (RFC 6749 §2.3.1, Appendix B)', async () => {
      const ok = await postForm(
        served,
        'grant_type=client_credentials',
        basic('odd client:1', 'p@ss word+%:é'),
      );
      expect(ok.status).toBe(200);
      // The same bytes without the form-encoding: `+` reads as a space, so the secret is wrong.
      const raw = `Basic ${Buffer.from('odd+client%3A1:p@ss word+%25:é').toString('base64')}`;
      expect((await postForm(served, 'grant_type=client_credentials', raw)).status).toBe(401);
    });

    it('refuses client credentials in the header and the body at once with invalid_request (RFC 6749 §2.3)', async () => {
      const res = await postForm(
        served,
        'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret',
      );
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        error: 'invalid_request',
        errors: [{ code: 40040 }],
      });
    });

    it('refuses client_secret_post unless enabled, with 401 invalid_client (RFC 6749 §2.3.1)', async () => {
      const res = await postForm(
        served,
        'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret',
        null,
      );
      expect(res.status).toBe(401);
      expect((await res.json()).error).toBe('invalid_client');
    });

    it('answers a request with no client authentication with 401 invalid_client (RFC 6749 §3.2.1)', async () => {
      const res = await postForm(
        served,
        'grant_type=password&username=alice&password=wonderland',
        null,
      );
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic /);
    });

    it('refuses a repeated parameter with invalid_request (RFC 6749 §3.2)', async () => {
      const res = await postForm(
        served,
        'grant_type=password&username=alice&username=bob&password=wonderland',
      );
      expect(res.status).toBe(400);
      const body = await res.json();
      expect(body).toMatchObject({ error: 'invalid_request', errors: [{ code: 40046 }] });
      expect(body.error_description).toContain('username');
    });

    it('treats an empty parameter as omitted (RFC 6749 §3.1)', async () => {
      const res = await postForm(served, 'grant_type=password&username=alice&password=');
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({
        error: 'invalid_request',
        error_description: 'The parameter password is required.',
      });
    });

    it.each([
      ['grant_type=', 'invalid_request', 40040],
      ['grant_type=magic', 'unsupported_grant_type', 40043],
      ['grant_type=authorization_code&code=x', 'unauthorized_client', 40042],
      [
        'grant_type=password&username=alice&password=wonderland&scope=books:admin',
        'invalid_scope',
        40044,
      ],
      [
        'grant_type=password&username=alice&password=wonderland&scope=books:read%20%20books:write',
        'invalid_scope',
        40044,
      ],
      ['grant_type=client_credentials&scope=books:write', 'invalid_scope', 40044],
      ['grant_type=refresh_token&refresh_token=nope', 'invalid_grant', 40041],
      ['grant_type=implicit', 'unsupported_grant_type', 40043],
    ])('answers %s with %s (RFC 6749 §5.2)', async (body, error, code) => {
      const res = await postForm(served, body);
      expect(res.status).toBe(400);
      expect(await res.json()).toMatchObject({ error, errors: [{ code }] });
    });

    it('gives client credentials public scopes only and no refresh token (spec 5.4, RFC 6749 §4.4.3)', async () => {
      const res = await postForm(served, 'grant_type=client_credentials');
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.refresh_token).toBeUndefined();
      expect(body.scope).toBe('books:read');
      const wider = await (
        await postForm(served, 'grant_type=client_credentials&scope=books:read%20books:write')
      ).json();
      expect(wider.scope).toBe('books:read');
    });

    it('answers only POST: 405 with Allow (RFC 6749 §3.2)', async () => {
      const res = await served.fetchAs('anonymous', token);
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toContain('POST');
      expect((await res.json()).errors[0].code).toBe(40500);
    });

    it('reads only form-urlencoded bodies: JSON gets 415 with error invalid_request (RFC 6749 §3.2)', async () => {
      const res = await served.fetchAs('anonymous', token, {
        method: 'POST',
        headers: { authorization: demo, 'content-type': 'application/json' },
        body: JSON.stringify({ grant_type: 'client_credentials' }),
      });
      expect(res.status).toBe(415);
      expect(res.headers.get('cache-control')).toBe('no-store');
      expect(await res.json()).toMatchObject({
        error: 'invalid_request',
        errors: [{ code: 41500 }],
      });
    });

    it('never echoes what the client sent (RFC 6749 §5.2)', async () => {
      const evil = encodeURIComponent('<script>alert(1)</script>"\\');
      for (const body of [
        `grant_type=${evil}`,
        `grant_type=password&username=${evil}&password=${evil}`,
        `grant_type=password&username=alice&password=wonderland&scope=${evil}`,
        `grant_type=client_credentials&${evil}=1&${evil}=2`,
      ]) {
        const res = await postForm(served, body);
        const text = await res.text();
        expect(res.status).toBeGreaterThanOrEqual(400);
        expect(text).not.toContain('<script>');
        expect(text).not.toContain('alert');
      }
      const res = await postForm(served, 'grant_type=client_credentials', basic('<script>', 'x'));
      expect(await res.text()).not.toContain('<script>');
    });
  },
);

describeMatrix(
  'OAuth token endpoint with client_secret_post',
  () => oauthApp(oauthOptions({ clientSecretPost: true })).app,
  (served) => {
    it('accepts the client secret in the body when enabled (RFC 6749 §2.3.1)', async () => {
      const res = await postForm(
        served,
        'grant_type=client_credentials&client_id=demo-client&client_secret=demo-secret',
        null,
      );
      expect(res.status).toBe(200);
      const wrong = await postForm(
        served,
        'grant_type=client_credentials&client_id=demo-client&client_secret=nope',
        null,
      );
      expect(wrong.status).toBe(401);
    });
  },
);
