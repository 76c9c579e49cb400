/**
 * A host whose router lists, in order, every entry it will run for a request (Hono's
 * `c.req.matchedRoutes`): what those entries are to the conventions — the routes among them with
 * their settings, read through the marks on their handlers and compiled once, and the middleware
 * the library cannot read, each with whether an open route lies ahead of it. The adapter reads
 * the list from its host; the decisions on it are taken here.
 */
import type { RouteConfig, RouteSettings } from '../kernel/route-types.ts';
import type { HostMatch } from '../pipeline/fail-closed.ts';
import type { BoundHost } from './bind-host.ts';
import { markOf } from './marks.ts';
import { tablePattern } from './wildcards.ts';

/**
 * One entry of a host's match list: a handler or a piece of middleware on a method and a path.
 * An entry on the method `ALL` serves every method (middleware, `app.all`).
 *
 * @category Host binding
 */
export interface MatchedEntry {
  /** The method, upper-case, or `ALL`. */
  readonly method: string;
  /** The path pattern it was declared on; a trailing `/*` is a wildcard. */
  readonly path: string;
  /** The handler or middleware. */
  readonly handler?: unknown;
}

/**
 * A host's match list for one request, as the adapter reads it from its host (Hono:
 * `c.req.matchedRoutes` and `c.req.routeIndex`).
 *
 * @category Host binding
 */
export interface MatchList {
  /** Every entry the host runs for the request, in its order; `undefined` where it gave none. */
  readonly entries: readonly MatchedEntry[] | undefined;
  /** The index of the entry that runs now: the conventions' own middleware. */
  readonly current: number | undefined;
  /** The decoded path parameters of the entry at `index`, read without entering it. */
  paramsAt(index: number): Readonly<Record<string, string>> | undefined;
  /** Calls `then` with the index of each entry the host enters from now on. */
  onEnter(then: (index: number) => void): void;
}

/** What the entries after the conventions' own middleware hold for one request. */
interface EntriesAhead {
  /** The settings of each route among them, in the order the host runs them. */
  readonly routes: readonly RouteSettings[];
  /** The index of the first route's last entry (its handler, where its parameters are read), or -1. */
  readonly firstRoute: number;
  /** Whether middleware the library cannot read, with no open route behind it, could answer. */
  readonly others: boolean;
  /**
   * Whether each entry must be checked as the host enters it ({@link EntriesAhead.enter}): more
   * than one route could answer, or middleware beside a route.
   */
  readonly eachEntry: boolean;
  /**
   * The check as the host enters the entry at `index`: a route's, or, for middleware, a caller
   * without credentials passes only on the way to an open route. Throws the refusal.
   */
  enter(index: number): void;
}

/** The entries of the route that holds entry `at`: one method and path, declared together. */
function routeAround(entries: readonly MatchedEntry[], at: number, floor: number) {
  const { method, path } = entries[at]!;
  const same = (i: number) => entries[i]!.method === method && entries[i]!.path === path;
  let start = at;
  while (start > floor && same(start - 1)) start--;
  let end = at + 1;
  while (end < entries.length && same(end)) end++;
  let config: RouteConfig | undefined;
  let handlers = 0;
  for (let i = start; i < end; i++) {
    const mark = markOf(entries[i]!.handler);
    if (mark?.guard !== undefined) config ??= mark.guard;
    else if (mark === undefined) handlers++;
  }
  return { end, config, handlers };
}

/**
 * Reads a host's match lists for a binding: each route's settings compiled the first time they
 * are met, by its guard's settings (or its path without one), then by method and path, since a
 * guard may stand on several routes and a path on routes with different guards.
 *
 * @category Host binding
 */
export class MatchedEntries<Native extends object> {
  /** Reads through `host`: its settings memo, what it lets through, its check as entries are entered. */
  constructor(private readonly host: Pick<BoundHost<Native>, 'settingsFor' | 'opens' | 'admit'>) {}

  private settingsOf(method: string, path: string, config: RouteConfig | undefined) {
    return this.host.settingsFor(config ?? path, method, tablePattern(path), () => config);
  }

  /**
   * What the host will run for `native` (its method `method`) after the entry that runs now, read
   * from its match list: the routes with their settings, the first one's parameters, and the
   * middleware the library cannot read; each entry is checked as the host enters it where more
   * than one of them could answer. Without a list the library cannot know what runs: closed.
   */
  match(native: Native, list: MatchList, method: string): HostMatch {
    const { entries, current } = list;
    if (!Array.isArray(entries) || typeof current !== 'number') return { routes: [], others: true };
    const ahead = this.ahead(native, entries, current + 1, method);
    const params = ahead.firstRoute === -1 ? undefined : list.paramsAt(ahead.firstRoute);
    if (ahead.eachEntry) list.onEnter((index) => ahead.enter(index));
    return { routes: ahead.routes, params, others: ahead.others, checksEach: true };
  }

  /**
   * What the host will run for `native` (its method `method`) from entry `from` on. A route is
   * the entries of one method and path with a handler the library did not write; an entry on
   * `ALL` without a guard is middleware the library cannot read.
   */
  private ahead(
    native: Native,
    entries: readonly MatchedEntry[],
    from: number,
    method: string,
  ): EntriesAhead {
    const routes: RouteSettings[] = [];
    let firstRoute = -1;
    // What each entry needs: a route's settings, or, for middleware, whether an open route lies
    // ahead of it (what a caller without credentials may pass it on the way to).
    const plan = new Map<number, RouteSettings | boolean>();
    const middleware: number[] = [];
    for (let i = from; i < entries.length; ) {
      const entry = entries[i]!;
      const route = routeAround(entries, i, from);
      if (route.handlers > 0) {
        if (entry.method === 'ALL' && route.config === undefined) middleware.push(i);
        else {
          if (firstRoute === -1) firstRoute = route.end - 1;
          const on = entry.method === 'ALL' ? method : entry.method;
          const settings = this.settingsOf(on, entry.path, route.config);
          routes.push(settings);
          for (let j = i; j < route.end; j++) plan.set(j, settings);
        }
      }
      i = route.end;
    }
    let others = false;
    let open = false;
    let at = entries.length - 1;
    for (let m = middleware.length - 1; m >= 0; m--) {
      const entry = middleware[m]!;
      for (; at > entry; at--) {
        const step = plan.get(at);
        if (typeof step === 'object' && this.host.opens(step)) open = true;
      }
      plan.set(entry, open);
      if (!open) others = true;
    }
    const { host } = this;
    return {
      routes,
      firstRoute,
      others,
      eachEntry: routes.length > 1 || (others && routes.length > 0),
      enter(index) {
        const step = plan.get(index);
        if (step === false) host.admit(native, undefined);
        else if (typeof step === 'object') host.admit(native, step);
      },
    };
  }

  /** The settings of the route that holds the entry running now (a guard's own), for `method`. */
  settingsAt(list: MatchList, method: string): RouteSettings {
    const { entries = [], current: at = 0 } = list;
    const entry = entries[at];
    if (entry === undefined) return this.settingsOf(method, '(unknown)', undefined);
    const { config } = routeAround(entries, at, 0);
    return this.settingsOf(entry.method === 'ALL' ? method : entry.method, entry.path, config);
  }
}
