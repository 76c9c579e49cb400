/** What the Express adapter reads from Express itself: its version, routing table and errors. */
import type { Conventions, RouteConfig } from 'api-conventions';
import { type AppRoute, markOf, originalOf } from 'api-conventions/host';
import type { Application, Router } from 'express';

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

/**
 * The app's own routes, nested Routers included, as plain data for the route view: the table's
 * routes (mounted by `mount`) are left out, and a guard on a route gives it its settings. A
 * Router whose mount path cannot be read (Express 4 with parameters in it) is passed to `skip`.
 */
export function appRoutesOf(app: unknown, skip: (why: string) => void): AppRoute[] {
  const routes: AppRoute[] = [];
  const router = appRouter(app);
  if (router) walk(router.stack, '', routes, skip);
  return routes;
}

/** The top of an app's routing stack, whose length tells when routes were added. */
export function stackSize(app: unknown): number {
  return appRouter(app)?.stack.length ?? 0;
}

function walk(
  stack: readonly Layer[],
  prefix: string,
  out: AppRoute[],
  skip: (why: string) => void,
) {
  for (const layer of stack) {
    const { route } = layer;
    if (route) {
      const marks = (route.stack ?? []).map((h) => markOf(h.handle));
      if (marks.some((m) => m?.table !== undefined)) continue;
      let config: RouteConfig | undefined;
      for (const m of marks) config ??= m?.guard;
      for (const path of [route.path].flat()) {
        if (typeof path !== 'string') {
          skip(`a route on ${String(path)} (a RegExp path)`);
          continue;
        }
        for (const [method, on] of Object.entries(route.methods)) {
          if (!on || method === '_all') continue;
          // A Router's own root (`router.get('/')`) is its mount path itself.
          const pattern = path === '/' && prefix !== '' ? prefix : prefix + path;
          out.push({ method: method.toUpperCase(), pattern, config });
        }
      }
    } else {
      const nested = routerOf(layer.handle);
      if (nested === undefined) continue;
      const mount = mountPath(layer);
      if (mount === undefined) skip(`a Router mounted on ${String(layer.regexp)}`);
      else walk(nested.stack, prefix + mount, out, skip);
    }
  }
}

/** The literal path a Router is mounted on (`''` at the root), or `undefined` when unreadable. */
function mountPath(layer: Layer): string | undefined {
  if (typeof layer.rawPath === 'string') return layer.rawPath === '/' ? '' : layer.rawPath;
  if (layer.regexp?.fast_slash) return '';
  // Express 4 (path-to-regexp 0.1): `^\/v1\/admin\/?(?=\/|$)` for a literal mount path.
  const literal = /^\^((?:\\\/[\w.~-]+)+)\\\/\?\(\?=\\\/\|\$\)$/.exec(layer.regexp?.source ?? '');
  return literal ? literal[1]!.replaceAll('\\/', '/') : undefined;
}

/**
 * The table's pattern for Express's router. Express 4 reads patterns with path-to-regexp 0.1,
 * where `*path` is an unnamed wildcard followed by the text `path`: a named wildcard becomes
 * `:path(.+)` there, and groups and escapes, which it cannot read, are a `TypeError`.
 */
export function expressPattern(pattern: string, target: Application | Router): string {
  if (!isExpress4(target)) return pattern;
  if (/[{}()\\]/.test(pattern)) {
    throw new TypeError(
      `Route "${pattern}": Express 4 has no optional groups or escapes; declare each path as its own route, or use Express 5.`,
    );
  }
  return pattern.replace(/\*(\w+)/g, ':$1(.+)');
}

const warnedApps = new WeakSet<object>();

/** The app's own routes, without strict routing, serve `/v1/books/` as `/v1/books`: say so once. */
export function warnIfLoose(conventions: Conventions, app: object): void {
  if (warnedApps.has(app)) return;
  warnedApps.add(app);
  if (isStrict(app)) return;
  conventions.logger.warn(
    "Express serves /v1/books/ as /v1/books unless strict routing is on (spec 4.1 wants 404): call app.set('strict routing', true) before the first app.use().",
  );
}
