/**
 * The route view: the table's routes and the app's own, compiled into one router, so that every
 * request has the methods of its path (`Allow`, 405, OPTIONS, CORS preflights) on every host
 * (CONTRIBUTING.md, "Fail closed, where the host enters").
 */

import type { RouteDefinition, RouteInfo } from '../kernel/route-table.ts';
import type { AppRoute, AppRouteSchemas } from '../kernel/route-types.ts';
import { allowList, compileEntry, type PathEntry } from './compile-entry.ts';
import { Router } from './router.ts';

/** What the app answers itself: never called, since the core hands such a route back. */
const appHandler = (): never => {
  throw new TypeError(
    "One of the app's own routes was run by the core; the app answers it itself.",
  );
};

const declarable = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

/**
 * The table's router with the app's routes added: a method the table already serves on a
 * pattern stays the table's; a route the view cannot hold (a pattern the table's syntax cannot
 * read, a method outside the spec's table, settings no plugin declared) is left out and named
 * through `warn`, since the core can then neither authenticate nor limit it.
 *
 * @category Routing
 */
export function compileView(
  table: Router,
  app: readonly AppRoute[],
  configKeys: readonly string[],
  warn: (route: AppRoute, why: string) => void,
): Router {
  const byPattern = new Map<string, Record<string, RouteDefinition>>();
  const taken = new Set(table.routes.map((r) => `${r.method} ${r.pattern}`));
  // What the host declares of a route (its JSON Schemas), kept on the view's route for the document.
  const schemas = new Map<string, AppRouteSchemas>();
  for (const route of app) {
    const { method, pattern } = route;
    if (taken.has(`${method} ${pattern}`)) continue;
    if (!declarable.has(method)) {
      warn(route, `${method} is not a method of the spec's table`);
      continue;
    }
    const one = { [method]: { handler: appHandler, config: route.config ?? {} } };
    try {
      compileEntry(pattern, one, configKeys);
    } catch (error) {
      warn(route, (error as Error).message);
      continue;
    }
    taken.add(`${method} ${pattern}`);
    if (route.schemas !== undefined) schemas.set(`${method} ${pattern}`, route.schemas);
    let methods = byPattern.get(pattern);
    if (methods === undefined) {
      methods = {};
      byPattern.set(pattern, methods);
    }
    methods[method] = one[method]!;
  }
  if (byPattern.size === 0) return table;
  const entries: PathEntry[] = [];
  const tableEntries = new Map(table.entries.map((e) => [e.pattern, e]));
  for (const entry of table.entries) {
    const extra = byPattern.get(entry.pattern);
    entries.push(extra === undefined ? entry : merged(entry, extra, configKeys, schemas));
    byPattern.delete(entry.pattern);
  }
  for (const [pattern, methods] of byPattern) {
    if (tableEntries.has(pattern)) continue;
    entries.push(appEntry(compileEntry(pattern, methods, configKeys), schemas));
  }
  return Router.of(entries);
}

/** An app path's routes, marked as the app's, with the schemas their host declares. */
function appEntry(entry: PathEntry, schemas: ReadonlyMap<string, AppRouteSchemas>): PathEntry {
  const methods = new Map<string, RouteInfo>();
  for (const [method, info] of entry.methods) {
    const own = schemas.get(`${method} ${entry.pattern}`);
    methods.set(
      method,
      Object.freeze({
        ...info,
        app: true as const,
        ...(own === undefined ? {} : { schemas: own }),
      }),
    );
  }
  return { ...entry, methods };
}

/** A table path with the app's methods on the same pattern beside its own. */
function merged(
  entry: PathEntry,
  extra: Record<string, RouteDefinition>,
  configKeys: readonly string[],
  schemas: ReadonlyMap<string, AppRouteSchemas>,
): PathEntry {
  const own = appEntry(compileEntry(entry.pattern, extra, configKeys), schemas);
  const methods = new Map(entry.methods);
  for (const [method, info] of own.methods) if (!methods.has(method)) methods.set(method, info);
  return { ...entry, methods, allow: allowList(methods.keys()) };
}
