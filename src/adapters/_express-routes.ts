/** What the Express adapter reads from Express itself: its version, routing table and errors. */
import { type AppHandler, originalOf } from '#core';

/** The parts of an Express 4 or 5 router layer the adapter reads. */
export interface Layer {
  /** Express 5 (`router` 2): the match or `false`. Express 4: a boolean, and `path` is set. */
  match(path: string): { path: string; params?: Record<string, string> } | boolean;
  path?: string;
  /** Express 5 (`router` 2.2): the path the layer was declared with. */
  rawPath?: unknown;
  /** Express 4: the compiled path, the only trace of a Router's mount path. */
  regexp?: RegExp & { fast_slash?: boolean };
  route?: ExpressRoute;
  handle?: ((...args: never[]) => unknown) & { stack?: unknown };
  /** Express 4: what the last `match` found. */
  params?: Record<string, string>;
}

/** An Express route: a path with its methods and handlers. */
export interface ExpressRoute {
  path: unknown;
  methods: Record<string, boolean | undefined>;
  /** Its layers: each handler, with the method it serves (`undefined` for all). */
  stack?: readonly { handle?: unknown; method?: string }[];
}

/** An Express router: the app's own, or one from `express.Router()`. */
export interface RouterLike {
  stack: Layer[];
  strict?: boolean;
}

/** The router of an Express app: `app.router` in Express 5, `app._router` in Express 4. */
export function appRouter(app: unknown): RouterLike | undefined {
  const a = app as { _router?: RouterLike; router?: RouterLike; lazyrouter?: () => void };
  // Express 4 builds `_router` lazily, and its `app.router` getter throws, so it is never read.
  if (typeof a.lazyrouter !== 'function') return a.router;
  a.lazyrouter();
  return a._router;
}

/** Whether a handler is error middleware, which Express tells by its arity (through wrappers). */
export function catchesErrors(handle: unknown): boolean {
  return typeof handle === 'function' && (handle.length === 4 || originalOf(handle).length === 4);
}

/** The app's handlers in the order of its stack: middleware, and the handlers of its routes. */
export function handlersOf(stack: readonly Layer[]): AppHandler[] {
  return stack.flatMap(({ handle, route }): AppHandler[] =>
    route === undefined
      ? [{ handler: handle, catches: catchesErrors(handle) }]
      : (route.stack ?? []).map((entry) => ({ handler: entry.handle, route: true })),
  );
}

/** Tells whether an app or a Router is Express 4's: its app builds the router lazily, its Router keeps `_params`. */
export function isExpress4(target: unknown): boolean {
  const t = target as { lazyrouter?: unknown; _params?: unknown };
  return typeof t.lazyrouter === 'function' || Array.isArray(t._params);
}

/** Tells whether a router, or an app's router, tells `/a/` from `/a` (Express's `strict` option). */
export function isStrict(target: unknown): boolean {
  const router = Array.isArray((target as RouterLike).stack)
    ? (target as RouterLike)
    : appRouter(target);
  return router?.strict === true;
}

/** The router inside a layer that is not a route: an `express.Router()`, through wrappers. */
export function routerOf(handle: unknown): RouterLike | undefined {
  if (typeof handle !== 'function') return undefined;
  if (Array.isArray((handle as { stack?: unknown }).stack)) return handle as unknown as RouterLike;
  const original = originalOf(handle) as { stack?: unknown };
  return Array.isArray(original.stack) ? (original as unknown as RouterLike) : undefined;
}

/** The literal path a Router is mounted on (`''` at the root), or `undefined` when unreadable. */
export function mountPath(layer: Layer): string | undefined {
  if (typeof layer.rawPath === 'string') return layer.rawPath === '/' ? '' : layer.rawPath;
  if (layer.regexp?.fast_slash) return '';
  // Express 4 (path-to-regexp 0.1): `^\/v1\/admin\/?(?=\/|$)` for a literal mount path.
  const literal = /^\^((?:\\\/[\w.~-]+)+)\\\/\?\(\?=\\\/\|\$\)$/.exec(layer.regexp?.source ?? '');
  return literal ? literal[1]!.replaceAll('\\/', '/') : undefined;
}
