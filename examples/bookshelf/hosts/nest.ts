/**
 * Serves the bookshelf with NestJS: `ConventionsModule.forRoot(api)` on @nestjs/platform-express
 * (`nest`) or @nestjs/platform-fastify (`nest-fastify`). Decorators are applied as functions
 * (`Reflect.decorate`), as a compiler with `experimentalDecorators` emits them.
 */
import 'reflect-metadata';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Controller, Delete, Get, HttpCode, Module, Req } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { Conventions, RouteConfig } from 'api-conventions';
import { serverOptions } from 'api-conventions/fastify';
import { ConventionsModule, identityOf, RouteConventions } from 'api-conventions/nest';
import { attachServerHandlers } from 'api-conventions/node';
import type { Application } from 'express';
import { appRouteAnswer, appRoutes, servesAppRoutes } from '../app-routes.ts';
import { type Host, listen, type Running, settingsOf, type Where } from './host.ts';

/** A route of a Nest app of the examples and tests: what a controller method declares. */
export interface NestRoute {
  readonly method: 'GET' | 'DELETE';
  readonly path: string;
  /** Its `@RouteConventions()` settings, if any. */
  readonly settings?: RouteConfig;
  /** `@HttpCode()`, if not Nest's default. */
  readonly status?: number;
  /** What it returns (or throws), given the request. */
  answer(req: object): unknown;
}

/** A controller with one method per route, decorated as the route says. */
function controllerOf(routes: readonly NestRoute[]): new () => object {
  class NativeController {}
  const prototype = NativeController.prototype as unknown as Record<string, unknown>;
  routes.forEach((route, i) => {
    const name = `route${i}`;
    prototype[name] = (req: object) => route.answer(req);
    const decorators: MethodDecorator[] = [
      route.method === 'GET' ? Get(route.path) : Delete(route.path),
    ];
    if (route.settings !== undefined) decorators.push(RouteConventions(route.settings));
    if (route.status !== undefined) decorators.push(HttpCode(route.status));
    const descriptor = Object.getOwnPropertyDescriptor(prototype, name);
    Reflect.decorate(decorators, prototype, name, descriptor);
    Req()(prototype, name, 0);
  });
  Controller()(NativeController);
  return NativeController;
}

/** The root module: the conventions, and a controller with `routes`. */
function appModule(api: Conventions, routes: readonly NestRoute[]): new () => object {
  class AppModule {}
  const controllers = routes.length > 0 ? [controllerOf(routes)] : [];
  Module({ imports: [ConventionsModule.forRoot(api)], controllers })(AppModule);
  return AppModule;
}

/** The bookshelf's own routes, where it declares them. */
const bookshelfRoutes = (api: Conventions): NestRoute[] =>
  servesAppRoutes(api)
    ? appRoutes.map(({ path, settings }) => ({
        method: 'GET',
        path,
        settings,
        answer: (req) => appRouteAnswer(identityOf(req)),
      }))
    : [];

/** Starts a Nest app with `routes` on @nestjs/platform-express, on node:http with the hosts' settings. */
export async function serveNestExpress(
  api: Conventions,
  where: Where,
  routes: readonly NestRoute[],
): Promise<Running> {
  const app = await NestFactory.create(appModule(api, routes), new ExpressAdapter(), {
    logger: false,
  });
  await app.init();
  const express = app.getHttpAdapter().getInstance() as Application;
  // node:http answers what Express never sees (parser errors, timeouts, Expect, CONNECT).
  const server = attachServerHandlers(createServer(settingsOf(where), express), api, express);
  const running = await listen(server, where.port, where.host);
  return {
    port: running.port,
    close: async () => {
      await running.close();
      await app.close();
    },
  };
}

/** Starts a Nest app with `routes` on @nestjs/platform-fastify, with the hosts' settings. */
export async function serveNestFastify(
  api: Conventions,
  where: Where,
  routes: readonly NestRoute[],
): Promise<Running> {
  const { requestTimeout, keepAliveTimeout, ...http } = settingsOf(where);
  const options = {
    ...serverOptions,
    forceCloseConnections: true,
    requestTimeout,
    keepAliveTimeout,
    http,
  };
  const adapter = new FastifyAdapter(
    options as unknown as ConstructorParameters<typeof FastifyAdapter>[0],
  );
  const app = await NestFactory.create(appModule(api, routes), adapter, { logger: false });
  await app.listen(where.port, where.host);
  const { port } = app.getHttpServer().address() as AddressInfo;
  return { port, close: () => app.close() };
}

/** Starts the bookshelf on NestJS with @nestjs/platform-express; resolves once it listens. */
export const serve: Host = (api, where) => serveNestExpress(api, where, bookshelfRoutes(api));

/** Starts the bookshelf on NestJS with @nestjs/platform-fastify; resolves once it listens. */
export const serveFastify: Host = (api, where) =>
  serveNestFastify(api, where, bookshelfRoutes(api));
