/**
 * `api-conventions/fetch`: serves the conventions as a Web-standard `fetch` handler (Hono, Bun,
 * Deno, workers), with Web APIs only.
 *
 * @module api-conventions/fetch
 */
import type { BodyDecoder, Conventions, ConventionsOptions } from 'api-conventions';
import { assertKnownKeys, errorToResponse, toConventions } from 'api-conventions/host';
import { deprecatedFunction } from './_deprecated.ts';
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
  /**
   * Called once the core decides to read a request's body, before its first byte is pulled. A
   * Node host that hands `Expect: 100-continue` requests over without answering them sends
   * `100 Continue` here (`(_, c) => sendContinue(c.env.incoming)` on Hono's node server, with
   * `sendContinue` from `api-conventions/node`), so a request that will be refused never gets it.
   * @default none
   */
  readingBody?: ((request: Request, context: Context) => void) | undefined;
  /**
   * Decodes request bodies for routes that list `encodings`. The default uses the Web
   * `DecompressionStream` (gzip and deflate); on Node, `decodeNodeBody` from
   * `api-conventions/node` adds br. @default gzip and deflate through `DecompressionStream`
   */
  decodeBody?: BodyDecoder | undefined;
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
  const names = ['remoteAddress', 'routes', 'readingBody', 'decodeBody'] as const;
  assertKnownKeys('toFetchHandler()', options, names);
  const { remoteAddress, routes, readingBody, decodeBody } = options;
  for (const name of names) {
    if (options[name] !== undefined && typeof options[name] !== 'function') {
      throw new TypeError(`toFetchHandler(): \`${name}\` must be a function.`);
    }
  }
  const methodsOf = routes === undefined ? undefined : methodsOfRoutes(routes);
  return (request, context) => {
    const input = inputOf(request, context as Context, remoteAddress, readingBody, decodeBody);
    const result = conventions.handle(input, {
      context: conventions.contextFor(request),
      methodsOf,
    });
    return result instanceof Promise
      ? result.then((response) => toResponse(response, conventions.logger))
      : toResponse(result, conventions.logger);
  };
}

/**
 * An error handler for the server under a fetch handler, for the requests it cannot turn into a
 * `Request` (on Hono's node server, `getRequestListener(app.fetch, { errorHandler })`: a
 * backslash in the path, a `*` or malformed absolute-form target, a missing or unreadable
 * `Host`): 400 with the spec's error body and the always-on headers, where the server would
 * answer an empty 400. Anything else it is given is a logged 500.
 *
 * @example
 * ```ts
 * import { getRequestListener } from '@hono/node-server';
 * import { conventions } from 'api-conventions';
 * import { toClientErrorHandler, toFetchHandler } from 'api-conventions/fetch';
 *
 * const api = conventions({ routes: {} });
 * const listener = getRequestListener(toFetchHandler(api), { errorHandler: toClientErrorHandler(api) });
 * ```
 */
export function toClientErrorHandler(api: Conventions): (error: unknown) => Response {
  return (error) => {
    if (!(error instanceof Error) || error.name !== 'RequestError') {
      return toResponse(errorToResponse(error, api.logger), api.logger);
    }
    const { status, headers, body } = api.hostAnswer(
      /missing host/i.test(error.message) ? 'host' : 'target',
    );
    return toResponse({ status, headers: { ...headers }, body }, api.logger);
  };
}

/**
 * The old name of {@link toClientErrorHandler}, kept for one minor version; the first call warns
 * once.
 *
 * @deprecated Use `toClientErrorHandler` from `api-conventions/fetch`: the same function.
 *
 * @category Deprecated
 */
export const toServerErrorHandler: typeof toClientErrorHandler = deprecatedFunction(
  toClientErrorHandler,
  'toServerErrorHandler (api-conventions/fetch)',
  'toClientErrorHandler',
);
