/**
 * The app's own routes of a host that lists every route it has as entries (Hono's `app.routes`),
 * for the route view: read on demand, each method and path once, with its guard's settings.
 */
import type { AppRoute, RouteConfig } from '../kernel/route-types.ts';
import type { AppRouteSource } from './binding.ts';
import { markOf } from './marks.ts';
import type { MatchedEntry } from './matched-entries.ts';
import { tablePattern } from './wildcards.ts';

/**
 * The app's own routes in a host's list of every route, read on demand (`read`: Hono's
 * `() => app.routes`), as the binding's source of them for the route view: read again when the
 * list grows; entries on `ALL` and catch-alls left out, each method and path once, with its
 * guard's settings.
 *
 * @category Host binding
 */
export function appRoutesOfEntries(
  read: () => readonly MatchedEntry[] | undefined,
): AppRouteSource<unknown> {
  return { size: () => read()?.length ?? 0, list: () => routesOf(read() ?? []) };
}

function routesOf(entries: readonly MatchedEntry[]): AppRoute[] {
  const byKey = new Map<string, { method: string; pattern: string; config?: RouteConfig }>();
  for (const { method, path, handler } of entries) {
    if (method === 'ALL' || path === '*' || path === '/*') continue;
    const pattern = tablePattern(path);
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
