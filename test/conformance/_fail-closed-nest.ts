/**
 * Nest apps of the fail-closed matrix, on @nestjs/platform-express and
 * @nestjs/platform-fastify, set up as docs/nestjs.md shows: `ConventionsModule.forRoot(api)` with
 * `bearer()`, the matrix's two routes (`GET /v1/orders` protected, `GET /v1/status` public with
 * `@Public()`), the routes a case adds, and Nest middleware a case applies.
 */
import 'reflect-metadata';
import type { AddressInfo } from 'node:net';
import {
  All,
  Controller,
  Get,
  type MiddlewareConsumer,
  Module,
  type NestMiddleware,
} from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { ConventionsModule, RouteConventions } from 'api-conventions/nest';
import {
  type AppSpec,
  type Build,
  baseRoutes,
  handlerOf,
  record,
  settingsOf,
} from './_fail-closed-apps.ts';
import type { Platform } from './_nest-apps.ts';

type Handler = () => unknown;

/** A Nest case: the platform, its routes, and middleware that answers on a path. */
export interface NestSpec extends AppSpec {
  readonly platform: Platform;
  /** Nest middleware applied to every route (`consumer.apply(...).forRoutes(...)`). */
  readonly middleware?: (answers: Answers) => NestMiddleware['use'];
  /** The routes the middleware is applied to. @default '*' */
  readonly forRoutes?: string;
  /** Middleware given to `app.use()` after `NestFactory.create()`, as a `main.ts` does. */
  readonly use?: (answers: Answers) => NestMiddleware['use'];
}

/** A handler that records a protected (`answer`) or a public (`answerPublic`) run. */
export interface Answers {
  readonly answer: (name: string) => Handler;
  readonly answerPublic: (name: string) => Handler;
}

/** `NestFactory.create(AppModule)` with the conventions' module and the case's controller. */
export function nestApp(spec: NestSpec): Build {
  return async () => {
    const { api, recording, served } = await record<Handler>((push, name) => () => {
      push();
      return { ran: name };
    });
    class Routes {}
    const prototype = Routes.prototype as unknown as Record<string, unknown>;
    [...baseRoutes, ...(spec.routes ?? [])].forEach((route, i) => {
      const name = `route${i}`;
      prototype[name] = handlerOf(recording, route);
      const verb = route.method === 'ALL' ? All(route.path) : Get(route.path);
      const settings = settingsOf(route);
      const decorators = settings ? [verb, RouteConventions(settings)] : [verb];
      Reflect.decorate(
        decorators,
        prototype,
        name,
        Object.getOwnPropertyDescriptor(prototype, name),
      );
    });
    Controller()(Routes);
    const middleware = spec.middleware?.(recording);
    class AppModule {
      configure(consumer: MiddlewareConsumer) {
        if (middleware === undefined) return;
        class Answering implements NestMiddleware {
          use = middleware!;
        }
        consumer.apply(Answering).forRoutes(spec.forRoutes ?? '*');
      }
    }
    Module({ imports: [ConventionsModule.forRoot(api)], controllers: [Routes] })(AppModule);
    const adapter = spec.platform === 'express' ? new ExpressAdapter() : new FastifyAdapter();
    const app = await NestFactory.create(AppModule, adapter, { logger: false });
    if (spec.use !== undefined) app.use(spec.use(recording));
    await app.listen(0, '127.0.0.1');
    const { port } = app.getHttpServer().address() as AddressInfo;
    return served(port, () => app.close());
  };
}
