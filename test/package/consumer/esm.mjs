// An ESM consumer of the built package, as a user's project would import it: every subpath,
// each used for what it is for.
import { createServer } from 'node:http';
import { conventions, isApiError, notFound } from 'api-conventions';
import { audit, formatJson } from 'api-conventions/audit';
import { createClient, isApiResponseError } from 'api-conventions/client';
import { toExpressMiddleware } from 'api-conventions/express';
import { toFastifyPlugin } from 'api-conventions/fastify';
import { toClientErrorHandler, toFetchHandler } from 'api-conventions/fetch';
import { bindHost } from 'api-conventions/host';
import { checkPayload, hasErrors, lintRoutes } from 'api-conventions/lint';
import { serverOptions, toNodeHandler } from 'api-conventions/node';
import { hashClientSecret, oauthError, oauthServer } from 'api-conventions/oauth';
import { telemetry } from 'api-conventions/otel';
import { RedisStore, redisCommand } from 'api-conventions/redis';
import express from 'express';
import Fastify from 'fastify';

const api = conventions({
  routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } },
});
const response = await toFetchHandler(api)(new Request('http://x/v1/books'));
// Telemetry with the global API and no SDK (its no-op), and request ids.
const traced = conventions({
  routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } },
  requestIds: true,
  plugins: [telemetry()],
});
const tracedResponse = await toFetchHandler(traced)(
  new Request('http://x/v1/books', { headers: { 'x-request-id': 'r-1' } }),
);

// The client, on the service's fetch handler: a body, then a 404 as an ApiResponseError.
const client = createClient({
  baseUrl: 'http://x',
  fetch: (input, init) => toFetchHandler(api)(new Request(input, init)),
});
const listed = await client.get('/v1/books');
const missing = await client.get('/v1/nothing').catch((error) => error);

const server = createServer(serverOptions, toNodeHandler(api));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const res = await fetch(`http://127.0.0.1:${server.address().port}/v1/Books`);
server.close();

const app = express();
app.set('strict routing', true);
const c = toExpressMiddleware(api);
app.use(c.before);
c.mount(app);
app.use(c.after);

const fastify = Fastify();
await fastify.register(toFastifyPlugin(api));
const injected = await fastify.inject('/v1/books');
await fastify.close();

console.log(
  JSON.stringify({
    fetchStatus: response.status,
    fetchBody: await response.json(),
    nodeStatus: res.status,
    isApiError: isApiError(notFound('x')),
    express: Object.keys(c).sort(),
    fastifyStatus: injected.statusCode,
    // One copy of the core behind every subpath: what one makes, the others recognise.
    host: typeof bindHost(api, { input: (i) => i }).enter === 'function',
    oauth: [
      typeof oauthServer,
      isApiError(oauthError('invalid_grant', 'x')),
      (await hashClientSecret('s')).split(':')[0],
    ],
    redis: [typeof RedisStore, typeof redisCommand],
    audit: [typeof audit, typeof formatJson],
    lint: [
      hasErrors(lintRoutes(['/v1/Books'])),
      lintRoutes(['/v1/books']),
      checkPayload({ book: [] }).length,
    ],
    clientErrors: [typeof toClientErrorHandler(api), serverOptions.maxHeaderSize],
    otel: [typeof telemetry, tracedResponse.status, tracedResponse.headers.get('x-request-id')],
    client: [listed.hasNext, missing.status, isApiResponseError(missing), missing.code],
  }),
);
