/** No hostile Authorization header, query or form token makes the bearer checks answer a 5xx. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { RequestInput } from '../../src/host.ts';
import { bearer, conventions, createTokenKeys } from '../../src/index.ts';
import { issueAccessToken } from '../../src/oauth.ts';

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
const [goodHeader64, goodPayload64, goodSignature] = good.split('.') as [string, string, string];
const goodHeaderJson = JSON.parse(Buffer.from(goodHeader64, 'base64url').toString());
const goodPayload = JSON.parse(Buffer.from(goodPayload64, 'base64url').toString());
// The good token's claims with one of them changed: a forgery under the good signature.
const forgedPayload = fc
  .tuple(fc.constantFrom('sub', 'scope', 'exp', 'aud', 'client_id'), json)
  .map(([claim, value]) => ({ ...goodPayload, [claim]: value }));
const jwtLike = fc
  .tuple(
    fc.oneof(
      json,
      fc.record({
        alg: fc.constantFrom('none', 'HS256', 'EdDSA', 'ES256', 'RS256'),
        kid: fc.constantFrom(keys.signing.kid, 'x'),
        typ: fc.constantFrom('at+jwt', 'JWT'),
      }),
      fc.constant(goodHeaderJson),
    ),
    fc.oneof(json, fc.constant(goodPayload), forgedPayload),
    fc.oneof(
      fc.constant(''),
      fc.base64String().map((s) => s.replace(/[+/=]/g, 'A')),
      fc.constant(goodSignature),
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

/** `Bearer` (any case, RFC 7235 §2.1) and the good token alone (RFC 6750 §2.1). */
const goodHeader = new RegExp(`^bearer +${good.replace(/[.+]/g, '\\$&')}$`, 'i');

/**
 * 200 for the good token exactly, and only for it: anything else, a forged payload under the good
 * signature included, is refused with a clean challenge.
 */
function expectClean(
  isGood: boolean,
  { status: s, challenge }: { status: number; challenge: unknown },
): void {
  if (isGood) {
    expect(s).toBe(200);
    return;
  }
  expect([400, 401, 403]).toContain(s);
  expect(challenge).toMatch(/^Bearer realm="api"[\x20-\x7e]*$/);
}

describe('bearer checks under hostile input (RFC 6750 §3.1)', () => {
  it('answers 200 to the good token alone, and any other Authorization header 400, 401 or 403 with a clean challenge', async () => {
    await fc.assert(
      fc.asyncProperty(credentials, async (authorization) => {
        expectClean(
          goodHeader.test(authorization),
          await status({ method: 'GET', url: '/v1/x', headers: new Headers({ authorization }) }),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('refuses the good signature under a forged payload with 401 (RFC 7515 §5.2, RFC 6750 §3.1)', async () => {
    expect(b64url(goodHeaderJson)).toBe(goodHeader64);
    expect(b64url(goodPayload)).toBe(goodPayload64);
    for (const [claim, value] of [
      ['sub', 'mallory'],
      ['scope', 'w admin'],
      ['exp', goodPayload.exp + 86_400],
    ] as const) {
      const forged = `${goodHeader64}.${b64url({ ...goodPayload, [claim]: value })}.${goodSignature}`;
      const authorization = `Bearer ${forged}`;
      const answer = await status({
        method: 'GET',
        url: '/v1/x',
        headers: new Headers({ authorization }),
      });
      expect(answer.status).toBe(401);
    }
    const authorization = `Bearer ${good}`;
    expect(
      (await status({ method: 'GET', url: '/v1/x', headers: new Headers({ authorization }) }))
        .status,
    ).toBe(200);
  });

  it('answers 200 to the good query or form token alone, and any other 400, 401 or 403 with a clean challenge', async () => {
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
        expectClean(token === good, await status(input));
      }),
      { numRuns: 200 },
    );
  });
});
