/**
 * NestJS apps fail closed, on @nestjs/platform-express and @nestjs/platform-fastify, set up as
 * docs/nestjs.md shows with `bearer()` installed: the cases every router host shares, and Nest
 * middleware (`consumer.apply()`, `app.use()`), which on Fastify runs in @fastify/middie's request
 * hook. Under NestJS 10 (the `nest10` test project) on the Express platform only: NestJS 10's
 * Fastify platform is built on Fastify 4.
 */
import type { NestMiddleware } from '@nestjs/common';
import { describe } from 'vitest';
import type { AppSpec } from './_fail-closed-apps.ts';
import { failsClosed, type RouterHost, routerCases } from './_fail-closed-cases.ts';
import { type Answers, nestApp } from './_fail-closed-nest.ts';
import { nestMajor, platforms as nestPlatforms } from './_nest-apps.ts';

// Nest declares routes of its own methods only (no PURGE), and its Fastify `@All()` only
// Fastify's default methods: the unusual-method cases do not apply.
const hosts: readonly RouterHost[] = nestPlatforms.map((platform) => ({
  label: `NestJS ${nestMajor} on ${platform === 'express' ? 'Express' : 'Fastify'}`,
  build: (spec: AppSpec) => nestApp({ ...spec, platform }),
  literalFirst: platform === 'fastify',
  nestMethods: true,
}));

for (const host of hosts) routerCases(host);

for (const platform of nestPlatforms) {
  // On Fastify, @fastify/middie runs Nest middleware in an onRequest hook that NestFactory.create()
  // registers before any module: the checks must still come first.
  describe(`NestJS ${nestMajor} on ${platform}: Nest middleware and trailing slashes`, () => {
    /** Middleware that ends the response on paths under `path`, and calls next() elsewhere. */
    const answering =
      (path: string, name = 'mw', open = false) =>
      ({ answer, answerPublic }: Answers): NestMiddleware['use'] =>
      (req, res, next) => {
        const url = (req as { url?: string; originalUrl?: string }).originalUrl ?? '';
        if (!url.startsWith(path)) return next();
        const body = JSON.stringify((open ? answerPublic : answer)(name)());
        (res as { end(body: string): void }).end(body);
      };
    failsClosed(
      'Nest middleware (consumer.apply) answers a path no route serves',
      nestApp({ platform, middleware: answering('/v1/mw') }),
      'GET /v1/mw',
      { handler: 'mw' },
    );
    failsClosed(
      'Nest middleware answers on the path of a protected route, before it',
      nestApp({ platform, middleware: answering('/v1/orders') }),
      'GET /v1/orders',
      { handler: 'mw' },
    );
    failsClosed(
      'Nest middleware answers on the path of a public route, before it',
      nestApp({ platform, middleware: answering('/v1/status', 'mw', true) }),
      'GET /v1/status',
      { handler: 'mw', public: true },
    );
    failsClosed(
      'Nest middleware applied to every route stays out of the way of a public one',
      nestApp({ platform, middleware: answering('/v1/mw') }),
      'GET /v1/status',
      { handler: 'status', public: true },
    );
    failsClosed(
      'Nest middleware for other routes (forRoutes) is not entered on a path no route serves',
      nestApp({ platform, middleware: answering('/v1'), forRoutes: 'v1/mw' }),
      'GET /v1/nowhere',
      {},
    );
    failsClosed(
      'middleware given to app.use() answers on the path of a protected route',
      nestApp({ platform, use: answering('/v1/orders', 'used') }),
      'GET /v1/orders',
      { handler: 'used' },
    );
    failsClosed(
      'a trailing slash on a protected route',
      nestApp({ platform }),
      'GET /v1/orders/',
      {},
    );
  });
}
