/**
 * The JWS verification around jose's `jwtVerify` (RFC 7515, RFC 9068 §4, RFC 8725): what is
 * decided before any signature work, canonical segments, and the clock with its tolerance.
 */
import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { describe, expect, it, vi } from 'vitest';
import { verifyJws } from '../../src/core/tokens/jws.ts';
import type { ApiResponse, RequestInput } from '../../src/host.ts';
import { bearer, conventions, createTokenKeys } from '../../src/index.ts';

const issuer = 'https://auth.example.com';
const audience = 'https://api.example.com';
const quiet = { error: vi.fn(), warn: vi.fn() };
const secret = 's'.repeat(40);
const keys = await createTokenKeys({ keys: [{ kid: 'hs-1', secret }] });
const edKeys = await createTokenKeys({ logger: quiet });
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const t0 = 1_800_000_000;

function claims(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    iss: issuer,
    aud: audience,
    sub: 'alice',
    client_id: 'demo-client',
    scope: 'books:read',
    jti: crypto.randomUUID(),
    iat: t0,
    exp: t0 + 60,
    ...extra,
  };
}

function sign(payload: Record<string, unknown>, header: Record<string, unknown> = {}) {
  return new SignJWT(payload)
    .setProtectedHeader({ alg: 'HS256', kid: 'hs-1', typ: 'at+jwt', ...header })
    .sign(keys.signing.signKey as Uint8Array);
}

/** Signs a payload given as JSON text, which jose's signer would not write (`1e999`). */
function signText(payloadJson: string): string {
  const input = `${b64({ alg: 'HS256', kid: 'hs-1', typ: 'at+jwt' })}.${Buffer.from(payloadJson).toString('base64url')}`;
  return `${input}.${createHmac('sha256', secret).update(input).digest('base64url')}`;
}

const expected = (tolerance = 0) => ({
  issuer,
  audience,
  tolerance,
  typ: 'at+jwt' as const,
  algorithms: ['EdDSA', 'ES256', 'HS256'] as const,
});

describe('verifyJws: the header against the key, before any signature work (RFC 8725 §3.1)', () => {
  it.each([
    ['an alg other than the key’s', { alg: 'HS512' }],
    ['an unknown kid', { kid: 'nope' }],
    ['a critical extension', { crit: ['ext'], ext: true }],
    ['an unencoded payload (RFC 7797)', { b64: false }],
    ['a typ other than at+jwt', { typ: 'JWT' }],
  ])('refuses %s synchronously, with no promise', (_name, header) => {
    const token = `${b64({ alg: 'HS256', kid: 'hs-1', typ: 'at+jwt', ...header })}.${b64(claims())}.${'A'.repeat(43)}`;
    expect(verifyJws(token, keys, expected(), () => t0 * 1000)).toMatchObject({
      problem: 'invalid',
    });
  });

  it('answers a promise of the claims once the header fits its key', async () => {
    const token = await sign(claims());
    const judged = verifyJws(token, keys, expected(), () => t0 * 1000);
    expect(judged).toBeInstanceOf(Promise);
    expect(await judged).toMatchObject({ payload: { sub: 'alice' }, key: { kid: 'hs-1' } });
  });
});

describe('verifyJws: the clock, with its tolerance (RFC 9068 §4 step 7, RFC 7519 §4.1.4-5)', () => {
  it('accepts until the last millisecond before exp + tolerance, then says expired', async () => {
    const token = await sign(claims());
    for (const tolerance of [0, 30]) {
      const end = (t0 + 60 + tolerance) * 1000;
      expect(await verifyJws(token, keys, expected(tolerance), () => end - 1)).toHaveProperty(
        'payload',
      );
      expect(await verifyJws(token, keys, expected(tolerance), () => end)).toMatchObject({
        problem: 'expired',
      });
    }
  });

  it('refuses a token before nbf - tolerance, and accepts it from then on', async () => {
    const token = await sign(claims({ nbf: t0 + 10 }));
    expect(await verifyJws(token, keys, expected(5), () => (t0 + 4) * 1000 + 999)).toMatchObject({
      problem: 'invalid',
    });
    expect(await verifyJws(token, keys, expected(5), () => (t0 + 5) * 1000)).toHaveProperty(
      'payload',
    );
  });

  it.each([
    ['exp', '1e999'],
    ['iat', '1e999'],
    ['nbf', '-1e999'],
  ])('refuses a %s that is not a finite number (%s, RFC 8725 §3.10)', async (claim, value) => {
    const json = JSON.stringify(claims({ [claim]: 7 }));
    const token = signText(json.replace(`"${claim}":7`, `"${claim}":${value}`));
    expect(await verifyJws(token, keys, expected(), () => t0 * 1000)).toMatchObject({
      problem: 'invalid',
    });
  });
});

describe('bearer: one spelling per token (RFC 4648 §3.5)', () => {
  const request = (token: string): RequestInput => ({
    method: 'GET',
    url: '/v1/books',
    headers: new Headers({ authorization: `Bearer ${token}` }),
  });
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

  /** `segment` with its last character's unused low bits set: the same bytes to a lenient decoder. */
  function spareBitsSet(segment: string): string | undefined {
    const spare = { 2: 4, 3: 2 }[segment.length % 4];
    if (spare === undefined) return undefined;
    const last = alphabet.indexOf(segment.at(-1)!);
    return segment.slice(0, -1) + alphabet[last | ((1 << spare) - 1)];
  }

  it.each([
    ['EdDSA', edKeys],
    ['HS256', keys],
  ])(
    'refuses a %s token whose segments have non-zero spare bits, a valid copy cached or not',
    async (_alg, k) => {
      const plugin = bearer({ keys: k, issuer, audience });
      const api = conventions({
        lint: 'off',
        logger: quiet,
        plugins: [plugin],
        routes: { '/v1/books': { GET: () => ({ books: [] }) } },
      });
      const send = (token: string): Promise<ApiResponse> =>
        Promise.resolve(api.handle(request(token)));
      let altered = 0;
      for (let round = 0; round < 4; round++) {
        const payload = claims({
          iat: Math.floor(Date.now() / 1000),
          exp: Math.floor(Date.now() / 1000) + 60,
          pad: 'x'.repeat(round),
        });
        const token = await new SignJWT(payload)
          .setProtectedHeader({ alg: k.signing.alg, kid: k.signing.kid, typ: 'at+jwt' })
          .sign(k.signing.signKey!);
        const parts = token.split('.');
        for (let i = 0; i < 3; i++) {
          const changed = spareBitsSet(parts[i]!);
          if (changed === undefined || changed === parts[i]) continue;
          const forged = parts.map((p, j) => (j === i ? changed : p)).join('.');
          // The same bytes to jose's decoder: only the canonical check tells them apart.
          expect(Buffer.from(changed, 'base64url')).toEqual(Buffer.from(parts[i]!, 'base64url'));
          for (const cached of [false, true]) {
            if (cached) expect((await send(token)).status).toBe(200);
            const r = await send(forged);
            expect(r.status).toBe(401);
            expect(r.headers['www-authenticate']).toMatch(/error="invalid_token"/);
            altered++;
          }
        }
      }
      expect(altered).toBeGreaterThan(0);
    },
  );
});
