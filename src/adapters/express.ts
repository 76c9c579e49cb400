/**
 * `api-conventions/express`: the conventions in an Express 5 (or 4) app, around its own routing.
 *
 * @module api-conventions/express
 */

import type { Conventions, ConventionsOptions, RouteConfig, RouteInfo } from 'api-conventions';
import { type ApiResponse, allowList, type Step, toConventions } from 'api-conventions/host';
import type {
  Application,
  ErrorRequestHandler,
  NextFunction,
  Request,
  RequestHandler,
  Response,
  Router,
} from 'express';
import { deprecatedFunction } from './_deprecated.ts';
import { addBody, contextOf } from './_express-io.ts';
import { copyContextHeaders, guardMiddleware, routeJson, sendTo } from './_express-native.ts';
import {
  expressPattern,
  fromExpressError,
  isStrict,
  joinParams,
  routeMethods,
  warnIfLoose,
} from './_express-routes.ts';

/** What {@link toExpressMiddleware} gives: middleware for either end of the app, and the routes. */
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
 * import { toExpressMiddleware } from 'api-conventions/express';
 *
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * const app = express();
 * const c = toExpressMiddleware(api);
 * app.disable('x-powered-by');
 * app.set('strict routing', true);
 * app.use(c.before);
 * c.mount(app);
 * app.get('/v1/health', (req, res) => { res.json({ ok: true }); });
 * app.use(c.after);
 * app.listen(3000);
 * ```
 */
export function toExpressMiddleware(api: Conventions | ConventionsOptions): ExpressConventions {
  const conventions = toConventions(api);
  const { alwaysOnHeaders } = conventions;
  const send = (res: Response, result: Step<ApiResponse | undefined>) =>
    sendTo(conventions, res, result as Step<ApiResponse>);

  const route = (info: RouteInfo): RequestHandler => {
    const wildcard = info.pattern.includes('*');
    return (req, res) => {
      const ctx = contextOf(conventions, req);
      addBody(req, ctx.input);
      const params = wildcard ? joinParams(req.params) : (req.params as Record<string, string>);
      send(res, conventions.handleRoute(ctx, info, params));
    };
  };

  const onward = (req: Request, res: Response, next: NextFunction) => {
    const ctx = contextOf(conventions, req);
    copyContextHeaders(ctx, res);
    // Express routes on `req.url`: give it the normalised target, as every host routes on it.
    const target = ctx.rawQuery ? `${ctx.path}?${ctx.rawQuery}` : ctx.path;
    if (req.url !== target) req.url = target;
    if (req.method !== 'OPTIONS') return next();
    // A nested Router answers OPTIONS itself (200, text/plain) before `after` is reached, so
    // OPTIONS is answered here, unless a route declares OPTIONS or no route has the path.
    const methods = routeMethods(req.app, req.url);
    if (methods.size === 0 || methods.has('OPTIONS')) return next();
    send(res, conventions.handleUnmatched(ctx, allowList(methods)));
  };

  return {
    before(req, res, next) {
      res.removeHeader('x-powered-by');
      for (const name in alwaysOnHeaders) res.setHeader(name, alwaysOnHeaders[name]!);
      warnIfLoose(conventions, req.app);
      routeJson(conventions, req, res);
      const stop = conventions.beforeRouting(contextOf(conventions, req));
      if (stop === undefined) return onward(req, res, next);
      if (!(stop instanceof Promise)) return send(res, stop);
      stop.then((response) => (response ? send(res, response) : onward(req, res, next)), next);
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
      for (const info of new Set(conventions.routes)) {
        // One Express route per pattern, so that a declared HEAD is not shadowed by GET's.
        if (info.pattern !== pattern) {
          pattern = info.pattern;
          native = target.route(expressPattern(pattern, target));
        }
        native![info.method.toLowerCase() as Verb](route(info));
      }
    },
    route,
    guard: (settings) => guardMiddleware(conventions, settings),
    after: [
      (req, res, next) => {
        if (res.headersSent) return next();
        const allow = allowList(routeMethods(req.app, req.url));
        send(res, conventions.handleUnmatched(contextOf(conventions, req), allow));
      },
      (error, req, res, next) => {
        if (res.headersSent) return next(error);
        send(res, conventions.handleError(contextOf(conventions, req), fromExpressError(error)));
      },
    ],
  };
}

/**
 * The old name of {@link toExpressMiddleware}, kept for one minor version; the first call warns
 * once.
 *
 * @deprecated Use `toExpressMiddleware` from `api-conventions/express`: the same function.
 *
 * @category Deprecated
 */
export const createExpressMiddleware: typeof toExpressMiddleware = deprecatedFunction(
  toExpressMiddleware,
  'createExpressMiddleware (api-conventions/express)',
  'toExpressMiddleware',
);
