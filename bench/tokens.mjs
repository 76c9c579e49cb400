/**
 * `node bench/tokens.mjs`: access-token verification and issuing, in operations per second on
 * one core: a plain jose `jwtVerify` loop, the bearer plugin's verification of a token it has
 * not seen (the cache off, so every call verifies in full), of a token it has seen (the cache),
 * and `issueAccessToken`. jose and the first-seen path run in alternating batches, so the load of
 * a shared machine falls on both alike. The ratios show the library's own overhead over jose and the cache's
 * gain. Targets: a token already seen at least 500,000 verifications/s; a first-seen token at
 * least 0.8 of jose alone, within noise: the plugin verifies through the same `jwtVerify` and
 * adds its own checks (canonical parts, the header against the key, the identity, revocation).
 *
 * A micro-benchmark, not a test (CONTRIBUTING.md rule 19): it measures and prints, never fails
 * on speed. It times the built package (`npm run build` first). Each case runs for `--ms`
 * milliseconds per round, rounds interleaved so a drift of the machine favours no case; the
 * report gives the median over the rounds and their min–max. Pin it to one core on a shared
 * machine: `taskset -c 1 node bench/tokens.mjs` (WebCrypto runs in libuv's thread pool, which
 * the pin keeps on the same core).
 *
 * Usage: node bench/tokens.mjs [--alg EdDSA|ES256|HS256] [--rounds N] [--ms N]
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { jwtVerify } from 'jose';

const DIST = fileURLToPath(new URL('../dist/index.mjs', import.meta.url));
if (!existsSync(DIST)) {
  console.error('bench/tokens.mjs: dist/index.mjs is missing; run `npm run build` first');
  process.exit(1);
}
const { bearer, createTokenKeys } = await import(DIST);
const { issueAccessToken } = await import(new URL('../dist/oauth.mjs', import.meta.url).href);

const { values } = parseArgs({
  options: {
    alg: { type: 'string', default: 'EdDSA' },
    rounds: { type: 'string', default: '5' },
    ms: { type: 'string', default: '300' },
  },
});
const rounds = Number(values.rounds);
const ms = Number(values.ms);
const alg = values.alg;
if (
  !Number.isInteger(rounds) ||
  rounds < 1 ||
  !(ms > 0) ||
  !['EdDSA', 'ES256', 'HS256'].includes(alg)
) {
  console.error('usage: node bench/tokens.mjs [--alg EdDSA|ES256|HS256] [--rounds N] [--ms N]');
  process.exit(2);
}

const issuer = 'https://auth.example.com';
const audience = 'https://api.example.com';
const quiet = { error() {}, warn() {} };
const keys =
  alg === 'HS256'
    ? await createTokenKeys({ keys: [{ kid: 'hs', secret: 'bench-secret-'.repeat(4) }] })
    : await createTokenKeys({ algorithm: alg, logger: quiet });
const claims = {
  issuer,
  audience,
  subject: 'alice',
  clientId: 'demo-client',
  scope: 'books:read books:write',
  ttlSeconds: 3600,
};
const { token } = await issueAccessToken(keys, claims);
const expected = { issuer, audience };
const seen = bearer({ keys, issuer, audience }).tokenVerifier;
const unseen = bearer({ keys, issuer, audience, cacheSize: 0 }).tokenVerifier;
const key = keys.signing.verifyKey;
const joseOptions = { issuer, audience, typ: 'at+jwt', algorithms: [alg] };

// Every case must accept the token, or the comparison means nothing.
await jwtVerify(token, key, joseOptions);
await unseen.check(token, expected);
await seen.check(token, expected);
if (seen.check(token, expected)?.subject !== 'alice') {
  console.error('bench/tokens.mjs: the cached verification did not answer synchronously');
  process.exit(1);
}

/** Runs `op` (async) back to back for `ms`; operations per second. */
async function loopAsync(op) {
  let n = 0;
  const end = performance.now() + ms;
  let now = performance.now();
  while (now < end) {
    for (let i = 0; i < 16; i++) await op();
    n += 16;
    now = performance.now();
  }
  return n / ((now - (end - ms)) / 1000);
}

/** Runs `op` (synchronous) for `ms`; operations per second. */
function loopSync(op) {
  let n = 0;
  const start = performance.now();
  const end = start + ms;
  let now = start;
  while (now < end) {
    for (let i = 0; i < 4096; i++) op();
    n += 4096;
    now = performance.now();
  }
  return n / ((now - start) / 1000);
}

/**
 * Runs `a` and `b` (async) in alternating batches for twice `ms`, timing each batch, so that the
 * load of a shared machine falls on both alike; operations per second of each.
 */
async function pairAsync(a, b) {
  const spent = [0, 0];
  const done = [0, 0];
  const ops = [a, b];
  const end = performance.now() + 2 * ms;
  for (let turn = 0; performance.now() < end; turn ^= 1) {
    const start = performance.now();
    for (let i = 0; i < 8; i++) await ops[turn]();
    spent[turn] += performance.now() - start;
    done[turn] += 8;
  }
  return [done[0] / (spent[0] / 1000), done[1] / (spent[1] / 1000)];
}

const viaVerify = bearer({ keys, issuer, audience });
const cases = {
  'jose jwtVerify | ours, first seen': () =>
    pairAsync(
      () => jwtVerify(token, key, joseOptions),
      () => unseen.check(token, expected),
    ),
  'ours, cached': async () => [loopSync(() => seen.check(token, expected))],
  'ours, cached via verify()': async () => [await loopAsync(() => viaVerify.verify(token))],
  issueAccessToken: async () => [await loopAsync(() => issueAccessToken(keys, claims))],
};

const names = [
  'jose jwtVerify',
  'ours, first seen',
  'ours, cached',
  'ours, cached via verify()',
  'issueAccessToken',
];
const results = Object.fromEntries(names.map((n) => [n, []]));
const firstRatios = [];
const caseNames = Object.keys(cases);
for (let r = 0; r < rounds; r++) {
  for (let i = 0; i < caseNames.length; i++) {
    const name = caseNames[(i + r) % caseNames.length];
    const figures = await cases[name]();
    const parts = name.split(' | ');
    for (const [j, part] of parts.entries()) results[part].push(figures[j]);
    if (parts.length === 2) firstRatios.push(figures[1] / figures[0]);
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const fmt = (x) => Math.round(x).toLocaleString('en-US').padStart(12);
const med = Object.fromEntries(names.map((n) => [n, median(results[n])]));

console.log(`access tokens, ${alg}, ${rounds} rounds of ${ms} ms (median ops/s, min–max)`);
for (const name of names) {
  const xs = results[name];
  console.log(
    `  ${name.padEnd(28)}${fmt(med[name])}   (${fmt(Math.min(...xs)).trim()}–${fmt(Math.max(...xs)).trim()})`,
  );
}
const jose = med['jose jwtVerify'];
// The median of each round's ratio: both sides of a round ran interleaved, under the same load.
const firstRatio = median(firstRatios);
const cached = med['ours, cached'];
console.log('ratios');
console.log(
  `  first seen / jose            ${firstRatio.toFixed(2)}   (target ≥ 0.80 within noise)`,
);
console.log(`  cached / jose                ${(cached / jose).toFixed(0)}x`);
console.log(
  `  cached                       ${fmt(cached).trim()}/s   (target ≥ 500,000/s: ${cached >= 500_000 ? 'met' : 'NOT met'})`,
);
