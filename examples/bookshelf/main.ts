/**
 * Starts the bookshelf: `ADAPTER=node|… PORT=3000 HOST=127.0.0.1 ISSUER=https://… REDIS_URL=…
 * TOKEN_KEYS=… npm run example`. Under NODE_ENV=production it also needs ALLOW_DEMO_SECRETS=1:
 * its clients and users have published secrets.
 */
import { createBookshelf } from './app.ts';
import { type AdapterName, adapters, loadHost } from './hosts/host.ts';
import { connectSharedState, type SharedState } from './shared-state.ts';
import { startTracing, type Tracing } from './telemetry.ts';
import { bookshelfTokenKeys, sharedIssuerName, sharedTtlMs } from './token-keys.ts';

const adapter = (process.env.ADAPTER ?? 'node') as AdapterName;
if (!adapters.includes(adapter)) {
  console.error(`ADAPTER must be one of ${adapters.join(', ')}; got "${adapter}".`);
  process.exit(1);
}
// The demo clients and users have secrets anyone can read in this repository, and without
// TOKEN_KEYS tokens are signed with a key of this process: a production start must ask for that.
if (process.env.NODE_ENV === 'production' && process.env.ALLOW_DEMO_SECRETS !== '1') {
  console.error(
    'The bookshelf is a demonstration: its clients and users have published secrets (demo-client:demo-secret, alice:wonderland…), and without TOKEN_KEYS it signs tokens with a key of this process. Under NODE_ENV=production it starts only when asked: set ALLOW_DEMO_SECRETS=1 to run it anyway.',
  );
  process.exit(1);
}
const host = process.env.HOST ?? '127.0.0.1';
const port = Number(process.env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  console.error(`PORT must be a whole number from 0 to 65535; got "${process.env.PORT}".`);
  process.exit(1);
}

/** A whole-number knob of the environment, or its default; anything else stops the start. */
function wholeNumber(name: string, fallback: number, min: number): number {
  const text = process.env[name];
  if (text === undefined || text === '') return fallback;
  const value = Number(text);
  if (!/^\d+$/.test(text) || !Number.isSafeInteger(value) || value < min) {
    console.error(`${name} must be a whole number from ${min}; got "${text}".`);
    process.exit(1);
  }
  return value;
}
const rateLimit = {
  limit: wholeNumber('RATE_LIMIT', 1000, 1),
  window: wholeNumber('RATE_WINDOW', 3600, 1),
};

// With REDIS_URL every piece of shared state lives in that Redis; without Redis, no start.
let shared: SharedState | undefined;
if (process.env.REDIS_URL) {
  try {
    shared = await connectSharedState(process.env.REDIS_URL);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}

const tokenTtl = wholeNumber('TOKEN_TTL', 3600, 1);

// TOKEN_KEYS (a JWK set, or a file with one); else, with REDIS_URL, a development key shared
// through Redis so that instances accept each other's tokens; else a key of this process.
let keys: Awaited<ReturnType<typeof bookshelfTokenKeys>>;
try {
  keys = await bookshelfTokenKeys(process.env.TOKEN_KEYS, shared?.store);
} catch (error) {
  console.error((error as Error).message);
  await shared?.close();
  process.exit(1);
}

// The token issuer is fixed, never taken from a request's Host: tokens, metadata and revocation
// then agree whatever host name a client uses (docs/oauth.md). ISSUER is the public URL clients
// see (behind a proxy, or shared by instances); without it, the origin this process listens on.
const issuerText = process.env.ISSUER;
if (issuerText !== undefined && issuerText !== '' && !/^https?:\/\/[^/?#]+/.test(issuerText)) {
  console.error(
    `ISSUER must be an http(s) URL such as https://books.example.com; got "${issuerText}".`,
  );
  process.exit(1);
}
// A wildcard address is no origin a client can name; localhost is where it answers.
const origin = (port: number) => {
  const name = host === '0.0.0.0' || host === '::' || host === '' ? 'localhost' : host;
  return `http://${name.includes(':') ? `[${name}]` : name}:${port}`;
};
let listeningOrigin: string | undefined;
const issuer =
  issuerText ||
  (() => {
    // Asked on the first request that needs it, which comes once the server listens.
    if (listeningOrigin === undefined) throw new Error('The bookshelf does not listen yet.');
    return listeningOrigin;
  });

// OTEL_EXPORTER_OTLP_ENDPOINT: traces to that collector, registered before the service is built.
const tracing: Tracing | undefined = process.env.OTEL_EXPORTER_OTLP_ENDPOINT
  ? startTracing()
  : undefined;

const serve = await loadHost(adapter);
const running = await serve(
  createBookshelf({
    observability: tracing !== undefined,
    rateLimit,
    oauth: { tokenTtl, issuer, ...(keys ? { keys: Promise.resolve(keys) } : {}) },
    ...(shared ? { store: shared.store } : {}),
  }),
  { port, host },
);
listeningOrigin = origin(running.port);
if (tracing) console.log(`traces to ${process.env.OTEL_EXPORTER_OTLP_ENDPOINT}`);
if (shared && typeof issuer !== 'string') {
  // Instances on one Redis without ISSUER share the first one's origin as their issuer, so
  // tokens and revocations agree; ISSUER (the public URL in front of them) is the real setting.
  await shared.store.add(sharedIssuerName, listeningOrigin, sharedTtlMs);
  listeningOrigin = (await shared.store.get(sharedIssuerName)) ?? listeningOrigin;
}
console.log(`listening on http://${host}:${running.port} (${adapter})`);
console.log(`token issuer ${typeof issuer === 'string' ? issuer : listeningOrigin}`);

const stop = () => {
  running
    .close()
    .then(() => shared?.close())
    // What is still batched is exported before the process ends.
    .then(() => tracing?.shutdown())
    .then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
