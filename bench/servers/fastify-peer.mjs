/**
 * fastify-peer: Fastify 5 as users assemble it: @fastify/helmet, @fastify/cors,
 * @fastify/rate-limit per user, @fastify/etag (304 on a match), and a jose bearer check in an
 * onRequest hook.
 */
import fastifyCors from '@fastify/cors';
import fastifyEtag from '@fastify/etag';
import fastifyHelmet from '@fastify/helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify from 'fastify';
import { AUDIENCE, LIMIT, ORIGIN, verifyBearer, WINDOW_MS } from './_auth.mjs';
import { HOST, PORT, payload, ready } from './_server.mjs';

const app = Fastify({ logger: false });
await app.register(fastifyHelmet);
await app.register(fastifyCors, { origin: ORIGIN });
await app.register(fastifyEtag, { weak: true });
app.addHook('onRequest', async (req, reply) => {
  const claims = await verifyBearer(req.headers.authorization);
  if (claims === undefined) {
    reply.header('www-authenticate', `Bearer realm="${AUDIENCE}"`);
    return reply
      .code(401)
      .send({ errors: [{ message: 'Authentication is required.', code: 40100 }] });
  }
  req.auth = claims;
});
await app.register(fastifyRateLimit, {
  max: LIMIT,
  timeWindow: WINDOW_MS,
  hook: 'preHandler',
  keyGenerator: (req) => req.auth?.sub ?? req.ip,
});
app.get('/v1/books', async () => payload);

await app.listen({ host: HOST, port: PORT });
ready(app.server.address().port);
