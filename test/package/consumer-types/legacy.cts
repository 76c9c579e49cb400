// A CommonJS module of the same project: it extends RouteConfig as its own copy of the types
// (index.d.cts) and uses the Fastify subpath too.
import Fastify = require('fastify');
import adapter = require('api-conventions/fastify');

declare module 'api-conventions' {
  interface RouteConfig {
    /** The tenant whose data the route reads. */
    tenant?: string;
  }
}

const app = Fastify.default();
app.register(adapter.toFastifyPlugin({ routes: {} }));
app.post(
  '/v1/shelves',
  {
    config: { conventions: { body: { name: { type: 'string' } }, tenant: 'shelf', audit: false } },
  },
  async () => ({}),
);
app.patch(
  '/v1/shelves/:id',
  // @ts-expect-error a field rule needs its type
  { config: { conventions: { body: { name: { required: true } } } } },
  async () => ({}),
);
// @ts-expect-error `audit`, added by the ES module side's extension, is a boolean here too
app.delete('/v1/shelves/:id', { config: { conventions: { audit: 'yes' } } }, async () => ({}));
