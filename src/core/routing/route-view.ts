/**
 * The route view: the table's routes and the host's own, compiled into one router, so that every
 * request is matched once, before pre-routing, on every host (CONTRIBUTING.md, "One route view").
 */
import { allowList, compileEntry, type PathEntry } from './compile-entry.ts';
import { Router } from './router.ts';
import type { RouteDefinition, RouteInfo } from './table.ts';
import type { HostRoute } from './types.ts';

/** What the host answers itself: never called, since the core hands such a route back. */
const hostHandler = (): never => {
  throw new TypeError('A host route was run by the core; the host answers it itself.');
};

const declarable = new Set(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS']);

/**
 * The table's router with the host's routes added: a method the table already serves on a
 * pattern stays the table's; a route the view cannot hold (a pattern the table's syntax cannot
 * read, a method outside the spec's table, settings no plugin declared) is left out and named
 * through `warn`, since the core can then neither authenticate nor limit it.
 *
 * @category Routing
 */
export function compileView(
  table: Router,
  host: readonly HostRoute[],
  configKeys: readonly string[],
  warn: (route: HostRoute, why: string) => void,
): Router {
  const byPattern = new Map<string, Record<string, RouteDefinition>>();
  const taken = new Set(table.routes.map((r) => `${r.method} ${r.pattern}`));
  for (const route of host) {
    const { method, pattern } = route;
    if (taken.has(`${method} ${pattern}`)) continue;
    if (!declarable.has(method)) {
      warn(route, `${method} is not a method of the spec's table`);
      continue;
    }
    const one = { [method]: { handler: hostHandler, config: route.config ?? {} } };
    try {
      compileEntry(pattern, one, configKeys);
    } catch (error) {
      warn(route, (error as Error).message);
      continue;
    }
    taken.add(`${method} ${pattern}`);
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
    entries.push(extra === undefined ? entry : merged(entry, extra, configKeys));
    byPattern.delete(entry.pattern);
  }
  for (const [pattern, methods] of byPattern) {
    if (tableEntries.has(pattern)) continue;
    entries.push(hostEntry(compileEntry(pattern, methods, configKeys)));
  }
  return Router.of(entries);
}

/** A host path's routes, marked as the host's. */
function hostEntry(entry: PathEntry): PathEntry {
  const methods = new Map<string, RouteInfo>();
  for (const [method, info] of entry.methods) {
    methods.set(method, Object.freeze({ ...info, host: true as const }));
  }
  return { ...entry, methods };
}

/** A table path with the host's methods on the same pattern beside its own. */
function merged(
  entry: PathEntry,
  extra: Record<string, RouteDefinition>,
  configKeys: readonly string[],
): PathEntry {
  const host = hostEntry(compileEntry(entry.pattern, extra, configKeys));
  const methods = new Map(entry.methods);
  for (const [method, info] of host.methods) if (!methods.has(method)) methods.set(method, info);
  return { ...entry, methods, allow: allowList(methods.keys()) };
}
