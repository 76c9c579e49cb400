/**
 * What Hono will run for a request, read from Hono's own match before it runs: the entries after
 * the conventions' middleware (`c.req.matchedRoutes`, in Hono's order), each route with its
 * guard's settings, and whether middleware the library cannot read (`app.use`, `app.all`,
 * `app.mount`) could answer it instead.
 */
import type { RouteConfig, RouteSettings } from 'api-conventions';
import { type BoundHost, type HostMatch, markOf } from 'api-conventions/host';
import { onAssign } from './_on-assign.ts';

/** One entry of Hono's match: a handler or middleware on a method and path. */
export interface MatchedRoute {
  /** The method, upper-case; `ALL` for middleware and `app.all`. */
  readonly method: string;
  /** The path pattern the handler was declared on. */
  readonly path: string;
  /** The handler or middleware. */
  readonly handler: unknown;
}

/** What the middleware reads of a Hono request. */
export interface MatchedRequest {
  /** Hono's match for the request, in the order it runs the entries. */
  readonly matchedRoutes?: readonly MatchedRoute[];
  /** The index of the entry that runs now. */
  routeIndex?: number;
  /** The decoded path parameters of the entry at `routeIndex`. */
  param?(): Record<string, string>;
}

/** The binding's `match` for Hono, and the settings of the route a guard runs on. */
export interface HonoMatcher {
  /** What Hono will run for the request (its `method`) after the entry at its `routeIndex`. */
  match(req: MatchedRequest, method: string): HostMatch;
  /** The settings of the route at the request's `routeIndex` (the guard's own). */
  settingsAt(req: MatchedRequest, method: string): RouteSettings;
}

/** Builds the Hono matcher; each route's settings are compiled the first time it is met. */
export function honoMatcher(host: BoundHost<Request>): HonoMatcher {
  // By the guard's settings (or the path without one), then by method and path: a guard may
  // stand on several routes, and a path on routes with different guards.
  const settingsOf = (method: string, path: string, config: RouteConfig | undefined) =>
    host.settingsFor(config ?? path, method, path.replace(/\/\*$/, '/*rest'), () => config);
  /** The entries of the route that holds entry `at`: one method and path, declared together. */
  const routeAround = (routes: readonly MatchedRoute[], at: number, floor: number) => {
    const { method, path } = routes[at]!;
    const same = (i: number) => routes[i]!.method === method && routes[i]!.path === path;
    let start = at;
    while (start > floor && same(start - 1)) start--;
    let end = at + 1;
    while (end < routes.length && same(end)) end++;
    let config: RouteConfig | undefined;
    let handlers = 0;
    for (let i = start; i < end; i++) {
      const mark = markOf(routes[i]!.handler);
      if (mark?.guard !== undefined) config ??= mark.guard;
      else if (mark === undefined) handlers++;
    }
    return { start, end, config, handlers };
  };
  let probing = false;
  const paramsAt = (req: MatchedRequest, index: number) => {
    const current = req.routeIndex;
    probing = true;
    req.routeIndex = index;
    try {
      return req.param?.();
    } finally {
      req.routeIndex = current;
      probing = false;
    }
  };

  const match = (req: MatchedRequest, method: string): HostMatch => {
    const routes = req.matchedRoutes;
    const index = req.routeIndex;
    // Without Hono's match the library cannot know what runs: fail closed.
    if (!Array.isArray(routes) || typeof index !== 'number') return { routes: [], others: true };
    const found: RouteSettings[] = [];
    let params: Record<string, string> | undefined;
    let others = false;
    // What each entry Hono will run needs: a route's settings, or, for middleware, whether an open
    // route lies ahead of it (what a caller without credentials may pass it on the way to).
    const plan = new Map<number, RouteSettings | boolean>();
    const middleware: number[] = [];
    for (let i = index + 1; i < routes.length; ) {
      const entry = routes[i]!;
      const route = routeAround(routes, i, index + 1);
      if (route.handlers > 0) {
        if (entry.method === 'ALL' && route.config === undefined) {
          middleware.push(i);
        } else {
          if (found.length === 0) params = paramsAt(req, route.end - 1);
          const on = entry.method === 'ALL' ? method : entry.method;
          const settings = settingsOf(on, entry.path, route.config);
          found.push(settings);
          for (let j = i; j < route.end; j++) plan.set(j, settings);
        }
      }
      i = route.end;
    }
    if (middleware.length > 0) {
      let open = false;
      let at = routes.length - 1;
      for (let m = middleware.length - 1; m >= 0; m--) {
        const entry = middleware[m]!;
        for (; at > entry; at--) {
          const step = plan.get(at);
          if (typeof step === 'object' && host.opens(step)) open = true;
        }
        plan.set(entry, open);
        if (!open) others = true;
      }
    }
    if (found.length > 1 || (others && found.length > 0)) checkEachEntry(req, plan);
    return { routes: found, params, others, checksEach: true };
  };

  /**
   * Hono sets `c.req.routeIndex` as it enters each entry: an entry after the first route is
   * checked as it is reached. Middleware the library cannot read runs for a caller without
   * credentials only on its way to a route ahead of it that lets one through.
   */
  const checkEachEntry = (
    req: MatchedRequest,
    plan: ReadonlyMap<number, RouteSettings | boolean>,
  ) => {
    const request = (req as { raw?: Request }).raw;
    if (request === undefined) return;
    onAssign(req, 'routeIndex', (index) => {
      if (probing || index === undefined) return;
      const step = plan.get(index);
      if (step === false) host.admit(request, undefined);
      else if (typeof step === 'object') host.admit(request, step);
    });
  };

  const settingsAt = (req: MatchedRequest, method: string): RouteSettings => {
    const routes = req.matchedRoutes ?? [];
    const at = req.routeIndex ?? 0;
    const entry = routes[at];
    if (entry === undefined) return settingsOf(method, '(unknown)', undefined);
    const { config } = routeAround(routes, at, 0);
    return settingsOf(entry.method === 'ALL' ? method : entry.method, entry.path, config);
  };

  return { match, settingsAt };
}
