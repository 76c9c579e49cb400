/** The app's own Express routes in the pipeline: `guard(settings)` and `res.json` through the response phases. */
import type { HeaderInit, RouteConfig } from 'api-conventions';
import { type BoundHost, type Guarded, markStep, settle } from 'api-conventions/host';
import type { Request, RequestHandler, Response } from 'express';
import type { ExpressCheckpoints } from './_express-checkpoints.ts';
import { addBody } from './_express-io.ts';
import type { ExpressRoute } from './_express-routes.ts';
import { copyHeldHeaders, writeNodeResponse, writeNodeStep } from './_node-write.ts';

/** The Express host of a service. */
export type ExpressHost = BoundHost<Request>;

/**
 * Routes `res.json(value)` (and `res.send(object)`, which calls it) of the app's own handlers
 * through the transform, serialize and send phases, as a table route's value goes.
 */
export function routeJson(host: ExpressHost, req: Request, res: Response): void {
  res.json = (body: unknown) => {
    const headers = res.getHeaders() as HeaderInit;
    for (const name of res.getHeaderNames()) res.removeHeader(name);
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
  const guard: RequestHandler = (req, res, next) => {
    addBody(req, host.inputOf(req));
    const go = (guarded: Guarded) => {
      if (guarded.response !== undefined) {
        return writeNodeResponse(res, guarded.response, host.logger);
      }
      copyHeldHeaders(host.held(req), res);
      req.body = guarded.body;
      next();
    };
    // A guard outside a route (`app.use(path, guard)`): its own settings, by method.
    const params = req.params as Record<string, string>;
    settle(guarded.run(req, req.route as ExpressRoute | undefined, req.path, params), go, next);
  };
  return markStep(guard, { guard: guarded.config });
}

const compared = new WeakSet<object>();

/**
 * Puts the always-on headers on the response. Middleware before `before` (helmet, say) may have
 * set some already: the conventions' values are the ones sent, and at the app's first request
 * each value they replace is named in a warning, with where to set it instead.
 */
export function keepSecurityHeaders(
  host: ExpressHost,
  app: object,
  res: Response,
  alwaysOn: Readonly<Record<string, string | readonly string[]>>,
): void {
  const compare = !compared.has(app);
  if (compare) compared.add(app);
  for (const name in alwaysOn) {
    const value = alwaysOn[name]!;
    if (compare) {
      const before = res.getHeader(name);
      if (before !== undefined && String(before) !== String(value)) {
        host.logger.warn(
          `${name} was "${String(before)}" before the conventions' middleware (helmet, or another middleware ahead of c.before): the conventions send "${String(value)}". Set it through the conventions' securityHeaders() options instead, and drop it from the other middleware.`,
        );
      }
    }
    res.setHeader(name, value as string | string[]);
  }
}
