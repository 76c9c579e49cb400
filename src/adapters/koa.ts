/**
 * `api-conventions/koa`: the conventions in a Koa 3 app, around its own routing (@koa/router).
 *
 * @module api-conventions/koa
 */

import type { Conventions, ConventionsOptions, Identity, RouteConfig } from 'api-conventions';
import type { Context, Middleware } from 'koa';
import { type ApiResponse, appHeaders, heldContext, markStep, type Step } from '#core';
import { type KoaCheckpoints, koaCheckpoints } from './_koa-checkpoints.ts';
import { addNodeBody, reportFinalStatus } from './_node-io.ts';
import { setNodeHeaders, takeNodeHeaders, writeNodeStep } from './_node-write.ts';

declare module 'koa' {
  interface Request {
    /** The request body: what a guard read and checked, or what a body parser made of it. */
    body?: unknown;
  }
}

/** What {@link toKoaMiddleware} gives: the middleware that goes first, and route settings. */
export interface KoaConventions {
  /**
   * `app.use(middleware)` ahead of everything: the checks, then, once the app is done, 404, 405
   * with `Allow` and OPTIONS for what no route answered, the app's JSON values through the
   * response phases, and every error as the spec's error body.
   */
  readonly middleware: Middleware;
  /**
   * Route settings (`auth`, `scopes`, `body`, `accepts`, `bodyLimit`, and what plugins add) for
   * one of the app's routes, before its handler: the body is read (or taken from a body parser)
   * and checked, and `ctx.request.body` is the checked body.
   */
  guard(settings: RouteConfig): Middleware;
}

/**
 * Fits the conventions (or the options to build them) into a Koa app: `middleware` goes first;
 * routes of @koa/router routers are checked as Koa enters them (a route with no guard needs
 * credentials, and so does middleware the library cannot read, unless an open route lies ahead).
 *
 * @example
 * ```ts
 * import Router from '@koa/router';
 * import Koa from 'koa';
 * import { conventions } from 'api-conventions';
 * import { toKoaMiddleware } from 'api-conventions/koa';
 *
 * const api = conventions({ routes: {} });
 * const c = toKoaMiddleware(api);
 * const router = new Router({ strict: true, sensitive: true });
 * router.get('/v1/health', c.guard({ auth: false }), (ctx) => {
 *   ctx.body = { ok: true };
 * });
 * const app = new Koa();
 * app.use(c.middleware);
 * app.use(router.routes());
 * app.listen(3000);
 * ```
 *
 * @see [Koa](../../docs/koa.md) for an app step by step.
 */
export function toKoaMiddleware(api: Conventions | ConventionsOptions): KoaConventions {
  // Koa's routers decide as they go: each route and middleware is checked as Koa enters it.
  const covered: KoaCheckpoints = koaCheckpoints(api, (ctx, refusal) => send(ctx, refusal));
  const { host } = covered;
  const { logger } = host;
  const send = (ctx: Context, result: Step<ApiResponse>) => {
    ctx.respond = false;
    return writeNodeStep(ctx.res, result, logger);
  };
  const addBody = (ctx: Context) => addNodeBody(ctx.req, ctx.request.body, host.inputOf(ctx));

  const answer = (ctx: Context): Step<ApiResponse> | undefined => {
    if (ctx.respond === false) return undefined;
    const { body } = ctx;
    // Nothing answered: Koa's own 404 is the router's answer from the route view (404, 405, OPTIONS).
    if (body == null && !(ctx.response as { _explicitStatus?: boolean })._explicitStatus) {
      return host.serve(ctx);
    }
    if (body === null || typeof body !== 'object' || isBytesOrStream(body)) return undefined;
    // A value the app set (`ctx.body = { … }`): through the response phases, as a table route's.
    const headers = takeNodeHeaders(ctx.res);
    delete headers['content-type'];
    delete headers['content-length'];
    return host.finish(ctx, ctx.status, body, headers);
  };

  const middleware: Middleware = async (ctx, next) => {
    reportFinalStatus(host, ctx, ctx.res);
    // The checks, or a table route served end to end, ahead of the app's routers.
    const stop = await host.front(ctx, () => addBody(ctx));
    if (stop !== undefined) return send(ctx, stop);
    const held = host.context(ctx);
    setNodeHeaders(ctx.res, appHeaders(host, ctx));
    // Koa's routers route on `ctx.path`: the normalised target, as every host routes on it.
    const target = held.rawQuery ? `${held.path}?${held.rawQuery}` : held.path;
    if (ctx.url !== target) ctx.url = target;
    try {
      const { middleware: all } = ctx.app;
      if (all.includes(middleware)) await covered.rest(all, middleware)(ctx);
      else {
        // Wrapped (an APM agent's wrapper) or composed into other middleware: the routers are
        // covered, and what runs next is checked once, closed unless an open route lies ahead.
        covered.cover(all);
        warnOnce(ctx.app, logger);
        await covered.unknownChain(ctx, all, next);
      }
    } catch (error) {
      return send(ctx, host.fail(ctx, error));
    }
    const result = answer(ctx);
    if (result !== undefined) return send(ctx, result);
  };
  markStep(middleware, { own: true });

  return {
    middleware,
    guard(settings) {
      const guarded = covered.guard(settings);
      const guard: Middleware = async (ctx, next) => {
        addBody(ctx);
        const go = (body: unknown) => {
          ctx.request.body = body;
          return next();
        };
        await guarded.enter(ctx, covered.entered(ctx), ctx.path, ctx.params, go);
      };
      return markStep(guard, { guard: guarded.config });
    },
  };
}

/** Whether a body is one Koa sends as it is (bytes, a stream), not a value to serialise. */
function isBytesOrStream(body: object): boolean {
  return body instanceof Uint8Array || typeof (body as { pipe?: unknown }).pipe === 'function';
}

const composedWarned = new WeakSet<object>();

/** The conventions' middleware is not the app's own: its other middleware goes unchecked. */
function warnOnce(app: object, logger: Conventions['logger']): void {
  if (composedWarned.has(app)) return;
  composedWarned.add(app);
  logger.warn(
    "toKoaMiddleware's middleware is not in the app's middleware list as itself (it runs inside other middleware, or an APM agent wrapped it): the app's middleware outside its routers gets one check before all of it, so a caller without credentials reaches it only on the way to an open route. Call app.use(c.middleware) on the app itself, first; under an agent this is expected.",
  );
}

/**
 * The verified caller of a request (`ctx.identity`: subject, client, scopes), for the app's own
 * handlers; `undefined` when no identity plugin verified one (an `auth: false` route, say).
 *
 * @example
 * ```ts
 * import Router from '@koa/router';
 * import { conventions } from 'api-conventions';
 * import { identityOf, toKoaMiddleware } from 'api-conventions/koa';
 *
 * const c = toKoaMiddleware(conventions({ routes: {} }));
 * const router = new Router({ strict: true, sensitive: true });
 * router.get('/v1/me', c.guard({ scopes: ['profile'] }), (ctx) => {
 *   ctx.body = { subject: identityOf(ctx)?.subject };
 * });
 * ```
 */
export function identityOf(ctx: Context): Identity | undefined {
  return heldContext(ctx)?.identity;
}
