/**
 * `api-conventions/express`: the conventions in an Express 5 (or 4) app, around its own routing.
 *
 * @module api-conventions/express
 */

import type {
  Conventions,
  ConventionsOptions,
  Identity,
  RequestContext,
  RouteConfig,
  RouteInfo,
} from 'api-conventions';
import { type ApiResponse, type Step, toConventions } from 'api-conventions/host';
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
import { addBody, contextOf, heldContext, openContext } from './_express-io.ts';
import { copyContextHeaders, guardMiddleware, routeJson, sendTo } from './_express-native.ts';
import {
  expressPattern,
  fromExpressError,
  hostRoutesOf,
  isStrict,
  stackSize,
  tableHandler,
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
   * Route settings (`auth`, `scopes`, `body`, `accepts`, `bodyLimit`, and what plugins add) for
   * one of the app's own routes, before its handler. Every app route gets authentication and the
   * checks in `before` (with the defaults when it has no guard); with a guard, its settings
   * apply, the body is read or taken from a body parser and checked, and `req.body` is the
   * checked body.
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

  // Express dispatched here for a path the route view matched to this route: the view's match
  // (route and decoded params, on ctx) is the one truth, as on every host.
  const route = (_info: RouteInfo): RequestHandler => {
    const handler: RequestHandler = (req, res) => {
      const ctx = heldContext(req);
      if (ctx === undefined) {
        // No `before` in front: the whole pipeline here, on a context of its own.
        const own = openContext(conventions, req);
        addBody(req, own.input);
        return send(res, conventions.handle(own.input));
      }
      addBody(req, ctx.input);
      send(res, conventions.serve(ctx));
    };
    (handler as unknown as Record<symbol, boolean>)[tableHandler] = true;
    return handler;
  };

  // The app's own routes join the route view on the first request, and again when routes are
  // added at the top of the app (a length compare per request).
  const seen = new WeakMap<object, number>();
  const syncRoutes = (app: object) => {
    const size = stackSize(app);
    if (seen.get(app) === size) return;
    seen.set(app, size);
    const routes = hostRoutesOf(app, (what) =>
      conventions.logger.warn(
        `The app's routes under ${what} are outside the conventions: they get no authentication, rate limit or CORS preflight. Mount Routers on a literal path.`,
      ),
    );
    conventions.useHostRoutes(routes);
  };

  const onward = (req: Request, res: Response, next: NextFunction, ctx: RequestContext) => {
    copyContextHeaders(ctx, res);
    // Express routes on `req.url`: give it the normalised target, as every host routes on it.
    const target = ctx.rawQuery ? `${ctx.path}?${ctx.rawQuery}` : ctx.path;
    if (req.url !== target) req.url = target;
    // A nested Router answers OPTIONS itself (200, text/plain) before `after` is reached, so
    // OPTIONS on a path of the view without an OPTIONS route is answered here.
    if (req.method === 'OPTIONS' && ctx.route === undefined && ctx.allowed.length > 0) {
      return send(res, conventions.serve(ctx));
    }
    next();
  };

  return {
    before(req, res, next) {
      res.removeHeader('x-powered-by');
      for (const name in alwaysOnHeaders) res.setHeader(name, alwaysOnHeaders[name]!);
      warnIfLoose(conventions, req.app);
      syncRoutes(req.app);
      routeJson(conventions, req, res);
      const ctx = openContext(conventions, req);
      const stop = conventions.begin(ctx);
      if (stop === undefined) return onward(req, res, next, ctx);
      if (!(stop instanceof Promise)) return send(res, stop);
      stop.then((response) => (response ? send(res, response) : onward(req, res, next, ctx)), next);
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
        send(res, conventions.serve(contextOf(conventions, req)));
      },
      (error, req, res, next) => {
        if (res.headersSent) return next(error);
        send(res, conventions.fail(contextOf(conventions, req), fromExpressError(error)));
      },
    ],
  };
}

/**
 * The verified caller of a request (`ctx.identity`: subject, client, scopes), for the app's own
 * handlers; `undefined` when no identity plugin verified one (an `auth: false` route, say).
 *
 * @example
 * ```ts
 * app.get('/v1/me', c.guard({ scopes: ['profile'] }), (req, res) => {
 *   res.json({ subject: identityOf(req)?.subject });
 * });
 * ```
 */
export function identityOf(req: Request): Identity | undefined {
  return heldContext(req)?.identity;
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
