/**
 * `api-conventions/express`: the conventions in an Express 5 (or 4) app, around its own routing.
 *
 * @module api-conventions/express
 */

import type {
  Conventions,
  ConventionsOptions,
  Identity,
  RouteConfig,
  RouteInfo,
} from 'api-conventions';
import type {
  Application,
  ErrorRequestHandler,
  NextFunction,
  Request,
  RequestHandler,
  Response,
  Router,
} from 'express';
import {
  type ApiResponse,
  appHeaders,
  CompanionFinder,
  heldContext,
  markStep,
  regexpParamPath,
  type Step,
  settle,
  warnReplacedHeaders,
} from '#core';
import { guardMiddleware, routeJson } from './_express-app-routes.ts';
import { expressCheckpoints } from './_express-checkpoints.ts';
import { addBody } from './_express-io.ts';
import { handlersOf, isExpress4, isStrict } from './_express-routes.ts';
import { reportFinalStatus } from './_node-io.ts';
import { setNodeHeaders, writeNodeStep } from './_node-write.ts';

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

const strictFix = "call app.set('strict routing', true) before the first app.use()";

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
 *
 * @see [Adopting in an existing app](../../docs/existing-apps.md) for an Express app with routes of
 *   its own, and [Adapters](../../docs/adapters.md).
 */
export function toExpressMiddleware(api: Conventions | ConventionsOptions): ExpressConventions {
  // Express decides as it goes: each route and middleware is checked as Express enters it.
  const points = expressCheckpoints(api);
  const { host } = points;
  const writeReply = (res: Response, result: Step<ApiResponse>) => {
    writeNodeStep(res, result, host.logger);
  };

  // What the app already has beside the conventions, read at its first request; the warnings
  // about what stands where name the conventions' steps as the app places them.
  const finder = new CompanionFinder(host, { first: 'c.before', errors: 'c.after' });

  // Express dispatched here: the table route this handler was made for, with Express's params.
  const route = (info: RouteInfo): RequestHandler => {
    const handler: RequestHandler = (req, res) => {
      addBody(req, host.inputOf(req));
      writeReply(res, host.serve(req, info, req.params as Record<string, string>));
    };
    return markStep(handler, { table: info });
  };

  const onward = (req: Request, res: Response, next: NextFunction) => {
    const ctx = host.context(req);
    setNodeHeaders(res, appHeaders(host, req, true));
    // Express routes on `req.url`: give it the normalised target, as every host routes on it.
    const target = ctx.rawQuery ? `${ctx.path}?${ctx.rawQuery}` : ctx.path;
    if (req.baseUrl === '' && req.url !== target) req.url = target;
    // A nested Router answers OPTIONS itself (200, text/plain) before `after` is reached, so
    // OPTIONS on a path of the view without an OPTIONS route is answered here.
    if (req.method === 'OPTIONS' && ctx.route === undefined && ctx.allowed.length > 0) {
      return writeReply(res, host.serve(req));
    }
    next();
  };

  const before: RequestHandler = (req, res, next) => {
    // The final status of every response, the app's own handlers' included.
    reportFinalStatus(host, req, res);
    res.removeHeader('x-powered-by');
    warnReplacedHeaders(host, req.app, (name) => res.getHeader(name));
    points.loose(req.app, () => isStrict(req.app), `${strictFix}.`);
    finder.seenIn(req.app, () => handlersOf(points.stack(req)));
    if (finder.watching) {
      res.once('finish', () => finder.answered(res.statusCode, res.getHeader('content-type')));
    }
    routeJson(host, req, res);
    points.cover(points.stack(req));
    const go = (stop: ApiResponse | undefined) =>
      stop === undefined ? onward(req, res, next) : writeReply(res, stop);
    settle(host.enter(req), go, next);
  };
  const after: [RequestHandler, ErrorRequestHandler] = [
    (req, res, next) => {
      if (res.headersSent) return next();
      writeReply(res, host.serve(req));
    },
    (error, req, res, next) => {
      if (res.headersSent) return next(error);
      // passport sets its challenge on the response before it hands on its 401.
      writeReply(res, host.fail(req, error, { challenge: res.getHeader('www-authenticate') }));
    },
  ];
  for (const step of [before, ...after]) markStep(step, { own: true });

  return {
    before,
    mount(target) {
      const fix = `${strictFix}, or mount on express.Router({ strict: true }).`;
      if (!isStrict(target)) throw points.notStrict('mount()', fix);
      let pattern: string | undefined;
      let native: ReturnType<Router['route']> | undefined;
      for (const info of host.api.routes) {
        // One Express route per pattern, so that a declared HEAD is not shadowed by GET's.
        if (info.pattern !== pattern) {
          pattern = info.pattern;
          // Express 4 reads patterns with path-to-regexp 0.1, where `*` is an unnamed wildcard.
          native = target.route(
            isExpress4(target) ? regexpParamPath(pattern, 'Express 4') : pattern,
          );
        }
        native![info.method.toLowerCase() as Verb](route(info));
      }
    },
    route,
    guard: (settings) => guardMiddleware(host, points, settings),
    after,
  };
}

/**
 * The verified caller of a request (`ctx.identity`: subject, client, scopes), for the app's own
 * handlers; `undefined` when no identity plugin verified one (an `auth: false` route, say).
 *
 * @example
 * ```ts
 * import express from 'express';
 * import { bearer, conventions, createTokenKeys } from 'api-conventions';
 * import { identityOf, toExpressMiddleware } from 'api-conventions/express';
 *
 * const keys = await createTokenKeys();
 * const issuer = 'https://api.example.com';
 * const api = conventions({ plugins: [bearer({ keys, issuer, audience: issuer })] });
 * const c = toExpressMiddleware(api);
 * const app = express();
 * app.use(c.before);
 * app.get('/v1/me', c.guard({ scopes: ['profile'] }), (req, res) => {
 *   res.json({ subject: identityOf(req)?.subject });
 * });
 * app.use(c.after);
 * ```
 */
export function identityOf(req: Request): Identity | undefined {
  return heldContext(req)?.identity;
}
