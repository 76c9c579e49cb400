/**
 * fastify-bare: Fastify 5 with its idiomatic reply, returning the object from the handler.
 *
 * No response schema, so Fastify serializes with JSON.stringify like the other targets; a schema
 * would switch it to a precompiled serializer and measure a different thing.
 */
import Fastify from 'fastify';
import { HOST, PORT, payload, ready } from './_server.mjs';

const app = Fastify({ logger: false });
app.get('/v1/books', async () => payload);

await app.listen({ host: HOST, port: PORT });
ready(app.server.address().port);
