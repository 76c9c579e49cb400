/** Route declarations: a table of path patterns, methods, handlers and per-route settings. */
import type { RequestContext } from './context.ts';
import type { Method, RouteConfig, RouteSettings } from './route-types.ts';

/**
 * A request handler: takes the request context, returns the data (sent as 200 JSON) or a
 * {@link Reply}, or throws an {@link ApiError}. It may be async.
 *
 * @category Routing
 */
export type Handler = (ctx: RequestContext) => unknown;

/**
 * A handler with its per-route settings.
 *
 * @category Routing
 */
export interface RouteDefinition {
  /** The handler. */
  handler: Handler;
  /** Per-route settings. */
  config?: RouteConfig;
}

/**
 * The methods of one path pattern, each a handler or a handler with settings.
 *
 * @category Routing
 */
export type PathMethods = Partial<
  Record<Exclude<Method, 'HEAD' | 'OPTIONS'>, Handler | RouteDefinition>
> &
  Partial<Record<'HEAD' | 'OPTIONS', Handler | RouteDefinition>>;

/**
 * The route table: path patterns (path-to-regexp syntax, `/v1/books/:id`) mapped to their methods.
 *
 * @category Routing
 */
export type RouteTable = Readonly<Record<string, PathMethods>>;

/**
 * One declared route as the library sees it after start-up: pattern, method, settings, handler.
 *
 * @category Routing
 */
export interface RouteInfo extends RouteSettings {
  /** The route's handler; on one of the app's own routes, one that is never called (the app answers). */
  readonly handler: Handler;
}
