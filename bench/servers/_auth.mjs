/**
 * What the bench servers share about tokens: the run's public key, issuer, audience and allowed
 * origin (the harness sets `BENCH_*`), and the bearer check the peer stacks use, written as users
 * write it with jose: verify every token, no cache.
 */
import { importJWK, jwtVerify } from 'jose';

export const ORIGIN = process.env.BENCH_ORIGIN ?? 'https://app.example.com';
export const ISSUER = process.env.BENCH_ISSUER ?? 'https://auth.bench.example';
export const AUDIENCE = process.env.BENCH_AUDIENCE ?? 'https://api.bench.example';

if (!process.env.BENCH_JWK) {
  throw new Error('BENCH_JWK is not set: bench/run.mjs starts this server with the run’s key');
}
/** The run's public key as a JWK (`kid`, `alg: EdDSA`). */
export const JWK = JSON.parse(process.env.BENCH_JWK);
/** The private half, for our stacks' key sets only (`undefined` when the harness gave none). */
export const PRIVATE_JWK = process.env.BENCH_PRIVATE_JWK
  ? JSON.parse(process.env.BENCH_PRIVATE_JWK)
  : undefined;
const key = await importJWK(JWK, 'EdDSA');

/** Rate limits high enough never to answer 429 in a run: the counting is what is measured. */
export const LIMIT = 1_000_000_000;
export const WINDOW_MS = 60_000;

/** The token's claims, or `undefined` when the `Authorization` value holds no valid token. */
export async function verifyBearer(authorization) {
  if (typeof authorization !== 'string' || !authorization.startsWith('Bearer ')) return undefined;
  try {
    const { payload } = await jwtVerify(authorization.slice(7), key, {
      issuer: ISSUER,
      audience: AUDIENCE,
      algorithms: ['EdDSA'],
      typ: 'at+jwt',
    });
    return payload;
  } catch {
    return undefined;
  }
}
