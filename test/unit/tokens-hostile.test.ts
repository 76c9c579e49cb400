/** No hostile Authorization header, query or form token makes the bearer checks answer a 5xx. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RequestInput } from '../../src/host.ts';
import { bearer, conventions, createTokenKeys, issueAccessToken } from '../../src/index.ts';

const issuer = 'https://auth.example.com';
const audience = 'https://api.example.com';
const quiet = { error: () => {}, warn: () => {} };
const keys = await createTokenKeys({ logger: quiet });
const api = conventions({
  lint: 'off',
  logger: quiet,
  plugins: [bearer({ keys, issuer, audience, query: true })],
  routes: {
    '/v1/x': {
      GET: () => ({ ok: true }),
      POST: { handler: () => ({ ok: true }), config: { accepts: ['form'], scopes: ['w'] } },
    },
  },
});
const { token: good } = await issueAccessToken(keys, {
  issuer,
  audience,
  subject: 'alice',
  clientId: 'c',
  scope: 'w',
  ttlSeconds: 600,
});

// Header values as HTTP lets them through: visible ASCII, space and tab.
const printable = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 300,
});
const b64url = (value: unknown) =>
  Buffer.from(JSON.stringify(value) ?? 'null').toString('base64url');
const json = fc.jsonValue({ maxDepth: 2 });
const jwtLike = fc
  .tuple(
    fc.oneof(
      json,
      fc.record({
        alg: fc.constantFrom('none', 'HS256', 'EdDSA', 'ES256', 'RS256'),
        kid: fc.constantFrom(keys.signing.kid, 'x'),
        typ: fc.constantFrom('at+jwt', 'JWT'),
      }),
    ),
    fc.oneof(
      json,
      fc.constant(JSON.parse(Buffer.from(good.split('.')[1]!, 'base64url').toString())),
    ),
    fc.oneof(
      fc.constant(''),
      fc.base64String().map((s) => s.replace(/[+/=]/g, 'A')),
      fc.constant(good.split('.')[2]!),
    ),
  )
  .map(([h, p, s]) => `${b64url(h)}.${b64url(p)}.${s}`);
const credentials = fc.oneof(
  printable,
  printable.map((t) => `Bearer ${t}`),
  jwtLike.map((t) => `Bearer ${t}`),
  jwtLike.map((t) => `bearer  ${t}, Bearer ${good}`),
);

async function status(input: RequestInput): Promise<{ status: number; challenge: unknown }> {
  const r = await api.handle(input);
  return { status: r.status, challenge: r.headers['www-authenticate'] };
}

function expectClean({ status: s, challenge }: { status: number; challenge: unknown }): void {
  expect([200, 400, 401, 403]).toContain(s);
  if (s !== 200) expect(challenge).toMatch(/^Bearer realm="api"[\x20-\x7e]*$/);
}

describe('bearer checks under hostile input (RFC 6750 §3.1)', () => {
  it('answers any Authorization header with 200, 400 or 401 and a clean challenge, never a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(credentials, async (authorization) => {
        expectClean(
          await status({ method: 'GET', url: '/v1/x', headers: new Headers({ authorization }) }),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('answers any query or form token without a 5xx', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(printable, jwtLike), fc.boolean(), async (token, inBody) => {
        const encoded = encodeURIComponent(token);
        const input: RequestInput = inBody
          ? {
              method: 'POST',
              url: '/v1/x',
              headers: new Headers({ 'content-type': 'application/x-www-form-urlencoded' }),
              readBody: () => Promise.resolve(new TextEncoder().encode(`access_token=${encoded}`)),
            }
          : { method: 'GET', url: `/v1/x?access_token=${encoded}`, headers: new Headers() };
        expectClean(await status(input));
      }),
      { numRuns: 200 },
    );
  });
});
