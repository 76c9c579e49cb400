/**
 * The app's own routes on a host that declares them one by one and dispatches each with a config
 * of its own (Fastify's `onRoute`, then `request.routeOptions.config`). Their settings are
 * compiled when the app is ready, and found, as a request comes, by a key the dispatched route
 * carries: never by its method and path, so that twins that differ by a constraint alone (a
 * version, a host) each keep their own.
 */
import type { LintRoute } from '../lint/index.ts';
import type { AppRoute, RouteConfig, RouteSettings } from '../routing/types.ts';
import type { BoundHost } from './bind-host.ts';
import { routeSchemasOf } from './route-schemas.ts';
import { tablePattern } from './wildcards.ts';

/**
 * One of the app's routes as its host declared it.
 *
 * @category Host binding
 */
export interface DeclaredRoute {
  /** What the route carries to its dispatch (in its config), by which its settings are found. */
  readonly key: object;
  /** The method it serves, or its methods. */
  readonly method: string | readonly string[];
  /** Its path, in the host's syntax (a trailing catch-all `*`). */
  readonly url: string;
  /** Its settings, as they are once every plugin of the app saw the route. */
  readonly config?: RouteConfig | undefined;
  /** Its route schema, in the shape Fastify gives ({@link routeSchemasOf}). */
  readonly schema?: unknown;
}

/**
 * One of the app's routes as its host dispatched it.
 *
 * @category Host binding
 */
export interface DispatchedRoute {
  /**
   * The key it was declared with ({@link DeclaredRoute.key}), or, for a route declared before the
   * conventions were registered, an object the host keeps for that route alone (its config).
   */
  readonly key: object;
  /** The method it was dispatched for. */
  readonly method: string;
  /** Its path, in the host's syntax. */
  readonly url: string;
  /** Its settings, as the dispatched route carries them. */
  readonly config: RouteConfig | undefined;
}

/**
 * Hands the app's routes to the binding once the app is ready: each route's settings checked and
 * compiled (a misspelt key is a `TypeError` then), its path linted (findings are warnings), and
 * the routes given to the route view. `shared` are the schemas a route's schema refers to by
 * `$id` (`fastify.addSchema`).
 *
 * @category Host binding
 */
export function useDeclaredRoutes(
  host: BoundHost<object>,
  routes: readonly DeclaredRoute[],
  shared: Readonly<Record<string, unknown>> = {},
): void {
  const lint: LintRoute[] = [];
  const view: AppRoute[] = [];
  for (const route of routes) {
    const { config, key } = route;
    declaredKeys.add(key);
    const pattern = tablePattern(route.url);
    const schemas = routeSchemasOf(route.schema, shared);
    for (const method of [route.method].flat()) {
      host.settingsFor(key, method, pattern, () => config);
      if (method !== 'HEAD') lint.push({ method, path: pattern });
      view.push({ method, pattern, config, schemas });
    }
  }
  host.lint(lint);
  host.useAppRoutes(view);
}

// The keys of the routes handed over as declared, of every binding: each is a route's own.
const declaredKeys = new WeakSet<object>();
const warned = new WeakMap<object, Set<string>>();

/**
 * The settings of the app's route the host dispatched, compiled the first time it is met. A route
 * whose key was not handed over by {@link useDeclaredRoutes} (one declared before `registration`,
 * the call that registers the conventions on the app) still has its checks run, on the settings
 * it carries; its path is linted and it is named in a warning, once, with what to change.
 *
 * @category Host binding
 */
export function dispatchedSettings(
  host: BoundHost<object>,
  route: DispatchedRoute,
  registration: string,
): RouteSettings {
  const { key, method, url } = route;
  const pattern = tablePattern(url);
  return host.settingsFor(key, method, pattern, () => {
    if (declaredKeys.has(key)) return route.config;
    const seen = warned.get(host) ?? new Set<string>();
    warned.set(host, seen);
    if (!seen.has(url)) {
      seen.add(url);
      host.lint([{ method, path: pattern }]);
      host.logger.warn(
        `The app's own route ${method} ${url} was declared before ${registration} was registered: the conventions find it only at its first request (now). It is checked, but what it returns does not go through the response phases. Register ${registration} first.`,
      );
    }
    return route.config;
  });
}
