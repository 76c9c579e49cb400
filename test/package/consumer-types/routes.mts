// An ES module of a project that mixes .mts and .cts files, extends RouteConfig and gives
// Fastify's own routes their api-conventions settings.
import { toFastifyPlugin } from 'api-conventions/fastify';
import Fastify from 'fastify';

declare module 'api-conventions' {
  interface RouteConfig {
    /** Whether the route's calls are written to the audit log. */
    audit?: boolean;
  }
}

const app = Fastify();
await app.register(toFastifyPlugin({ routes: {} }));
app.post(
  '/v1/books',
  { config: { conventions: { body: { title: { type: 'string', required: true } }, audit: true } } },
  async () => ({}),
);
app.put('/v1/books/:id', { config: { conventions: { tenant: 'shelf' } } }, async () => ({}));
// @ts-expect-error `tenant`, added by the CommonJS side's extension, is a string here too
app.get('/v1/books/:id', { config: { conventions: { tenant: 42 } } }, async () => ({}));
app.patch(
  '/v1/books/:id',
  // @ts-expect-error a field type outside FieldType is rejected
  { config: { conventions: { body: { title: { type: 'text' } } } } },
  async () => ({}),
);
// @ts-expect-error `audit` is a boolean
app.delete('/v1/books/:id', { config: { conventions: { audit: 'yes' } } }, async () => ({}));
