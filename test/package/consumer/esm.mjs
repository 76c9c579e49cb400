// An ESM consumer of the built package, as a user's project would import it.
import { createServer } from 'node:http';
import { conventions, isApiError, notFound } from 'api-conventions';
import { audit, formatJson } from 'api-conventions/audit';
import { createExpressMiddleware } from 'api-conventions/express';
import { fastifyConventions } from 'api-conventions/fastify';
import { toFetchHandler } from 'api-conventions/fetch';
import * as host from 'api-conventions/host';
import { toNodeHandler } from 'api-conventions/node';
import { RedisStore } from 'api-conventions/redis';

const api = conventions({
  routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } },
});
const handler = toFetchHandler(api);
const response = await handler(new Request('http://x/v1/books'));
const server = createServer(toNodeHandler(api));
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const res = await fetch(`http://127.0.0.1:${server.address().port}/v1/Books`);
server.close();
console.log(
  JSON.stringify({
    fetchStatus: response.status,
    fetchBody: await response.json(),
    nodeStatus: res.status,
    isApiError: isApiError(notFound('x')),
    express: typeof createExpressMiddleware,
    fastify: typeof fastifyConventions,
    host: typeof host,
    redis: typeof RedisStore,
    audit: [typeof audit, typeof formatJson],
  }),
);
