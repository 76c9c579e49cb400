/** The app's own Express routes in the pipeline: `guard(settings)` and `res.json` through the response phases. */
import type { RouteConfig } from 'api-conventions';
import type { Request, RequestHandler, Response } from 'express';
import { type BoundHost, markStep } from '#core';
import type { ExpressCheckpoints } from './_express-checkpoints.ts';
import { addBody } from './_express-io.ts';
import type { ExpressRoute } from './_express-routes.ts';
import { takeNodeHeaders, writeNodeStep } from './_node-write.ts';

/** The Express host of a service. */
export type ExpressHost = BoundHost<Request>;

/**
 * Routes `res.json(value)` (and `res.send(object)`, which calls it) of the app's own handlers
 * through the transform, serialize and send phases, as a table route's value goes.
 */
export function routeJson(host: ExpressHost, req: Request, res: Response): void {
  res.json = (body: unknown) => {
    const headers = takeNodeHeaders(res);
    writeNodeStep(res, host.finish(req, res.statusCode, body, headers), host.logger);
    return res;
  };
}

/**
 * Middleware that applies route settings to one of the app's own routes. The settings are checked
 * once here and kept on the middleware, where the route's checks in `before` find them; here, on
 * the route Express dispatched, its checks run again only if they did not run for it (another
 * route Express reached by its own order), then its body and field rules and the `preHandler`
 * checks.
 */
export function guardMiddleware(
  host: ExpressHost,
  points: ExpressCheckpoints,
  config: RouteConfig,
): RequestHandler {
  const guarded = points.guard(config);
  const guard: RequestHandler = (req, _res, next) => {
    addBody(req, host.inputOf(req));
    const go = (body: unknown) => {
      req.body = body;
      next();
    };
    // A guard outside a route (`app.use(path, guard)`): its own settings, by method.
    const route = req.route as ExpressRoute | undefined;
    guarded.enter(req, route, req.path, req.params as Record<string, string>, go, next);
  };
  return markStep(guard, { guard: guarded.config });
}
