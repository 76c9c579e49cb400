/**
 * One fetch host per service: the handler, middleware, guards and error handler of an app share
 * it, so that a route's settings are compiled once and its checks run once.
 */
import type { Conventions, ConventionsOptions } from 'api-conventions';
import {
  appRoutesOfEntries,
  type BoundHost,
  bindHost,
  type FetchHostOptions,
  MatchedEntries,
  type MatchedEntry,
  toConventions,
  webInput,
} from '#core';
import { honoMatches, type MatchedRequest } from './_fetch-match.ts';

export type { FetchHostOptions, RemoteAddress } from '#core';

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

/** One of the app's own routes, as Hono lists them in `app.routes`. */
export type AppRouteEntry = MatchedEntry;

/** The call a request came with: the host's context and the options of what received it. */
interface Call {
  readonly context: unknown;
  readonly options: FetchHostOptions<unknown>;
}

/** The fetch host of a service, and how to tell it about a request. */
export interface FetchBinding {
  /** The bound host. */
  readonly host: BoundHost<Request>;
  /** Hono's match lists as the binding reads them, for the middleware and the guards. */
  readonly entries: MatchedEntries<Request>;
  /** Notes the context and options `request` came with, for reading it. */
  receive(request: Request, context: unknown, options?: FetchHostOptions<unknown>): void;
  /** Reads the app's own routes from `list` (Hono: `() => app.routes`) for the route view. */
  readRoutes(list: () => readonly AppRouteEntry[]): void;
}

const hosts = new WeakMap<Conventions, FetchBinding>();
// The call is kept on the `Request` itself, as the request's context is: no side table.
const called = Symbol.for('api-conventions.fetch-call');
type Holder = { [called]?: Call };

/** The fetch host of `api`, made on first use by `where` (the function a user called). */
export function bindFetch(api: Conventions | ConventionsOptions, where: string): FetchBinding {
  const conventions = toConventions(api, where);
  let found = hosts.get(conventions);
  if (found !== undefined) return found;
  let routes: (() => readonly AppRouteEntry[]) | undefined;
  const host = bindHost<Request>(conventions, {
    appRoutes: appRoutesOfEntries(() => routes?.()),
    input: (request) => {
      const call = (request as Holder)[called];
      return webInput(request, call?.options, call?.context);
    },
    match: (request, ctx) => {
      // A table route is answered by the middleware itself: the library routes it.
      if (ctx.route !== undefined && ctx.route.app !== true) return undefined;
      const c = (request as Holder)[called]?.context as { req?: MatchedRequest } | undefined;
      return entries.match(request, honoMatches(c?.req ?? {}), ctx.method);
    },
  });
  const entries: MatchedEntries<Request> = new MatchedEntries(host);
  found = {
    host,
    entries,
    receive(request, context, options = {}) {
      (request as Holder)[called] ??= { context, options };
    },
    readRoutes(list) {
      routes = list;
    },
  };
  hosts.set(conventions, found);
  return found;
}
