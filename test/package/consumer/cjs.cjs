// A CommonJS consumer of the built package, as a user's project would require it.
const { conventions, isApiError, notFound } = require('api-conventions');
const { toNodeHandler } = require('api-conventions/node');
const { createExpressMiddleware } = require('api-conventions/express');
const { fastifyConventions } = require('api-conventions/fastify');
const { toFetchHandler } = require('api-conventions/fetch');
const host = require('api-conventions/host');
const { RedisStore } = require('api-conventions/redis');
const { audit, formatJson } = require('api-conventions/audit');

const api = conventions({
  routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } },
});
// A fetch handler may answer synchronously; Promise.resolve takes either.
Promise.resolve(toFetchHandler(api)(new Request('http://x/v1/books'))).then(async (response) => {
  console.log(
    JSON.stringify({
      fetchStatus: response.status,
      fetchBody: await response.json(),
      node: typeof toNodeHandler(api),
      isApiError: isApiError(notFound('x')),
      express: typeof createExpressMiddleware,
      fastify: typeof fastifyConventions,
      host: typeof host,
      redis: typeof RedisStore,
      audit: [typeof audit, typeof formatJson],
    }),
  );
});
