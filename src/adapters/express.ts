/**
 * `api-conventions/express`: the conventions in an Express 5 (or 4) app, around its own routing.
 *
 * @module api-conventions/express
 */

import {
  type ApiResponse,
  allowList,
  type Conventions,
  type ConventionsOptions,
  type Guarded,
  type RouteConfig,
  type RouteInfo,
  toConventions,
} from 'api-conventions';
import type { Application, ErrorRequestHandler, RequestHandler, Router } from 'express';
import { addBody, inputOf } from './_express-io.ts';
import { fromExpressError, isStrict, joinParams, routeMethods } from './_express-routes.ts';
import { writeNodeResponse } from './_node-write.ts';

/** What {@link createExpressMiddleware} gives: middleware for either end of the app, and the routes. */
export interface ExpressConventions {
  /**
   * `app.use(before)` ahead of everything: a path with upper-case letters gets 404 (spec 4.1.3),
   * whatever Express's case-insensitive routing would have matched, and `X-Powered-By` is dropped.
   */
  readonly before: RequestHandler;
  /** Registers every route of the table on `target` (the app or a Router) as Express routes. */
  mount(target: Application | Router): void;
  /** One declared route as an Express handler, for hosts that register routes themselves. */
  route(route: RouteInfo): RequestHandler;
  /**
   * Middleware that applies route settings (`body`, `accepts`, `bodyLimit`, and what plugins
   * add) to one of the app's own routes, before its handler: the plugins' checks run, the body
   * is read or taken from a body parser and checked, and `req.body` is the checked body.
   */
  guard(settings: RouteConfig): RequestHandler;
  /**
   * `app.use(after)` behind every route: 404, 405 with `Allow` or OPTIONS 204 from Express's own
   * routes (nested Routers included), and every error, Express's own too, as the spec's error body.
   */
  readonly after: [RequestHandler, ErrorRequestHandler];
}

type Verb = 'get' | 'head' | 'post' | 'put' | 'patch' | 'delete' | 'options';

/**
 * Fits the conventions (or the options to build them) into an Express app: `before` goes first,
 * `mount` puts the route table on Express's router, `after` goes last. Express's own routes get
 * 404, 405 with `Allow`, OPTIONS and error bodies as the spec says; the table's routes get the
 * whole pipeline.
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { conventions } from 'api-conventions';
 * import { createExpressMiddleware } from 'api-conventions/express';
 *
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * const app = express();
 * const c = createExpressMiddleware(api);
 * app.disable('x-powered-by');
 * app.set('strict routing', true);
 * app.use(c.before);
 * c.mount(app);
 * app.get('/v1/health', (req, res) => { res.json({ ok: true }); });
 * app.use(c.after);
 * app.listen(3000);
 * ```
 */
export function createExpressMiddleware(api: Conventions | ConventionsOptions): ExpressConventions {
  const app = toConventions(api);
  const send = (res: Parameters<RequestHandler>[1], result: ApiResponse | Promise<ApiResponse>) => {
    if (result instanceof Promise) result.then((r) => writeNodeResponse(res, r, app.logger));
    else writeNodeResponse(res, result, app.logger);
  };

  const route = (info: RouteInfo): RequestHandler => {
    const wildcard = info.pattern.includes('*');
    return (req, res, next) => {
      const input = inputOf(req);
      addBody(req, input);
      const params = wildcard ? joinParams(req.params) : (req.params as Record<string, string>);
      const result = app.handleRoute(info, input, params);
      if (!(result instanceof Promise)) return writeNodeResponse(res, result, app.logger);
      result.then((r) => writeNodeResponse(res, r, app.logger)).catch(next);
    };
  };

  return {
    before(req, res, next) {
      res.removeHeader('x-powered-by');
      const stop = app.screen(inputOf(req));
      if (stop !== undefined) return send(res, stop);
      if (req.method !== 'OPTIONS') return next();
      // A nested Router answers OPTIONS itself (200, text/plain) before `after` is reached, so
      // OPTIONS is answered here, unless a route declares OPTIONS or no route has the path.
      const methods = routeMethods(req.app, req.url);
      if (methods.size === 0 || methods.has('OPTIONS')) return next();
      send(res, app.handleUnmatched(inputOf(req), allowList(methods)));
    },
    mount(target) {
      if (!isStrict(target)) {
        throw new TypeError(
          'mount() needs a strict router, or Express serves /v1/books/ as /v1/books (spec 4.1.9 ' +
            "wants 404): call app.set('strict routing', true) before the first app.use(), or " +
            'mount on express.Router({ strict: true }).',
        );
      }
      let pattern: string | undefined;
      let native: ReturnType<Router['route']> | undefined;
      // A Set drops the repeat of GET's route under HEAD: Express answers HEAD with GET itself.
      for (const info of new Set(app.routes)) {
        // One Express route per pattern, so that a declared HEAD is not shadowed by GET's.
        if (info.pattern !== pattern) {
          pattern = info.pattern;
          native = target.route(pattern);
        }
        native![info.method.toLowerCase() as Verb](route(info));
      }
    },
    route,
    guard(settings) {
      // Checked once here; the route's method and pattern are known only per request.
      const { config } = app.routeSettings('ANY', 'guard()', settings);
      return (req, res, next) => {
        const input = inputOf(req);
        addBody(req, input);
        const route = { method: req.method, pattern: req.route?.path ?? req.path, config };
        const go = (guarded: Guarded) => {
          if (guarded.response !== undefined)
            return writeNodeResponse(res, guarded.response, app.logger);
          for (const [name, value] of Object.entries(guarded.headers)) res.setHeader(name, value);
          req.body = guarded.body;
          next();
        };
        const result = app.guard(route, input, req.params as Record<string, string>);
        if (result instanceof Promise) result.then(go, next);
        else go(result);
      };
    },
    after: [
      (req, res, next) => {
        if (res.headersSent) return next();
        send(res, app.handleUnmatched(inputOf(req), allowList(routeMethods(req.app, req.url))));
      },
      (error, req, res, next) => {
        if (res.headersSent) return next(error);
        send(res, app.handleError(inputOf(req), fromExpressError(error)));
      },
    ],
  };
}
