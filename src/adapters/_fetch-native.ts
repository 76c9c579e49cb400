/** The host's own routes beside the table (Hono's): the route view, middleware, guard, errors. */
import {
  type Conventions,
  type ConventionsOptions,
  HeaderBag,
  type HostRoute,
  type Identity,
  type RequestContext,
  type RouteConfig,
} from 'api-conventions';
import { toConventions } from 'api-conventions/host';
import { type FetchHostOptions, inputOf, toResponse } from './_fetch-io.ts';

/** One of the host's own routes, as Hono lists them in `app.routes`. */
export interface NativeRoute {
  /** The method, upper-case; `ALL` (middleware and catch-alls) is not a method a path offers. */
  readonly method: string;
  /** The path pattern (`/v1/health`, `/v1/things/:id`). */
  readonly path: string;
  /** The handler or middleware; a {@link toFetchGuard} among a route's carries its settings. */
  readonly handler?: unknown;
}

const guardSettings = Symbol.for('api-conventions.guard');
const held = Symbol.for('api-conventions.fetch-context');

/** The context the middleware opened for a request, kept on the `Request` itself. */
export function heldContext(request: Request): RequestContext | undefined {
  return (request as unknown as Record<symbol, RequestContext | undefined>)[held];
}

function hold(request: Request, ctx: RequestContext): void {
  (request as unknown as Record<symbol, RequestContext>)[held] = ctx;
}

/** Hono's routes as the core's host routes: `ALL` skipped, a trailing `*` named, guards' settings. */
function toHostRoutes(routes: readonly NativeRoute[]): HostRoute[] {
  const byKey = new Map<string, { method: string; pattern: string; config?: RouteConfig }>();
  for (const { method, path, handler } of routes) {
    if (method === 'ALL' || path === '*' || path === '/*') continue;
    const pattern = path.replace(/\/\*$/, '/*rest');
    const key = `${method} ${pattern}`;
    let route = byKey.get(key);
    if (route === undefined) {
      route = { method, pattern };
      byKey.set(key, route);
    }
    const config = (handler as Record<symbol, RouteConfig> | undefined)?.[guardSettings];
    if (config !== undefined) route.config = config;
  }
  return [...byKey.values()];
}

/**
 * Hands the host's routes to the core when their list changes (routes are added while the app is
 * built, and the list is read on demand): a length compare per request.
 */
export function syncRoutes(
  conventions: Conventions,
  list: (() => readonly NativeRoute[]) | undefined,
): () => void {
  if (list === undefined) return () => {};
  let seen = -1;
  return () => {
    const routes = list();
    if (routes.length === seen) return;
    seen = routes.length;
    conventions.useHostRoutes(toHostRoutes(routes));
  };
}

/** A Hono-style context, as far as the adapter reads it. */
export interface FetchContext {
  /** The host's request wrapper. */
  req: {
    /** The Web-standard `Request`. */
    raw: Request;
  };
  /** The response the host's routes gave, which the middleware may replace. */
  res: Response;
}

/** A Hono-style middleware: runs before the host's routes and may replace `c.res` after them. */
export type FetchMiddleware = (
  c: FetchContext,
  next: () => Promise<void>,
) => Promise<Response | undefined>;

/**
 * Middleware for a host with routes of its own (Hono's `app.use('*', …)`, registered before
 * them). Every request is matched against the route view (the table and, through `routes`, the
 * host's own), then runs the pre-routing phase and, on a matched route, authentication and the
 * `preParsing` checks. A table route is answered here, end to end; a host route goes on to its
 * handler, which reads the caller through {@link identityOf}, and its `Response` gets the
 * always-on headers and those the checks gathered. Anything else goes on to the catch-all
 * handler of {@link toFetchHandler}.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { conventions } from 'api-conventions';
 * import { identityOf, toFetchHandler, toFetchMiddleware } from 'api-conventions/fetch';
 *
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * const app = new Hono();
 * app.use('*', toFetchMiddleware(api, { routes: () => app.routes }));
 * app.get('/v1/me', (c) => c.json({ subject: identityOf(c)?.subject ?? null }));
 * const handle = toFetchHandler(api);
 * app.all('*', (c) => handle(c.req.raw));
 * ```
 */
export function toFetchMiddleware<Context = unknown>(
  api: Conventions | ConventionsOptions,
  options: FetchHostOptions<Context> & { routes?: (() => readonly NativeRoute[]) | undefined } = {},
): FetchMiddleware {
  const conventions = toConventions(api);
  const { alwaysOnHeaders, logger } = conventions;
  const sync = syncRoutes(conventions, options.routes);
  return async (c, next) => {
    sync();
    const request = c.req.raw;
    const input = inputOf(
      request,
      c as Context,
      options.remoteAddress,
      options.readingBody,
      options.decodeBody,
    );
    const ctx = conventions.open(input);
    hold(request, ctx);
    const stop = await conventions.begin(ctx);
    if (stop !== undefined) return toResponse(stop, logger);
    if (ctx.route !== undefined && !ctx.route.host) {
      return toResponse(await conventions.serve(ctx), logger);
    }
    await next();
    c.res = withHeaders(
      c.res,
      alwaysOnHeaders,
      ctx.hasResponseHeaders ? ctx.responseHeaders : undefined,
    );
    return undefined;
  };
}

/**
 * Route settings for one of the host's own routes (Hono's `app.post(path, toFetchGuard(api,
 * settings), handler)`): they join the route view, so the route's authentication and checks run
 * in {@link toFetchMiddleware}; here its body is read, parsed and checked against the field
 * rules, then the `preHandler` checks run. The handler reads the checked body with
 * {@link bodyOf}. The settings are checked now: a misspelt key is a `TypeError` at start-up.
 */
export function toFetchGuard(api: Conventions, settings: RouteConfig): FetchMiddleware {
  const { config } = api.routeSettings('ANY', 'guard()', settings);
  const guard: FetchMiddleware = async (c, next) => {
    const request = c.req.raw;
    const ctx = heldContext(request) ?? api.open(inputOf(request, c, undefined));
    hold(request, ctx);
    const own = ctx.route?.host ? undefined : api.routeSettings(ctx.method, ctx.path, config);
    const guarded = await api.guard(ctx, own);
    if (guarded.response !== undefined) return toResponse(guarded.response, api.logger);
    await next();
    return undefined;
  };
  (guard as unknown as Record<symbol, RouteConfig>)[guardSettings] = config;
  return guard;
}

/** The verified caller of a request the middleware saw (`ctx.identity`), or `undefined`. */
export function identityOf(c: FetchContext | Request): Identity | undefined {
  return heldContext(c instanceof Request ? c : c.req.raw)?.identity;
}

/** The body {@link toFetchGuard} read and checked for this request, or `undefined`. */
export function bodyOf(c: FetchContext | Request): unknown {
  return heldContext(c instanceof Request ? c : c.req.raw)?.body;
}

/**
 * A native route's response with the always-on headers it lacks and the headers the checks
 * gathered (`Vary` merged, `Set-Cookie` and `Link` added). A response from `fetch()` has
 * immutable headers, so it is copied once.
 */
function withHeaders(
  response: Response,
  alwaysOn: Readonly<Record<string, string | string[]>>,
  gathered: HeaderBag | undefined,
): Response {
  let copy = response;
  try {
    response.headers.set('x-probe-mutable', '');
    response.headers.delete('x-probe-mutable');
  } catch {
    copy = new Response(response.body, response);
  }
  const { headers } = copy;
  if (gathered !== undefined) {
    const merged = new HeaderBag({ vary: headers.get('vary') ?? undefined }).merge(gathered);
    for (const [name, value] of Object.entries(merged.record)) {
      if (name === 'vary') headers.set(name, String(value));
      else if (name === 'set-cookie' || name === 'link') {
        for (const item of [value].flat()) headers.append(name, item);
      } else if (!headers.has(name)) headers.set(name, [value].flat().join(', '));
    }
  }
  for (const name in alwaysOn) if (!headers.has(name)) headers.set(name, String(alwaysOn[name]));
  return copy;
}

/**
 * An error handler for the host's own routes (Hono's `app.onError`): what they throw gets the
 * spec's error body and status, reported to the conventions' logger, as on every other host.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { conventions } from 'api-conventions';
 * import { toFetchErrorHandler } from 'api-conventions/fetch';
 *
 * const app = new Hono();
 * app.onError(toFetchErrorHandler(conventions({})));
 * ```
 */
export function toFetchErrorHandler(
  api: Conventions | ConventionsOptions,
): (error: unknown, c: { req: { raw: Request } }) => Response | Promise<Response> {
  const conventions = toConventions(api);
  return (error, c) => {
    const request = c.req.raw;
    const ctx = heldContext(request) ?? conventions.open(inputOf(request, c, undefined));
    const result = conventions.fail(ctx, error);
    return result instanceof Promise
      ? result.then((response) => toResponse(response, conventions.logger))
      : toResponse(result, conventions.logger);
  };
}
