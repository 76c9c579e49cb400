/** The host's own routes beside the table (Hono's): middleware, error handler, their methods. */
import { type Conventions, type ConventionsOptions, HeaderBag } from 'api-conventions';
import { toConventions } from 'api-conventions/host';
import { type MatchFunction, match } from 'path-to-regexp';
import { inputOf, type RemoteAddress, toResponse } from './_fetch-io.ts';

/** One of the host's own routes, as Hono lists them in `app.routes`. */
export interface NativeRoute {
  /** The method, upper-case; `ALL` (middleware and catch-alls) is not a method a path offers. */
  readonly method: string;
  /** The path pattern (`/v1/health`, `/v1/things/:id`). */
  readonly path: string;
}

interface Compiled {
  method: string;
  matches: MatchFunction<object>;
}

function compile(routes: readonly NativeRoute[]): Compiled[] {
  const compiled: Compiled[] = [];
  for (const { method, path } of routes) {
    if (method === 'ALL' || path === '*' || path === '/*') continue;
    try {
      // Hono's trailing `*` is a named wildcard in path-to-regexp's syntax.
      const pattern = path.replace(/\/\*$/, '/*rest');
      compiled.push({ method, matches: match(pattern, { decode: false }) });
    } catch {
      // A pattern this syntax cannot read (Hono's `:id{[0-9]+}`) never offers methods for 405.
    }
  }
  return compiled;
}

/**
 * The methods the host's own routes serve on a path, recompiled only when the route list grows
 * (routes are added while the app is being built, and the list is read on demand).
 */
export function methodsOfRoutes(list: () => readonly NativeRoute[]): (path: string) => string[] {
  let seen = -1;
  let compiled: Compiled[] = [];
  return (path) => {
    const routes = list();
    if (routes.length !== seen) {
      compiled = compile(routes);
      seen = routes.length;
    }
    return compiled.filter((route) => route.matches(path)).map((route) => route.method);
  };
}

/** A Hono-style middleware: runs before the host's routes and may replace `c.res` after them. */
export type FetchMiddleware = (
  c: { req: { raw: Request }; res: Response },
  next: () => Promise<void>,
) => Promise<Response | undefined>;

/**
 * Middleware for the host's own routes (Hono's `app.use('*', …)`, registered before them): the
 * pre-routing phase and the path rules run on every request, once (the handler of
 * `toFetchHandler` does not run them again), and every response the host's routes give gets
 * the always-on headers (`nosniff`, and the security set as features add it). A native route's
 * response is finished bytes, so the transform and send phases do not reach it.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { conventions } from 'api-conventions';
 * import { toFetchHandler, toFetchMiddleware } from 'api-conventions/fetch';
 *
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * const app = new Hono();
 * app.use('*', toFetchMiddleware(api));
 * app.get('/v1/health', (c) => c.json({ status: 'ok' }));
 * const handle = toFetchHandler(api, { routes: () => app.routes });
 * app.all('*', (c) => handle(c.req.raw));
 * ```
 */
export function toFetchMiddleware<Context = unknown>(
  api: Conventions | ConventionsOptions,
  options: { remoteAddress?: RemoteAddress<Context> | undefined } = {},
): FetchMiddleware {
  const conventions = toConventions(api);
  const { alwaysOnHeaders, logger } = conventions;
  return async (c, next) => {
    const request = c.req.raw;
    const ctx = conventions.contextFor(request, () =>
      inputOf(request, c as Context, options.remoteAddress),
    );
    const early = await conventions.beforeRouting(ctx);
    if (early !== undefined) return toResponse(early, logger);
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
 * A native route's response with the always-on headers it lacks and the headers the pre-routing
 * phase gathered (`Vary` merged, `Set-Cookie` and `Link` added). A response from `fetch()` has
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
    const ctx = conventions.contextFor(request, () => inputOf(request, c, undefined));
    const result = conventions.handleError(ctx, error);
    return result instanceof Promise
      ? result.then((response) => toResponse(response, conventions.logger))
      : toResponse(result, conventions.logger);
  };
}
