/**
 * Our full stack for the bench, built from what the built package exports: each feature is
 * switched on when its export exists (security headers, CORS, negotiation, bearer JWT check with
 * its verified-token cache, rate limit, ETag and caching, the paging envelope; field selection
 * off), so the targets follow the library as features land. A feature whose options changed is
 * left off with its reason on stderr, and the server's ready line lists what is on.
 */
import * as lib from '../../dist/index.mjs';
import { AUDIENCE, ISSUER, JWK, LIMIT, ORIGIN, PRIVATE_JWK, WINDOW_MS } from './_auth.mjs';
import { payload } from './_server.mjs';

/** A store shared by the stack's plugins: Redis when `REDIS_URL` is set and the subpath is built. */
async function redisStore() {
  const url = process.env.REDIS_URL;
  if (!url) return undefined;
  const redis = await import('../../dist/redis.mjs');
  const { createClient } = await import('redis');
  const client = createClient({ url });
  await client.connect();
  // api-conventions/redis: `new RedisStore({ command: redisCommand(client) })` (docs/redis.md).
  if (typeof redis.RedisStore === 'function' && typeof redis.redisCommand === 'function') {
    return new redis.RedisStore({ command: redis.redisCommand(client) });
  }
  throw new Error('dist/redis.mjs exports no Redis store this bench knows how to build');
}

/**
 * The conventions for `GET /v1/books` with every feature the package has, and the names of the
 * features switched on. `first` are plugins put before them (telemetry), `options` more options
 * of `conventions()` (request ids).
 */
export async function fullStack({ first = [], options = {} } = {}) {
  const features = first.map((plugin) => plugin.name);
  const plugins = [...first];
  const store = await redisStore();
  if (store) features.push('redis');
  const add = (name, make) => {
    if (typeof make !== 'function') return;
    try {
      const plugin = make();
      if (plugin) {
        plugins.push(plugin);
        features.push(name);
      }
    } catch (error) {
      console.error(`bench: ${name} left off: ${error.message}`);
    }
  };
  const storeOption = store ? { store } : {};
  add('security-headers', lib.securityHeaders && (() => lib.securityHeaders()));
  add('cors', lib.cors && (() => lib.cors({ origins: [ORIGIN] })));
  add('negotiation', lib.negotiation && (() => lib.negotiation()));
  const keys =
    lib.createTokenKeys &&
    (await lib
      .createTokenKeys({
        keys: [{ kid: JWK.kid, alg: 'EdDSA', publicKey: JWK, privateKey: PRIVATE_JWK }],
      })
      .catch((error) => console.error(`bench: bearer left off: ${error.message}`)));
  add(
    'bearer',
    lib.bearer &&
      keys &&
      (() => lib.bearer({ keys, issuer: ISSUER, audience: AUDIENCE, ...storeOption })),
  );
  add(
    'rate-limit',
    lib.rateLimit &&
      (() =>
        lib.rateLimit({
          policies: [{ limit: LIMIT, window: WINDOW_MS / 1000 }],
          ...storeOption,
        })),
  );
  add('caching', lib.caching && (() => lib.caching()));
  add('payloads', lib.payloads && (() => lib.payloads()));
  const routes = { '/v1/books': { GET: () => payload } };
  const api = lib.conventions({
    routes,
    plugins,
    logger: { error: (o, m) => console.error(m, o?.err ?? o), warn() {} },
    ...options,
  });
  if (options.requestIds) features.push('request-ids');
  return { api, features };
}
