// An app of the agents suite, in a process of its own so that the agent loaded first (`-r` or
// `--import`) wraps the framework as it does in production: Express 5 or 4, Fastify 5, Hono 4,
// Koa 3 or NestJS 11 on platform-express
// (argv[2]), each set up as docs/existing-apps.md shows, on the built package. It serves a
// public route, a protected route with a parameter, a protected mounted router and a protected
// table route, then prints its port and a valid token as one JSON line. Run as it is, it loads
// every package with `require`; app.mjs runs it as an ES module app, loading them with `import`.
// Another host is one more entry of `serve`.
'use strict';
const { createServer } = require('node:http');

const issuer = 'https://api.example.com';
const host = process.argv[2];
const quiet = { error() {}, warn() {} };
/** Loads a package the way the app does: `require`, or `import` for an ES module app. */
let load = async (id) => require(id);

async function main() {
  const { bearer, conventions, createTokenKeys, listOf } = await load('api-conventions');
  const { issueAccessToken } = await load('api-conventions/oauth');
  const keys = await createTokenKeys({ logger: quiet });
  const plugins = [bearer({ keys, issuer, audience: issuer })];
  // With OpenTelemetry loaded, the library's own spans beside the instrumentations'.
  if (process.env.TELEMETRY === '1') plugins.push((await load('api-conventions/otel')).telemetry());
  const api = conventions({
    logger: quiet,
    plugins,
    routes: { '/v1/books': { GET: () => listOf('books', [{ id: 'dune' }], { hasNext: false }) } },
  });
  const port = await serve[host](api);
  const { token } = await issueAccessToken(keys, {
    issuer,
    audience: issuer,
    subject: 'alice',
    clientId: 'agents',
    scope: 'items:read',
    ttlSeconds: 600,
  });
  process.stdout.write(`${JSON.stringify({ port, token })}\n`);
}

const listen = (server) =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server.address().port)));

function express(id) {
  return async (api) => {
    const make = await load(id);
    const { toExpressMiddleware } = await load('api-conventions/express');
    const app = make();
    app.set('strict routing', true);
    const c = toExpressMiddleware(api);
    app.use(c.before);
    c.mount(app);
    app.get('/v1/status', c.guard({ auth: false }), (_req, res) => res.json({ ran: 'status' }));
    app.get('/v1/items/:id', (req, res) => res.json({ ran: 'item', id: req.params.id }));
    const admin = make.Router({ strict: true });
    admin.get('/reports', (_req, res) => res.json({ ran: 'reports' }));
    app.use('/v1/admin', admin);
    app.use(c.after);
    return listen(createServer(app));
  };
}

const serve = {
  express: express('express'),
  // Express 4 under its own name (the test links it there), as the agents know it: they hook
  // `express` by the name its files are found under, which the `express4` alias would hide.
  express4: express(`${__dirname}/express4/node_modules/express`),
  async fastify(api) {
    const Fastify = await load('fastify');
    const { serverOptions, toFastifyPlugin } = await load('api-conventions/fastify');
    const app = Fastify({ ...serverOptions });
    await app.register(toFastifyPlugin(api));
    app.get('/v1/status', { config: { conventions: { auth: false } } }, async () => ({
      ran: 'status',
    }));
    app.get('/v1/items/:id', async (request) => ({ ran: 'item', id: request.params.id }));
    await app.register(
      async (admin) => {
        admin.get('/reports', async () => ({ ran: 'reports' }));
      },
      { prefix: '/v1/admin' },
    );
    await app.listen({ port: 0, host: '127.0.0.1' });
    return app.server.address().port;
  },
  async hono(api) {
    const { Hono } = await load('hono');
    const { createAdaptorServer } = await load('@hono/node-server');
    const adapter = await load('api-conventions/fetch');
    const app = new Hono();
    app.use('*', adapter.toFetchMiddleware(api, { routes: () => app.routes }));
    app.onError(adapter.toFetchErrorHandler(api));
    app.get('/v1/status', adapter.toFetchGuard(api, { auth: false }), (c) =>
      c.json({ ran: 'status' }),
    );
    app.get('/v1/items/:id', (c) => c.json({ ran: 'item', id: c.req.param('id') }));
    const admin = new Hono();
    admin.get('/reports', (c) => c.json({ ran: 'reports' }));
    app.route('/v1/admin', admin);
    app.notFound(adapter.toFetchHandler(api));
    return listen(createAdaptorServer({ fetch: app.fetch }));
  },
  async koa(api) {
    const Koa = await load('koa');
    const Router = await load('@koa/router');
    const { toKoaMiddleware } = await load('api-conventions/koa');
    const app = new (Koa.default ?? Koa)();
    const c = toKoaMiddleware(api);
    app.use(c.middleware);
    const KoaRouter = Router.default ?? Router.Router ?? Router;
    const router = new KoaRouter({ strict: true });
    router.get('/v1/status', c.guard({ auth: false }), (ctx) => {
      ctx.body = { ran: 'status' };
    });
    router.get('/v1/items/:id', (ctx) => {
      ctx.body = { ran: 'item', id: ctx.params.id };
    });
    const admin = new KoaRouter({ strict: true });
    admin.get('/reports', (ctx) => {
      ctx.body = { ran: 'reports' };
    });
    router.use('/v1/admin', admin.routes());
    app.use(router.routes());
    return listen(createServer(app.callback()));
  },
  // NestJS on platform-express, its decorators applied as functions (this file is plain JS).
  async nest(api) {
    await load('reflect-metadata');
    const { Controller, Get, Module, Param } = await load('@nestjs/common');
    const { NestFactory } = await load('@nestjs/core');
    const { ConventionsModule, Public } = await load('api-conventions/nest');
    const method = (target, name, ...decorators) => {
      const descriptor = Object.getOwnPropertyDescriptor(target.prototype, name);
      for (const decorate of decorators) decorate(target.prototype, name, descriptor);
    };
    class Items {
      status() {
        return { ran: 'status' };
      }
      item(id) {
        return { ran: 'item', id };
      }
    }
    Param('id')(Items.prototype, 'item', 0);
    method(Items, 'status', Get('status'), Public());
    method(Items, 'item', Get('items/:id'));
    Controller('v1')(Items);
    class Admin {
      reports() {
        return { ran: 'reports' };
      }
    }
    method(Admin, 'reports', Get('reports'));
    Controller('v1/admin')(Admin);
    class AppModule {}
    Module({ imports: [ConventionsModule.forRoot(api)], controllers: [Items, Admin] })(AppModule);
    const app = await NestFactory.create(AppModule, { logger: false });
    await app.listen(0, '127.0.0.1');
    return app.getHttpServer().address().port;
  },
};

/** Starts the app, loading its packages with `loader` (`require` when run as it is). */
exports.start = (loader) => {
  if (loader !== undefined) load = loader;
  main().catch((error) => {
    process.stderr.write(`${error.stack}\n`);
    process.exit(1);
  });
};

if (require.main === module) exports.start();
