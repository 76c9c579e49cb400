/**
 * `api-conventions/nest`: the conventions in a NestJS app, on @nestjs/platform-express or
 * @nestjs/platform-fastify.
 *
 * @module api-conventions/nest
 */

import {
  type ArgumentsHost,
  Catch,
  type DynamicModule,
  type ExceptionFilter,
  Module,
} from '@nestjs/common';
import { APP_FILTER, HttpAdapterHost, ModulesContainer } from '@nestjs/core';
import type { Conventions, ConventionsOptions, Identity, RouteConfig } from 'api-conventions';
import { assertKnownKeys, heldContext, toConventions } from '#core';
import { docsRoutes, type NestHost, nestHost } from './_nest-host.ts';
import { decorate } from './_nest-settings.ts';

/** Options of {@link ConventionsModule.forRoot}. */
export interface NestConventionsOptions {
  /**
   * The path of the documentation page `SwaggerModule.setup()` serves (`'docs'` or `'/docs'`):
   * the page, its assets and its JSON and YAML documents are public, and the page gets a
   * `Content-Security-Policy` under which Swagger UI loads (its own scripts and styles, nothing
   * from elsewhere). @default none
   */
  docs?: string | undefined;
}

const hostToken = Symbol.for('api-conventions.nest-host');

/** The exception filter every route gets: each error as the spec's error body. */
class ConventionsFilter implements ExceptionFilter {
  constructor(private readonly host: NestHost) {}

  catch(exception: unknown, args: ArgumentsHost): void {
    const http = args.switchToHttp();
    this.host.fail(exception, http.getRequest(), http.getResponse());
  }
}
Catch()(ConventionsFilter);

/**
 * The conventions as a Nest module: import `ConventionsModule.forRoot(api)` in the app's root
 * module. Every route gets authentication, limits, CORS and the security headers, is checked as
 * the host enters it, and answers errors (an `HttpException`, a `ValidationPipe`'s, any other) as
 * the spec's error body; 404, 405 with `Allow` and OPTIONS come from the route view.
 *
 * @example
 * ```ts
 * import { Controller, Get, Module } from '@nestjs/common';
 * import { conventions } from 'api-conventions';
 * import { ConventionsModule, Public } from 'api-conventions/nest';
 *
 * const api = conventions({ routes: {} });
 *
 * class HealthController {
 *   health() {
 *     return { ok: true };
 *   }
 * }
 * // With decorators enabled: @Controller('v1/health') on the class, @Get() @Public() on health().
 * Controller('v1/health')(HealthController);
 * const health = Object.getOwnPropertyDescriptor(HealthController.prototype, 'health')!;
 * Get()(HealthController.prototype, 'health', health);
 * Public()(HealthController.prototype, 'health', health);
 *
 * export class AppModule {}
 * Module({ imports: [ConventionsModule.forRoot(api)], controllers: [HealthController] })(AppModule);
 * ```
 *
 * @see [NestJS](../../docs/nestjs.md), an app step by step.
 */
// biome-ignore lint/complexity/noStaticOnlyClass: a Nest module is a class with a static forRoot().
export class ConventionsModule {
  /**
   * The module, global, for the service `api` (or the options to build it): its exception
   * filter, and the conventions on the app's HTTP adapter.
   */
  static forRoot(
    api: Conventions | ConventionsOptions,
    options: NestConventionsOptions = {},
  ): DynamicModule {
    const conventions = toConventions(api, 'ConventionsModule.forRoot');
    assertKnownKeys('ConventionsModule.forRoot options', options, ['docs']);
    const docs = docsRoutes(conventions, options.docs);
    return {
      module: ConventionsModule,
      global: true,
      providers: [
        {
          provide: hostToken,
          useFactory: (adapters: HttpAdapterHost, modules: ModulesContainer) =>
            nestHost(conventions, adapters, modules, docs),
          inject: [HttpAdapterHost, ModulesContainer],
        },
        {
          provide: APP_FILTER,
          useFactory: (host: NestHost) => new ConventionsFilter(host),
          inject: [hostToken],
        },
      ],
    };
  }
}
Module({})(ConventionsModule);

/**
 * Route settings (`auth`, `scopes`, `body`, `accepts`, `bodyLimit`, and what plugins add) for a
 * handler, or for every handler of a controller (a handler's own go over them). Checked at
 * start-up: a misspelt key is a `TypeError`.
 *
 * @example
 * ```ts
 * import { RouteConventions } from 'api-conventions/nest';
 *
 * class OrdersController {
 *   remove() {}
 * }
 * // With decorators enabled: @RouteConventions({ scopes: ['orders:write'] }) on remove().
 * const remove = Object.getOwnPropertyDescriptor(OrdersController.prototype, 'remove')!;
 * RouteConventions({ scopes: ['orders:write'] })(OrdersController.prototype, 'remove', remove);
 * ```
 */
export function RouteConventions(settings: RouteConfig): ClassDecorator & MethodDecorator {
  return decorate(settings);
}

/**
 * Marks a handler, or every handler of a controller, public: `auth: false`, so that a caller
 * without credentials reaches it.
 *
 * @example
 * ```ts
 * import { Public } from 'api-conventions/nest';
 *
 * class StatusController {}
 * // With decorators enabled: @Public() on the class.
 * Public()(StatusController);
 * ```
 */
export function Public(): ClassDecorator & MethodDecorator {
  return decorate({ auth: false });
}

/**
 * The verified caller of a request (`ctx.identity`: subject, client, scopes), for a handler that
 * takes the request (`@Req()`); `undefined` when no identity plugin verified one.
 *
 * @example
 * ```ts
 * import type { Request } from 'express';
 * import { identityOf } from 'api-conventions/nest';
 *
 * // In a handler: me(@Req() req: Request) { return { subject: identityOf(req)?.subject }; }
 * export const me = (req: Request) => ({ subject: identityOf(req)?.subject ?? null });
 * ```
 */
export function identityOf(request: object): Identity | undefined {
  return heldContext(request)?.identity;
}
