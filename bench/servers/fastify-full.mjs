/** fastify-full: our full stack through the Fastify plugin, beside fastify-peer. */
import Fastify from 'fastify';
import { toFastifyPlugin } from '../../dist/fastify.mjs';
import { fullStack } from './_full-stack.mjs';
import { otelOptions } from './_otel.mjs';
import { HOST, PORT, ready } from './_server.mjs';

const { api, features } = await fullStack(await otelOptions());
const app = Fastify({ logger: false });
await app.register(toFastifyPlugin(api));

await app.listen({ host: HOST, port: PORT });
ready(app.server.address().port, features);
