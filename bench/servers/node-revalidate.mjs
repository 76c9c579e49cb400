/**
 * node-revalidate: the built package's `node:http` adapter with negotiation and caching, serving
 * the bench payload twice: `/v1/books` tags the sent bytes, `/v1/editions` reads a version
 * before its handler (so its 304 skips the handler and the serializer).
 */
import http from 'node:http';
import { caching, conventions, negotiation } from '../../dist/index.mjs';
import { toNodeHandler } from '../../dist/node.mjs';
import { HOST, PORT, payload, ready } from './_server.mjs';

const api = conventions({
  routes: {
    '/v1/books': { GET: () => payload },
    '/v1/editions': {
      GET: { handler: () => payload, config: { resourceVersion: () => ({ version: '1' }) } },
    },
  },
  plugins: [negotiation(), caching()],
});
const server = http.createServer(toNodeHandler(api));

server.listen(PORT, HOST, () => ready(server.address().port));
