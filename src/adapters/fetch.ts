/**
 * `api-conventions/fetch`: serves the conventions as a Web-standard `fetch` handler (Hono, Bun,
 * Deno, workers), with Web APIs only.
 *
 * @module api-conventions/fetch
 */
import {
  type Conventions,
  type ConventionsOptions,
  conventions,
  HeaderBag,
  type RequestContext,
} from 'api-conventions';
import { assertKnownKeys, type RequestInput, toConventions } from 'api-conventions/host';
import { originForm, readBody, toResponse } from './_fetch-io.ts';
import { methodsOfRoutes, type NativeRoute } from './_fetch-native.ts';

export type { NativeRoute } from './_fetch-native.ts';

/**
 * A Web-standard request handler. `context` is whatever the host passes second (Deno's
 * `ServeHandlerInfo`, Bun's `Server`, a Hono `Context`); only `remoteAddress` reads it. It returns
 * the `Response` itself when nothing on the way is asynchronous, as every `fetch` host accepts.
 */
export type FetchHandler<Context = unknown> = (
  request: Request,
  context?: Context,
) => Response | Promise<Response>;

/** Options of {@link toFetchHandler}. */
export interface FetchHandlerOptions<Context = unknown> {
  /**
   * Reads the client address, which a `Request` does not carry, from the host: e.g.
   * `(_, info) => info.remoteAddr.hostname` on Deno,
   * `(req, server) => server.requestIP(req)?.address` on Bun,
   * `(_, c) => getConnInfo(c).remote.address` on Hono.
   * @default undefined (no address: rate limits fall back to other identities)
   */
  remoteAddress?: ((request: Request, context: Context) => string | undefined) | undefined;
  /**
   * The host's own routes beside the table, read on demand (Hono: `() => app.routes`), so that a
   * wrong method on one of them is 405 with `Allow` and OPTIONS lists its methods, as on every
   * host. @default none
   */
  routes?: (() => readonly NativeRoute[]) | undefined;
}

/** A Hono-style middleware: runs before the host's routes and may replace `c.res` after them. */
export type FetchMiddleware = (
  c: { req: { raw: Request }; res: Response },
  next: () => Promise<void>,
) => Promise<Response | undefined>;

const opened = new WeakMap<Request, RequestContext>();

function inputOf<Context>(
  request: Request,
  context: Context,
  remoteAddress: FetchHandlerOptions<Context>['remoteAddress'],
): RequestInput {
  const { method, url } = request;
  return {
    method,
    url: originForm(url),
    scheme: url.startsWith('https:') ? 'https' : 'http',
    // Read on demand: on Node, Hono builds `request.headers` from the raw headers on first use.
    headers: { get: (name) => request.headers.get(name) },
    // Fetch §5.4: GET and HEAD have no body. Not touching `body` keeps them cheap (on Node, Hono
    // builds a whole second Request the first time `body` is read).
    readBody:
      method === 'GET' || method === 'HEAD'
        ? undefined
        : (limit, options) => readBody(request, limit, options),
    remoteAddress: remoteAddress?.(request, context),
    native: request,
  };
}

/**
 * Turns the conventions (or the options to build them) into a `fetch` handler for any
 * Web-standard host. Bodies are read as a stream with the configured size limit; everything else
 * is the core's decision.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 *  * import { toFetchHandler } from 'api-conventions/fetch';
 *
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * const handle = toFetchHandler(api);
 * const app = new Hono();
 * app.all('*', (c) => handle(c.req.raw));
 * export default app; // or Deno.serve(handle), Bun.serve({ fetch: handle })
 * ```
 */
export function toFetchHandler<Context = unknown>(
  api: Conventions | ConventionsOptions,
  options: FetchHandlerOptions<Context> = {},
): FetchHandler<Context> {
  const conventions = toConventions(api);
  assertKnownKeys('toFetchHandler()', options, ['remoteAddress', 'routes']);
  const { remoteAddress, routes } = options;
  for (const name of ['remoteAddress', 'routes'] as const) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new TypeError(`toFetchHandler(): \`${name}\` must be a function.`);
    }
  }
  const methodsOf = routes === undefined ? undefined : methodsOfRoutes(routes);
  return (request, context) => {
    const input = inputOf(request, context as Context, remoteAddress);
    const result = conventions.handle(input, { context: opened.get(request), methodsOf });
    return result instanceof Promise
      ? result.then((response) => toResponse(response, conventions.logger))
      : toResponse(result, conventions.logger);
  };
}

/**
 * Middleware for the host's own routes (Hono's `app.use('*', …)`, registered before them): the
 * pre-routing phase and the path rules run on every request, once (the handler of
 * {@link toFetchHandler} does not run them again), and every response the host's routes give gets
 * the always-on headers (`nosniff`, and the security set as features add it). A native route's
 * response is finished bytes, so the transform and send phases do not reach it.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 *  * import { toFetchHandler, toFetchMiddleware } from 'api-conventions/fetch';
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
  options: Pick<FetchHandlerOptions<Context>, 'remoteAddress'> = {},
): FetchMiddleware {
  const conventions = toConventions(api);
  const { alwaysOnHeaders, logger } = conventions;
  return async (c, next) => {
    const request = c.req.raw;
    const ctx = conventions.open(inputOf(request, c as Context, options.remoteAddress));
    opened.set(request, ctx);
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
 *  * import { toFetchErrorHandler } from 'api-conventions/fetch';
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
    const ctx = opened.get(request) ?? conventions.open(inputOf(request, c, undefined));
    const result = conventions.handleError(ctx, error);
    return result instanceof Promise
      ? result.then((response) => toResponse(response, conventions.logger))
      : toResponse(result, conventions.logger);
  };
}
