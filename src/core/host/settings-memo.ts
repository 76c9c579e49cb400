/**
 * The binding's memo of route settings, keyed by what the host dispatched (Express's route,
 * Fastify's route config, a Hono guard's settings or its path), then by method and pattern: each
 * compiled the first time it is met, and again when the host's version of the route changes.
 */

import type { RouteSettings } from '../kernel/route-types.ts';

/** Route settings compiled for what a host dispatched, and the version they were read at. */
interface Compiled {
  readonly settings: RouteSettings;
  readonly version: number;
}

/** Route settings by what the host dispatched, then by method and pattern (`at`). */
export class SettingsMemo {
  private readonly byKey = new WeakMap<object, Map<string, Compiled>>();
  private readonly byPath = new Map<string, Map<string, Compiled>>();

  /** The settings kept for `key` at `at` in `version`, or those `compile` gives, kept. */
  get(
    key: object | string,
    at: string,
    version: number,
    compile: () => RouteSettings,
  ): RouteSettings {
    let routes = typeof key === 'string' ? this.byPath.get(key) : this.byKey.get(key);
    if (routes === undefined) {
      routes = new Map();
      if (typeof key === 'string') this.byPath.set(key, routes);
      else this.byKey.set(key, routes);
    }
    const known = routes.get(at);
    if (known !== undefined && known.version === version) return known.settings;
    const settings = compile();
    routes.set(at, { settings, version });
    return settings;
  }
}
