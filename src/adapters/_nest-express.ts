/**
 * The conventions on @nestjs/platform-express: Nest's app is an Express app, so the Express
 * binding serves it as it serves any Express app — `before` first, check points where Express
 * enters each layer, `after` behind Nest's routes — and each Nest route gets its settings as a
 * guard in front of Nest's handler.
 */
import type { Conventions, RouteConfig } from 'api-conventions';
import type { Application, NextFunction, Request, Response } from 'express';
import { heldContext, isBodyParser, markOf, markStep, originalOf } from '#core';
import { appRouter, type Layer } from './_express-routes.ts';
import { settingsOf } from './_nest-settings.ts';
import { type ExpressConventions, toExpressMiddleware } from './express.ts';

/** What the Nest module does with the Express app, at each stage of Nest's start. */
export interface NestExpress {
  /** After Nest registered its routes: settings on each, `after` last. */
  routed(): void;
  /** An error Nest's exception filter caught: the spec's error response. */
  fail(error: unknown, req: Request, res: Response): void;
}

type Handle = (req: Request, res: Response, next: NextFunction) => unknown;

/**
 * Puts `before` on Nest's Express app, before any route of Nest's is registered, with strict and
 * case-sensitive routing (spec 4.1): Nest's adapter made the router already, so its options are
 * set on it, where Express reads them as each route is declared.
 */
export function nestExpress(
  api: Conventions,
  app: Application,
  publicRoute: (path: string) => RouteConfig | undefined,
): NestExpress {
  app.disable('x-powered-by');
  app.set('case sensitive routing', true);
  app.set('strict routing', true);
  const router = appRouter(app) as { strict?: boolean; caseSensitive?: boolean } | undefined;
  if (router !== undefined) {
    router.strict = true;
    router.caseSensitive = true;
  }
  const c: ExpressConventions = toExpressMiddleware(api);
  app.use(c.before);
  // The service's route table, if it has one, as Express routes ahead of Nest's.
  c.mount(app);
  const [, onError] = c.after;
  const guarded = new WeakSet<Layer>();

  /** Each route's handler gets the guard of its settings in front of it. */
  const guardRoutes = (stack: readonly Layer[]) => {
    for (const layer of stack) {
      const { route } = layer;
      if (route === undefined || guarded.has(layer)) continue;
      guarded.add(layer);
      for (const entry of route.stack ?? []) {
        const handle = entry.handle as Handle | undefined;
        if (typeof handle !== 'function' || markOf(handle) !== undefined) continue;
        const config = settingsOf(handle) ?? publicRoute(String(route.path));
        if (config === undefined) continue;
        const guard = c.guard(config);
        const step: Handle = (req, res, next) =>
          guard(req, res, (error?: unknown) =>
            error === undefined ? handle(req, res, next) : next(error),
          );
        Object.defineProperty(step, '__original', { value: handle });
        (entry as { handle?: unknown }).handle = markStep(step, markOf(guard)!);
      }
    }
  };

  /**
   * Nest's body parsers read every request's body; a request no route serves is answered 404 or
   * 405 without it, as on every host, rather than wait for a body nothing will read.
   */
  const parseRoutedOnly = (stack: readonly Layer[]) => {
    for (const layer of stack) {
      const handle = layer.handle as Handle | undefined;
      // The body parsers Nest puts on its Express app (`bodyParser: true`, its default).
      if (typeof handle !== 'function' || !isBodyParser(handle)) continue;
      const parser: Handle = (req, res, next) => {
        const ctx = heldContext(req);
        return ctx !== undefined && ctx.route === undefined ? next() : handle(req, res, next);
      };
      Object.defineProperty(parser, 'name', { value: originalOf(handle).name });
      layer.handle = parser as Layer['handle'];
    }
  };

  return {
    routed() {
      const stack = appRouter(app)?.stack ?? [];
      guardRoutes(stack);
      parseRoutedOnly(stack);
      app.use(c.after);
    },
    fail(error, req, res) {
      onError(error, req, res, (unsent?: unknown) => {
        if (unsent !== undefined && !res.writableEnded) res.end();
      });
    },
  };
}
