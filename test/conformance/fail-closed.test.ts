/**
 * App-owned routes fail closed: on Express 5, Express 4, Fastify 5 and Hono 4, each set
 * up as docs/existing-apps.md shows with `bearer()` installed, a request without a token never
 * reaches a handler that is not public, whatever the host's router makes of it (trailing and
 * doubled slashes, mounted routers, answering middleware, declaration order against literal-first
 * matching, regex and optional parameters, unusual methods, forgiving host options); with a token,
 * the handler the host dispatches to answers. A set-up the library cannot hold fail-closed may
 * instead be refused at start-up with a TypeError that names what to change (CONTRIBUTING rule 6).
 * NestJS's cases are in fail-closed-nest.test.ts.
 */

import Router from '@koa/router';
import { toFetchGuard } from 'api-conventions/fetch';
import { Hono } from 'hono';
import methodOverride from 'method-override';
import { describe } from 'vitest';
import { type AppSpec, expressApp, fastifyApp, honoApp, koaApp } from './_fail-closed-apps.ts';
import { failsClosed, type RouterHost, routerCases } from './_fail-closed-cases.ts';

const routerHosts: readonly RouterHost[] = [
  { label: 'Express 5', build: (spec: AppSpec) => expressApp({ ...spec, version: 'express' }) },
  { label: 'Express 4', build: (spec: AppSpec) => expressApp({ ...spec, version: 'express4' }) },
  { label: 'Fastify 5', build: fastifyApp, literalFirst: true },
  { label: 'Hono 4', build: honoApp },
  { label: 'Koa 3', build: koaApp },
];

for (const host of routerHosts) routerCases(host);

describe('Fastify 5: trailing slashes and forgiving router options', () => {
  const byId = (scopes?: readonly string[]) =>
    fastifyApp({
      routes: [
        { method: 'GET', path: '/v1/orders/:id', name: 'order' },
        {
          method: 'DELETE',
          path: '/v1/orders/:id',
          name: 'deleteOrder',
          ...(scopes && { scopes }),
        },
      ],
    });
  const why = 'Fastify matches /v1/orders/:id with an empty id';
  failsClosed(why, byId(), 'DELETE /v1/orders/', { handler: 'deleteOrder' });
  failsClosed(why, byId(), 'GET /v1/orders/', { handler: 'order' });
  failsClosed(why, byId(), 'HEAD /v1/orders/', { handler: 'order' });
  failsClosed(
    `${why}, on a route whose config.conventions declares scopes`,
    byId(['orders:write']),
    'DELETE /v1/orders/',
    { handler: 'deleteOrder' },
  );

  const forgiving = [
    ['ignoreTrailingSlash', 'GET /v1/orders/'],
    ['ignoreDuplicateSlashes', 'GET //v1//orders'],
    ['useSemicolonDelimiter', 'GET /v1/orders;x=1'],
  ] as const;
  for (const [option, target] of forgiving) {
    failsClosed(
      `routerOptions.${option} is supported through Fastify's own match`,
      fastifyApp({ routerOptions: { [option]: true } }),
      target,
      { handler: 'orders', refusal: option },
    );
  }
});

/** Optional parameters, and each Express version's other syntax (5: wildcards; 4: regex params). */
const expressParams = {
  express: [
    { path: '/v1/opt{/:x}', targets: ['GET /v1/opt', 'GET /v1/opt/1'] },
    { path: '/v1/files/*rest', targets: ['GET /v1/files/a/b'] },
  ],
  express4: [
    { path: '/v1/opt/:x?', targets: ['GET /v1/opt', 'GET /v1/opt/1'] },
    { path: '/v1/n/:n(\\d+)', targets: ['GET /v1/n/42'] },
  ],
} as const;

for (const version of ['express', 'express4'] as const) {
  const label = version === 'express' ? 'Express 5' : 'Express 4';
  describe(`${label}: routers, middleware and parameters`, () => {
    const subRouter = expressApp({
      version,
      add: ({ app, router, answer }) => {
        const sub = router();
        sub.get('/', answer('sub'));
        sub.get('/items', answer('subItems'));
        app.use('/v1/sub', sub);
      },
    });
    const loose = 'a mounted express.Router(), not strict by default, serves a trailing slash';
    failsClosed(loose, subRouter, 'GET /v1/sub/', { handler: 'sub', refusal: 'strict' });
    failsClosed(loose, subRouter, 'GET /v1/sub/items/', { handler: 'subItems', refusal: 'strict' });
    failsClosed(
      'a Router mounted on a parameter pattern serves it',
      expressApp({
        version,
        add: ({ app, router, answer }) => {
          const members = router();
          members.get('/members', answer('members'));
          app.use('/v1/teams/:team', members);
        },
      }),
      'GET /v1/teams/7/members',
      { handler: 'members', refusal: 'Router' },
    );
    failsClosed(
      "app.use('/v1/mw', handler) answers",
      expressApp({ version, add: ({ app, answer }) => app.use('/v1/mw', answer('mw')) }),
      'GET /v1/mw/report',
      { handler: 'mw' },
    );
    failsClosed(
      "app.use('/v1/open', middleware) that hands on sits on the path of a public route",
      expressApp({
        version,
        add: ({ app, c, answerPublic }) => {
          app.use('/v1/open', (_req, _res, next) => next());
          app.get('/v1/open', c.guard({ auth: false }), answerPublic('open'));
        },
      }),
      'GET /v1/open',
      { handler: 'open', public: true },
    );
    failsClosed(
      'strict routing is off (the app skips app.set("strict routing", true))',
      expressApp({ version, strict: false }),
      'GET /v1/orders/',
      { handler: 'orders', refusal: 'strict routing' },
    );
    failsClosed(
      'a RegExp route serves it',
      expressApp({ version, add: ({ app, answer }) => app.get(/^\/v1\/re\/\d+$/, answer('re')) }),
      'GET /v1/re/7',
      { handler: 're' },
    );
    for (const { path, targets } of expressParams[version]) {
      const build = expressApp({ version, routes: [{ method: 'GET', path, name: 'param' }] });
      for (const target of targets) {
        failsClosed(`${path} serves it`, build, target, { handler: 'param' });
      }
    }
  });
}

describe('Hono 4: middleware, mounted apps, parameters and strict: false', () => {
  failsClosed(
    "app.use('/v1/mw/*', middleware) answers",
    honoApp({ add: ({ app, answer }) => app.use('/v1/mw/*', async (c) => answer('mw')(c)) }),
    'GET /v1/mw/report',
    { handler: 'mw' },
  );
  failsClosed(
    "app.mount('/v1/sub', other.fetch) serves it",
    honoApp({
      add: ({ app, answer }) => {
        const other = new Hono();
        other.get('/items', answer('subItems'));
        app.mount('/v1/sub', other.fetch);
      },
    }),
    'GET /v1/sub/items',
    { handler: 'subItems', refusal: 'mount' },
  );
  const regex = honoApp({ routes: [{ method: 'GET', path: '/v1/n/:n{[0-9]+}', name: 'n' }] });
  failsClosed('a regex parameter /v1/n/:n{[0-9]+} serves it', regex, 'GET /v1/n/42', {
    handler: 'n',
  });
  const optional = honoApp({ routes: [{ method: 'GET', path: '/v1/opt/:x?', name: 'opt' }] });
  for (const target of ['GET /v1/opt', 'GET /v1/opt/1']) {
    failsClosed('an optional parameter /v1/opt/:x? serves it', optional, target, {
      handler: 'opt',
    });
  }
  failsClosed(
    'new Hono({ strict: false }) is supported through Hono’s own match',
    honoApp({ strict: false }),
    'GET /v1/orders/',
    { handler: 'orders', refusal: 'strict' },
  );
});

// A public route declared first that hands the request on (`next()`) must not open the protected
// route behind it: the library checks each route as the host enters it.
describe('a public route that hands on with next() opens nothing behind it', () => {
  const pass = { path: '/v1/pass/export', next: '/v1/pass/:id' };
  for (const [label, version] of [
    ['Express 5', 'express'],
    ['Express 4', 'express4'],
  ] as const) {
    failsClosed(
      `${label}: GET /v1/pass/export (auth: false) calls next() into GET /v1/pass/:id`,
      expressApp({
        version,
        add: ({ app, c, answer }) => {
          app.get(pass.path, c.guard({ auth: false }), (_req, _res, next) => next());
          app.get(pass.next, answer('pass'));
        },
      }),
      'GET /v1/pass/export',
      { handler: 'pass' },
    );
  }
  failsClosed(
    'Hono: GET /v1/pass/export (auth: false) calls next() into GET /v1/pass/:id',
    honoApp({
      add: ({ app, api, answer }) => {
        app.get(pass.path, toFetchGuard(api, { auth: false }), (_c, next) => next());
        app.get(pass.next, answer('pass'));
      },
    }),
    'GET /v1/pass/export',
    { handler: 'pass' },
  );
});

// The check stands where the host enters the code that answers: what runs after the
// conventions' first step (a method override, a URL rewrite, `next()` out of a public route) or
// what the host dispatches by more than method and path (Fastify's constraints) meets a check
// with the settings of exactly what it entered.
for (const [label, version] of [
  ['Express 5', 'express'],
  ['Express 4', 'express4'],
] as const) {
  describe(`${label}: what runs after c.before is checked where Express enters it`, () => {
    failsClosed(
      'method-override after c.before turns a public POST into a protected DELETE',
      expressApp({
        version,
        add: ({ app, c, answer, answerPublic }) => {
          app.use(methodOverride());
          app.post('/v1/webhooks/:id', c.guard({ auth: false }), answerPublic('hook'));
          app.delete('/v1/webhooks/:id', answer('deleteHook'));
        },
      }),
      'POST /v1/webhooks/1',
      { handler: 'deleteHook', headers: { 'x-http-method-override': 'DELETE' } },
    );
    failsClosed(
      'a middleware after c.before rewrites req.url from a public route to a protected one',
      expressApp({
        version,
        add: ({ app, c, answer, answerPublic }) => {
          app.use((req, _res, next) => {
            if (req.url.startsWith('/v1/legacy/')) req.url = `/v1/${req.url.slice(11)}`;
            next();
          });
          app.get('/v1/legacy/:name', c.guard({ auth: false }), answerPublic('legacy'));
          app.get('/v1/reports', answer('reports'));
        },
      }),
      'GET /v1/legacy/reports',
      { handler: 'reports' },
    );
    failsClosed(
      "a public route calls next() into app.use('/v1/files', handler)",
      expressApp({
        version,
        add: ({ app, c, answer }) => {
          app.get('/v1/files/:name', c.guard({ auth: false }), (_req, _res, next) => next());
          app.use('/v1/files', answer('payroll'));
        },
      }),
      'GET /v1/files/payroll',
      { handler: 'payroll' },
    );
  });
}

describe('Hono 4: what runs after a public route is checked where Hono enters it', () => {
  failsClosed(
    "a public route calls next() into app.use('/v1/files/*', middleware)",
    honoApp({
      add: ({ app, api, answer }) => {
        app.get('/v1/files/:name', toFetchGuard(api, { auth: false }), (_c, next) => next());
        app.use('/v1/files/*', async (c) => answer('payroll')(c));
      },
    }),
    'GET /v1/files/payroll',
    { handler: 'payroll' },
  );
});

describe('Fastify 5: the route Fastify dispatched decides, constraints included', () => {
  /** `GET /v1/report` twice: one constrained, one plain; which one is public is the case's. */
  const twins = (constraints: Record<string, string>, constrainedIsPublic: boolean) =>
    fastifyApp({
      add: ({ app, answer, answerPublic }) => {
        const open = { config: { conventions: { auth: false as const } } };
        app.route({
          method: 'GET',
          url: '/v1/report',
          constraints,
          ...(constrainedIsPublic ? open : {}),
          handler: constrainedIsPublic ? answerPublic('constrained') : answer('constrained'),
        });
        app.route({
          method: 'GET',
          url: '/v1/report',
          ...(constrainedIsPublic ? {} : open),
          handler: constrainedIsPublic ? answer('plain') : answerPublic('plain'),
        });
      },
    });
  const kinds = [
    ['version', { version: '2.0.0' }, { 'accept-version': '2.0.0' }],
    ['host', { host: 'admin.example.com' }, { host: 'admin.example.com' }],
  ] as const;
  for (const [kind, constraints, headers] of kinds) {
    failsClosed(
      `a protected route constrained by ${kind} beside a public twin`,
      twins(constraints, false),
      'GET /v1/report',
      { handler: 'constrained', headers },
    );
    failsClosed(
      `a public route constrained by ${kind} beside a protected twin`,
      twins(constraints, true),
      'GET /v1/report',
      { handler: 'constrained', public: true, headers },
    );
    failsClosed(
      `the plain twin of a protected route constrained by ${kind} stays public`,
      twins(constraints, false),
      'GET /v1/report',
      { handler: 'plain', public: true },
    );
  }
  failsClosed(
    'an onRequest hook of the app answers a path no route serves',
    fastifyApp({
      add: ({ app, answer }) => {
        app.addHook('onRequest', async (request, reply) => {
          if (request.url === '/v1/hooked')
            await reply.send(await answer('hook').call(app, request, reply));
        });
      },
    }),
    'GET /v1/hooked',
    {},
  );
});

describe('Koa 3: middleware, routers and next() are checked where Koa enters them', () => {
  failsClosed(
    'middleware after the conventions answers a path no route serves',
    koaApp({
      add: ({ app, answer }) =>
        app.use(async (ctx, next) => (ctx.path === '/v1/mw' ? answer('mw')(ctx, next) : next())),
    }),
    'GET /v1/mw',
    { handler: 'mw' },
  );
  failsClosed(
    "router.use('/v1/files', middleware) answers in front of a protected route",
    koaApp({
      add: ({ router, answer }) => {
        router.use('/v1/files', answer('filesMw'));
        router.get('/v1/files/:name', answer('file'));
      },
    }),
    'GET /v1/files/payroll',
    { handler: 'filesMw' },
  );
  failsClosed(
    'a public route calls next() into a protected route of the same path',
    koaApp({
      add: ({ router, c, answer }) => {
        router.get('/v1/pass/export', c.guard({ auth: false }), (_ctx, next) => next());
        router.get('/v1/pass/:id', answer('pass'));
      },
    }),
    'GET /v1/pass/export',
    { handler: 'pass' },
  );
  failsClosed(
    'a nested router mounted with a prefix serves it',
    koaApp({
      add: ({ router, answer }) => {
        const nested = new Router({ strict: true, sensitive: true });
        nested.get('/items', answer('subItems'));
        router.use('/v1/sub', nested.routes());
      },
    }),
    'GET /v1/sub/items',
    { handler: 'subItems' },
  );
  failsClosed(
    'a router that is not strict serves a trailing slash',
    koaApp({ strict: false }),
    'GET /v1/orders/',
    { handler: 'orders' },
  );
});
