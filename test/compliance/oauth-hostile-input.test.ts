/** No request to the OAuth endpoints, however hostile, gets a 500 or an echo (CONTRIBUTING.md rule 7). */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { serve } from '../../examples/bookshelf/hosts/node.ts';
import { oauthApp } from './_oauth-app.ts';

let running: Awaited<ReturnType<typeof serve>>;
beforeAll(async () => {
  running = await serve(oauthApp().app, { port: 0, host: '127.0.0.1' });
});
afterAll(() => running.close());

const names = fc.constantFrom(
  'grant_type',
  'username',
  'password',
  'scope',
  'refresh_token',
  'code',
  'redirect_uri',
  'code_verifier',
  'client_id',
  'client_secret',
  'token',
  'token_type_hint',
  '__proto__',
  'constructor',
);
const values = fc.oneof(
  fc.constantFrom(
    'password',
    'client_credentials',
    'refresh_token',
    'authorization_code',
    'alice',
    'wonderland',
    'books:read',
    'demo-client',
    '',
  ),
  fc.string(),
  fc.string({ unit: 'grapheme' }),
);
const bodies = fc.array(fc.tuple(fc.oneof(names, fc.string()), values), { maxLength: 8 });
const authorizations = fc.oneof(
  fc.constant(undefined),
  fc.constant(`Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`),
  fc.string().map((s) => `Basic ${Buffer.from(s).toString('base64')}`),
  fc.string().map((s) => `Basic ${s}`),
  fc.string({ unit: 'binary-ascii' }),
);
const paths = fc.constantFrom('/v1/oauth2/token', '/v1/oauth2/revoke', '/v1/oauth2/introspect');

it('answers every hostile request with a status below 500 and the error body (RFC 6749 §5.2)', async () => {
  await fc.assert(
    fc.asyncProperty(paths, bodies, authorizations, async (path, pairs, authorization) => {
      const headers: Record<string, string> = {
        'content-type': 'application/x-www-form-urlencoded',
      };
      if (authorization !== undefined && /^[\x20-\x7e]*$/.test(authorization))
        headers.authorization = authorization;
      const body = new URLSearchParams(pairs).toString();
      const res = await fetch(`http://127.0.0.1:${running.port}${path}`, {
        method: 'POST',
        headers,
        body,
      });
      expect(res.status).toBeLessThan(500);
      const json = await res.json();
      if (res.status >= 400) {
        expect(Array.isArray(json.errors)).toBe(true);
        expect(typeof json.error).toBe('string');
        expect(json.error_description).toMatch(/^[\x20\x21\x23-\x5b\x5d-\x7e]*$/);
      }
    }),
    { numRuns: 300 },
  );
});
