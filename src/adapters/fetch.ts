/**
 * `api-conventions/fetch`: serves the conventions as a Web-standard `fetch` handler (Hono, Bun,
 * Deno, workers), with Web APIs only.
 *
 * @module api-conventions/fetch
 */
import type { Conventions, ConventionsOptions } from 'api-conventions';
import { assertKnownKeys, toConventions } from 'api-conventions/host';
import { inputOf, type RemoteAddress, toResponse } from './_fetch-io.ts';
import { methodsOfRoutes, type NativeRoute } from './_fetch-native.ts';

export type { RemoteAddress } from './_fetch-io.ts';
export {
  type FetchMiddleware,
  type NativeRoute,
  toFetchErrorHandler,
  toFetchMiddleware,
} from './_fetch-native.ts';

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
  remoteAddress?: RemoteAddress<Context> | undefined;
  /**
   * The host's own routes beside the table, read on demand (Hono: `() => app.routes`), so that a
   * wrong method on one of them is 405 with `Allow` and OPTIONS lists its methods, as on every
   * host. @default none
   */
  routes?: (() => readonly NativeRoute[]) | undefined;
}

/**
 * Turns the conventions (or the options to build them) into a `fetch` handler for any
 * Web-standard host. Bodies are read as a stream with the configured size limit; everything else
 * is the core's decision.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { conventions } from 'api-conventions';
 * import { toFetchHandler } from 'api-conventions/fetch';
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
    const result = conventions.handle(input, {
      context: conventions.contextFor(request),
      methodsOf,
    });
    return result instanceof Promise
      ? result.then((response) => toResponse(response, conventions.logger))
      : toResponse(result, conventions.logger);
  };
}
