// A CommonJS consumer of the built package, as a user's project would require it: every subpath,
// each used for what it is for.
const { conventions, isApiError, notFound } = require('api-conventions');
const { audit, formatJson } = require('api-conventions/audit');
const { createClient, isApiResponseError } = require('api-conventions/client');
const { toExpressMiddleware } = require('api-conventions/express');
const { toFastifyPlugin } = require('api-conventions/fastify');
const { toClientErrorHandler, toFetchHandler } = require('api-conventions/fetch');
const { bindHost } = require('api-conventions/host');
const { checkPayload, hasErrors, lintRoutes } = require('api-conventions/lint');
const { serverOptions, toNodeHandler } = require('api-conventions/node');
const { hashClientSecret, oauthError, oauthServer } = require('api-conventions/oauth');
const { telemetry } = require('api-conventions/otel');
const { RedisStore, redisCommand } = require('api-conventions/redis');
const Fastify = require('fastify');

async function main() {
  const api = conventions({
    routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } },
  });
  // A fetch handler may answer synchronously; await takes either.
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
  const c = toExpressMiddleware(api);
  const fastify = Fastify();
  await fastify.register(toFastifyPlugin(api));
  const injected = await fastify.inject('/v1/books');
  await fastify.close();
  return {
    fetchStatus: response.status,
    fetchBody: await response.json(),
    node: typeof toNodeHandler(api),
    isApiError: isApiError(notFound('x')),
    express: Object.keys(c).sort(),
    fastifyStatus: injected.statusCode,
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
  };
}

main().then((result) => console.log(JSON.stringify(result)));
