/** The app's own Express routes in the pipeline: `guard(settings)` and `res.json` through the response phases. */
import type {
  Conventions,
  HeaderInit,
  RequestContext,
  RouteConfig,
  RouteSettings,
} from 'api-conventions';
import type { ApiResponse, Guarded, Step } from 'api-conventions/host';
import type { RequestHandler, Response } from 'express';
import { addBody, contextOf } from './_express-io.ts';
import { guardSettings } from './_express-routes.ts';
import { writeNodeResponse } from './_node-write.ts';

/** Writes a core response now, or once it is ready. */
export function sendTo(conventions: Conventions, res: Response, result: Step<ApiResponse>): void {
  if (result instanceof Promise) result.then((r) => writeNodeResponse(res, r, conventions.logger));
  else writeNodeResponse(res, result, conventions.logger);
}

/** Puts the headers the context gathered so far on the native response (idempotent). */
export function copyContextHeaders(ctx: RequestContext, res: Response): void {
  if (!ctx.hasResponseHeaders) return;
  const { record } = ctx.responseHeaders;
  for (const name in record) res.setHeader(name, record[name]!);
}

/**
 * Routes `res.json(value)` (and `res.send(object)`, which calls it) of the app's own handlers
 * through the transform, serialize and send phases, as a table route's value goes.
 */
export function routeJson(
  conventions: Conventions,
  req: Parameters<RequestHandler>[0],
  res: Response,
): void {
  res.json = (body: unknown) => {
    const ctx = contextOf(conventions, req);
    const headers = res.getHeaders() as HeaderInit;
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    sendTo(conventions, res, conventions.finish(ctx, res.statusCode, body, headers));
    return res;
  };
}

/**
 * Middleware that applies route settings to one of the app's own routes. The settings are
 * checked once here and kept on the middleware, where `before` finds them when it hands the app's
 * routes to the route view: the route's authentication and checks then run in `before`, and here
 * its body and field rules and the `preHandler` checks. A route the view does not hold (warned at
 * start-up) gets its compiled settings the first time it runs, and its checks here too.
 */
export function guardMiddleware(conventions: Conventions, config: RouteConfig): RequestHandler {
  const { config: checked } = conventions.routeSettings('ANY', 'guard()', config);
  const byRoute = new WeakMap<object, Map<string, RouteSettings>>();
  const settingsOf = (route: object | undefined, method: string, path: string) => {
    const key = route ?? byRoute;
    let methods = byRoute.get(key);
    if (methods === undefined) {
      methods = new Map();
      byRoute.set(key, methods);
    }
    let settings = methods.get(method);
    if (settings === undefined) {
      settings = conventions.routeSettings(method, path, checked);
      methods.set(method, settings);
    }
    return settings;
  };
  const guard: RequestHandler = (req, res, next) => {
    const ctx = contextOf(conventions, req);
    addBody(req, ctx.input);
    const own =
      ctx.route?.host === true
        ? undefined
        : settingsOf(req.route, req.method, req.route?.path ?? req.path);
    const go = (guarded: Guarded) => {
      if (guarded.response !== undefined) {
        return writeNodeResponse(res, guarded.response, conventions.logger);
      }
      copyContextHeaders(ctx, res);
      req.body = guarded.body;
      next();
    };
    const result = conventions.guard(ctx, own, req.params as Record<string, string>);
    if (result instanceof Promise) result.then(go, next);
    else go(result);
  };
  (guard as unknown as Record<symbol, RouteConfig>)[guardSettings] = checked;
  return guard;
}
