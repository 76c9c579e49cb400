/**
 * The bench's bearer tokens: one EdDSA key pair made per run, the public half handed to every
 * server (`BENCH_JWK`, and the private half as `BENCH_PRIVATE_JWK` to ours, whose key set must
 * be able to sign), tokens signed here with jose in the shape of RFC 9068 access tokens so
 * that every stack, ours and the peers, verifies the same bytes.
 */
import { writeFileSync } from 'node:fs';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';

export const ISSUER = 'https://auth.bench.example';
export const AUDIENCE = 'https://api.bench.example';
export const ORIGIN = 'https://app.example.com';
const KID = 'bench-1';

/** A key pair and what the servers need to know of it, as environment variables. */
export async function makeKeys() {
  const { privateKey, publicKey } = await generateKeyPair('EdDSA', { extractable: true });
  const jwk = { ...(await exportJWK(publicKey)), kid: KID, alg: 'EdDSA', use: 'sig' };
  // Our stacks take a key set that can sign (as a service's does); the peers see the public half.
  const secret = { ...(await exportJWK(privateKey)), kid: KID, alg: 'EdDSA' };
  return {
    privateKey,
    env: {
      BENCH_JWK: JSON.stringify(jwk),
      BENCH_PRIVATE_JWK: JSON.stringify(secret),
      BENCH_ISSUER: ISSUER,
      BENCH_AUDIENCE: AUDIENCE,
      BENCH_ORIGIN: ORIGIN,
    },
  };
}

/** One access token for `sub`, valid for an hour. */
export function sign(keys, sub, jti) {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({ scope: 'books:read', client_id: 'bench-client' })
    .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: KID })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(sub)
    .setJti(jti)
    .setIssuedAt(now)
    .setExpirationTime(now + 3600)
    .sign(keys.privateKey);
}

/**
 * `count` distinct tokens, one a line, in `file`: the load generators send each once in turn,
 * so that a verified-token cache smaller than the pool never hits. Spread over 1,000 users, as
 * a busy service would see them.
 */
export async function writeTokenPool(keys, file, count) {
  const lines = [];
  for (let i = 0; i < count; i++) lines.push(await sign(keys, `user-${i % 1000}`, `fresh-${i}`));
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}
