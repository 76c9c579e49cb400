/**
 * One fetch host per service: the middleware, guards, catch-all handler and error handler of an
 * app share it, so that a route's settings are compiled once and its checks run once.
 */
import type { Conventions, ConventionsOptions, RouteConfig } from 'api-conventions';
import {
  type AppRoute,
  type BoundHost,
  bindHost,
  markOf,
  toConventions,
} from 'api-conventions/host';
import { type FetchHostOptions, inputOf } from './_fetch-io.ts';
import { type HonoMatcher, honoMatcher, type MatchedRequest } from './_fetch-match.ts';

/** A Hono-style context, as far as the adapter reads it. */
export interface FetchContext {
  /** The host's request wrapper. */
  req: {
    /** The Web-standard `Request`. */
    raw: Request;
  };
  /** The response the app's routes gave, which the middleware may replace. */
  res: Response;
}

/** The call a request came with: the host's context and the options of what received it. */
interface Call {
  context: unknown;
  options: FetchHostOptions<unknown>;
}

/** The fetch host of a service, and how to tell it about a request. */
export interface FetchHost {
  /** The bound host. */
  readonly host: BoundHost<Request>;
  /** Hono's match, read for the middleware and the guards. */
  readonly matcher: HonoMatcher;
  /** Notes the context and options `request` came with, for reading it. */
  receive(request: Request, context: unknown, options: FetchHostOptions<unknown>): void;
  /** Reads the app's own routes from `list` (Hono: `() => app.routes`) for the route view. */
  readRoutes(list: () => readonly AppRouteEntry[]): void;
}

/** One of the app's own routes, as Hono lists them in `app.routes`. */
export interface AppRouteEntry {
  /** The method, upper-case; `ALL` (middleware and catch-alls) is not a method a path offers. */
  readonly method: string;
  /** The path pattern (`/v1/health`, `/v1/things/:id`). */
  readonly path: string;
  /** The handler or middleware; a guard among a route's carries its settings. */
  readonly handler?: unknown;
}

/** Hono's routes as the core's app routes: `ALL` skipped, a trailing `*` named, guards' settings. */
function toAppRoutes(routes: readonly AppRouteEntry[]): AppRoute[] {
  const byKey = new Map<string, { method: string; pattern: string; config?: RouteConfig }>();
  for (const { method, path, handler } of routes) {
    if (method === 'ALL' || path === '*' || path === '/*') continue;
    const pattern = path.replace(/\/\*$/, '/*rest');
    const key = `${method} ${pattern}`;
    let route = byKey.get(key);
    if (route === undefined) {
      route = { method, pattern };
      byKey.set(key, route);
    }
    const config = markOf(handler)?.guard;
    if (config !== undefined) route.config = config;
  }
  return [...byKey.values()];
}

const hosts = new WeakMap<Conventions, FetchHost>();
const called = Symbol.for('api-conventions.fetch-call');
const noOptions: FetchHostOptions<unknown> = {};

/** The fetch host of `api`, made on first use. */
export function fetchHost(api: Conventions | ConventionsOptions): FetchHost {
  const conventions = toConventions(api);
  let found = hosts.get(conventions);
  if (found !== undefined) return found;
  // The call is kept on the `Request` itself, as the request's context is: one property, no
  // side table to look up.
  const callOf = (request: Request) =>
    (request as unknown as Record<symbol, Call | undefined>)[called];
  let matcher: HonoMatcher | undefined;
  let routes: (() => readonly AppRouteEntry[]) | undefined;
  const host = bindHost<Request>(conventions, {
    appRoutes: {
      size: () => routes?.().length ?? 0,
      list: () => toAppRoutes(routes?.() ?? []),
    },
    input: (request) => {
      const call = callOf(request);
      const options = call?.options ?? noOptions;
      return inputOf(
        request,
        call?.context,
        options.remoteAddress,
        options.readingBody,
        options.decodeBody,
      );
    },
    match: (request, ctx) => {
      // A table route is answered by the middleware itself: the library routes it.
      if (ctx.route !== undefined && ctx.route.app !== true) return undefined;
      const c = callOf(request)?.context as { req?: MatchedRequest } | undefined;
      return matcher!.match(c?.req ?? {}, ctx.method);
    },
  });
  matcher = honoMatcher(host);
  found = {
    host,
    matcher,
    receive(request, context, options) {
      const holder = request as unknown as Record<symbol, Call | undefined>;
      holder[called] ??= { context, options };
    },
    readRoutes(list) {
      routes = list;
    },
  };
  hosts.set(conventions, found);
  return found;
}
