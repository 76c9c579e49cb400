/**
 * `api-conventions/fetch`: serves the conventions as a Web-standard `fetch` handler (Hono, Bun,
 * Deno, workers), with Web APIs only.
 *
 * @module api-conventions/fetch
 */
import type { Conventions, ConventionsOptions } from 'api-conventions';
import {
  assertFetchHostOptions,
  errorToResponse,
  markStep,
  refusalResponseFor,
  requestFailureOf,
  toWebResponse,
} from '#core';
import {
  type AppRouteEntry,
  bindFetch,
  type FetchContext,
  type FetchHostOptions,
} from './_fetch-host.ts';

export {
  bodyOf,
  type FetchMiddleware,
  type FetchMiddlewareOptions,
  type IssuePathKey,
  type IssuePathSegment,
  identityOf,
  type StandardIssue,
  toFetchErrorHandler,
  toFetchGuard,
  toFetchMiddleware,
  type ValidatorError,
  type ValidatorResult,
  validationHook,
} from './_fetch-app-routes.ts';
export type {
  AppRouteEntry,
  FetchContext,
  FetchHostOptions,
  RemoteAddress,
} from './_fetch-host.ts';

/**
 * A Web-standard request handler. `context` is whatever the host passes second (Deno's
 * `ServeHandlerInfo`, Bun's `Server`); only `remoteAddress` reads it. Given a Hono context
 * instead (`app.notFound(handle)`, `app.all('*', handle)`), it reads the request from it. It
 * returns the `Response` itself when nothing on the way is asynchronous, as every `fetch` host
 * accepts.
 */
export interface FetchHandler<Context = unknown> {
  /** Answers a request. */
  (request: Request, context?: Context): Response | Promise<Response>;
  /** Answers a request from its Hono context, behind {@link toFetchMiddleware}. */
  (c: FetchContext, next?: unknown): Response | Promise<Response>;
}

/** Options of {@link toFetchHandler}. */
export interface FetchHandlerOptions<Context = unknown> extends FetchHostOptions<Context> {
  /**
   * The app's own routes beside the table, read on demand (Hono: `() => app.routes`), when no
   * {@link toFetchMiddleware} is given them: they join the route view, so a wrong method on one
   * of them is 405 with `Allow` and OPTIONS lists its methods, as on every host. @default none
   */
  routes?: (() => readonly AppRouteEntry[]) | undefined;
}

/**
 * Turns the conventions (or the options to build them) into a `fetch` handler for any
 * Web-standard host. Bodies are read as a stream with the configured size limit; everything else
 * is the core's decision. Behind {@link toFetchMiddleware} on Hono, it gives the answers for what
 * no route served (404, 405 with `Allow`, OPTIONS): pass it itself (`app.notFound(handle)`), so
 * that the middleware knows it for the library's own.
 *
 * @example
 * ```ts
 * import { conventions } from 'api-conventions';
 * import { toFetchHandler } from 'api-conventions/fetch';
 *
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * const handle = toFetchHandler(api);
 * export default { fetch: handle }; // or Deno.serve(handle), Bun.serve({ fetch: handle })
 * ```
 *
 * @see [Adapters](../../docs/adapters.md) for Hono, Bun, Deno and workers.
 */
export function toFetchHandler<Context = unknown>(
  api: Conventions | ConventionsOptions,
  options: FetchHandlerOptions<Context> = {},
): FetchHandler<Context> {
  const bound = bindFetch(api, 'toFetchHandler');
  const { host } = bound;
  assertFetchHostOptions('toFetchHandler()', options, ['routes']);
  if (options.routes !== undefined) bound.readRoutes(options.routes);
  const handler = (first: Request | FetchContext, second?: unknown) => {
    const hono = !(first instanceof Request);
    const request = hono ? first.req.raw : first;
    // Behind toFetchMiddleware, which ran the front (and received the request with its own
    // options): the router's answers. Alone: everything, the library routing, with the host's
    // context and this handler's options.
    bound.receive(request, hono ? first : second, options as FetchHostOptions<unknown>);
    return toWebResponse(host.serve(request), host.logger);
  };
  return markStep(handler, { own: true }) as FetchHandler<Context>;
}

/**
 * What {@link ServerErrorHandler.wrap} reads of a request: the connection it came on.
 */
export interface ServerRequest {
  /** The connection the request came on. */
  readonly socket?:
    | {
        /** The client's address. */
        readonly remoteAddress?: string | undefined;
      }
    | null
    | undefined;
}

/**
 * The error handler {@link toClientErrorHandler} gives, with the listener wrapper that tells it
 * which client each refused request came from.
 */
export interface ServerErrorHandler {
  /** Answers an error of the server: its own refusal of a request, or a logged 500. */
  (error: unknown): Response | Promise<Response>;
  /**
   * Wraps the server's request listener, so that a request the server refuses (it calls the
   * handler while the listener runs, as `@hono/node-server` does) is counted against its
   * client's rate limit by the connection's address; unwrapped, such requests count as one
   * unknown client.
   */
  wrap<R extends ServerRequest, A extends unknown[], T>(
    listener: (request: R, ...rest: A) => T,
  ): (request: R, ...rest: A) => T;
}

/**
 * An error handler for the server under a fetch handler, for the requests it cannot turn into a
 * `Request` (on Hono's node server, `getRequestListener(app.fetch, { errorHandler })`: a
 * backslash in the path, a `*` or malformed absolute-form target, a missing or unreadable
 * `Host`): 400 with the spec's error body and the always-on headers, where the server would
 * answer an empty 400, counted by the rate limit like every request (wrap the listener with
 * `wrap` so that each client is counted by its address). Anything else it is given is a logged 500.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { getRequestListener } from '@hono/node-server';
 * import { conventions } from 'api-conventions';
 * import { toClientErrorHandler, toFetchHandler } from 'api-conventions/fetch';
 *
 * const api = conventions({ routes: {} });
 * const errorHandler = toClientErrorHandler(api);
 * const listener = errorHandler.wrap(getRequestListener(toFetchHandler(api), { errorHandler }));
 * createServer(listener).listen(3000);
 * ```
 */
export function toClientErrorHandler(api: Conventions): ServerErrorHandler {
  // The request whose listener is running: the server calls the handler from within it.
  let current: ServerRequest | undefined;
  const handler = (error: unknown): Response | Promise<Response> => {
    const kind = requestFailureOf(error);
    if (kind === undefined) return toWebResponse(errorToResponse(error, api.logger), api.logger);
    return toWebResponse(
      refusalResponseFor(api, kind, current?.socket?.remoteAddress ?? undefined),
      api.logger,
    );
  };
  return Object.assign(handler, {
    wrap<R extends ServerRequest, A extends unknown[], T>(listener: (request: R, ...rest: A) => T) {
      return (request: R, ...rest: A): T => {
        const outer = current;
        current = request;
        try {
          return listener(request, ...rest);
        } finally {
          current = outer;
        }
      };
    },
  });
}
