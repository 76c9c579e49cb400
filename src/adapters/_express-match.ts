/**
 * What Express will run for a request, read from Express's own router before it runs: every route
 * whose layer matches the path and method (nested Routers included, each with its own `strict` and
 * case settings, since each layer's own `match` decides), in Express's order, and whether
 * middleware the library cannot read could answer it instead. An Express app mounted with
 * `app.use(path, other)` is such middleware: Express hides it in a closure of its own.
 */
import type { RouteConfig, RouteInfo, RouteSettings } from 'api-conventions';
import type { BoundHost, HostMatch } from 'api-conventions/host';
import type { Request } from 'express';
import {
  appRouter,
  type ExpressRoute,
  guardSettings,
  type Layer,
  type RouterLike,
  tableHandler,
} from './_express-routes.ts';
import { onAssign } from './_on-assign.ts';

// Middleware that never answers a request: Express's body parsers (body-parser), and Express 4's
// own first layers. Anything else that is not a route may answer.
const passThrough = new Set(['jsonParser', 'urlencodedParser', 'rawParser', 'textParser']);
const express4Own = new Set(['query', 'expressInit']);

/** The binding's `match` for Express, and the settings of a route it found. */
export interface ExpressMatcher {
  /** What Express will run for `req` on `path` (relative to the app). */
  match(req: Request, path: string): HostMatch;
  /** The settings of an Express route for a method: its table route's, its guard's, or the defaults. */
  settingsOf(route: ExpressRoute, method: string): RouteSettings;
}

interface Found {
  routes: RouteSettings[];
  params: Record<string, string> | undefined;
  others: boolean;
  checksEach: true;
}

/** Whether an Express route takes a method, lower-case (HEAD is served by GET's handlers). */
function takes(route: ExpressRoute, verb: string): boolean {
  const { methods } = route;
  return (
    methods._all === true || methods[verb] === true || (verb === 'head' && methods.get === true)
  );
}

/** The router inside a layer that is not a route: an `express.Router()`. */
function nestedRouter(handle: Layer['handle']): RouterLike | undefined {
  return Array.isArray(handle?.stack) ? (handle as unknown as RouterLike) : undefined;
}

/**
 * Builds the binding's `match` for Express: the routes are read live, on every request, so a
 * route added after the first request is seen; each route's settings (its guard's, a table
 * route's own, or the defaults) are compiled the first time it is met.
 */
export function expressMatcher(
  host: BoundHost<Request>,
  ours: ReadonlySet<unknown>,
): ExpressMatcher {
  const settings = new WeakMap<ExpressRoute, Map<string, RouteSettings>>();
  const settingsOf = (route: ExpressRoute, method: string): RouteSettings => {
    let methods = settings.get(route);
    if (methods === undefined) {
      methods = new Map();
      settings.set(route, methods);
    }
    const name = method === 'HEAD' && route.methods.head !== true ? 'GET' : method;
    let found = methods.get(name);
    if (found === undefined) {
      let config: RouteConfig | undefined;
      const verb = name.toLowerCase();
      for (const layer of route.stack ?? []) {
        if (layer.method !== undefined && layer.method !== verb) continue;
        const marks = layer.handle as Record<symbol, unknown> | undefined;
        const table = marks?.[tableHandler] as RouteInfo | undefined;
        if (table !== undefined) {
          found = table;
          break;
        }
        config ??= marks?.[guardSettings] as RouteConfig | undefined;
      }
      found ??= host.settingsOf(name, String(route.path), config);
      methods.set(name, found);
    }
    return found;
  };

  /** Whether a layer that is not a route can be passed over without matching it. */
  const passesOver = (handle: Layer['handle']): boolean =>
    handle === undefined ||
    // Error middleware runs only for errors, after a handler failed.
    handle.length === 4 ||
    ours.has(handle) ||
    (handle as unknown as Record<symbol, unknown>)[guardSettings] !== undefined ||
    passThrough.has(handle.name) ||
    express4Own.has(handle.name);

  // Cost: one `match` per layer that could serve the request (Express runs the same), nested
  // Routers walked only when their mount path matches; the cheap tests come first.
  const collect = (
    stack: readonly Layer[],
    path: string,
    method: string,
    verb: string,
    found: Found,
  ) => {
    for (const layer of stack) {
      const { route, handle } = layer;
      let nested: RouterLike | undefined;
      if (route !== undefined) {
        if (!takes(route, verb)) continue;
      } else {
        nested = nestedRouter(handle);
        if (nested === undefined && passesOver(handle)) continue;
      }
      let result: ReturnType<Layer['match']>;
      try {
        result = layer.match(path);
      } catch {
        continue; // a parameter Express cannot decode: that layer never matches this path
      }
      if (result === false) continue;
      if (route !== undefined) {
        if (found.routes.length === 0) {
          found.params = typeof result === 'object' ? result.params : layer.params;
        }
        found.routes.push(settingsOf(route, method));
      } else if (nested !== undefined) {
        const matched = typeof result === 'object' ? result.path : (layer.path ?? '');
        const rest = path.slice(matched.length);
        if (rest === '' || rest[0] === '/') collect(nested.stack, rest || '/', method, verb, found);
      } else found.others = true;
    }
  };

  // Where `before` sits in the app's stack, found again when the stack grows: what comes before
  // it has already run.
  let stackSeen: readonly Layer[] | undefined;
  let lengthSeen = -1;
  let after: readonly Layer[] = [];
  const match = (req: Request, path: string): HostMatch => {
    const router = appRouter(req.app);
    if (router === undefined) return { routes: [], others: true };
    const { stack } = router;
    if (stack !== stackSeen || stack.length !== lengthSeen) {
      stackSeen = stack;
      lengthSeen = stack.length;
      const at = stack.findIndex((layer) => ours.has(layer.handle));
      after = at === -1 ? stack : stack.slice(at + 1);
    }
    const found: Found = { routes: [], params: undefined, others: false, checksEach: true };
    const { method } = req;
    collect(after, path, method, method.toLowerCase(), found);
    // Another route than the first could run (a handler of the first calling next()): Express
    // sets `req.route` as it enters each route, so each is checked as it is reached.
    if (found.routes.length > 1) checkEachRoute(req);
    return found;
  };
  const checkEachRoute = (req: Request) =>
    onAssign(req as Request & { route: unknown }, 'route', (route) => {
      const methods = (route as ExpressRoute | undefined)?.methods;
      if (methods !== undefined) host.admit(req, settingsOf(route as ExpressRoute, req.method));
    });
  return { match, settingsOf };
}
