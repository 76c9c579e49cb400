/**
 * fastify-ours: Fastify 5 with the package's `toFastifyPlugin(api)` plugin serving the route table,
 * peer of `fastify-bare`. The plugin registers `GET /v1/books` as a Fastify route whose handler
 * runs the core pipeline and sends the body it serialized. The harness skips this target, without
 * loading this file, while `dist/fastify.mjs` is missing.
 */
import Fastify from 'fastify';
import { toFastifyPlugin } from '../../dist/fastify.mjs';
import { conventions } from '../../dist/index.mjs';
import { HOST, PORT, payload, ready } from './_server.mjs';

const api = conventions({ routes: { '/v1/books': { GET: () => payload } } });

const app = Fastify({ logger: false });
await app.register(toFastifyPlugin(api));

await app.listen({ host: HOST, port: PORT });
ready(app.server.address().port);
