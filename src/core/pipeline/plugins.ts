/** Plugins checked and put in order once, at start-up: unique names, dependencies, routes. */
import { closestKey } from '../internal/options.ts';
import type { Plugin } from '../kernel/plugin.ts';
import type { RouteTable } from '../kernel/route-table.ts';

// Every member of `Plugin`, whichever of its groups declares it: the compiler holds this list to
// the interface, so a member added to a group is known here too.
const members = {
  name: true,
  dependencies: true,
  routeConfig: true,
  routes: true,
  serializers: true,
  headers: true,
  setup: true,
  onRoute: true,
  onReady: true,
  mediaTypes: true,
  authenticate: true,
  credentials: true,
  allowsAnonymous: true,
  requireIdentity: true,
  onRequest: true,
  seesEveryRequest: true,
  preParsing: true,
  preHandler: true,
  preSerialization: true,
  onSend: true,
  onReceive: true,
  onResponse: true,
  logFields: true,
} satisfies Record<keyof Plugin, true>;
const hookNames = Object.keys(members);

function checkPlugin(plugin: unknown, index: number): Plugin {
  if (
    typeof plugin !== 'object' ||
    plugin === null ||
    typeof (plugin as Plugin).name !== 'string'
  ) {
    throw new TypeError(
      `plugins[${index}] needs a \`name\`: every plugin is an object with a name.`,
    );
  }
  const { name } = plugin as Plugin;
  for (const key of Object.keys(plugin)) {
    // A plugin may carry its own state; a function named almost like a hook is a misspelt hook.
    const best = hookNames.includes(key) ? undefined : closestKey(key, hookNames);
    if (best !== undefined && typeof (plugin as Record<string, unknown>)[key] === 'function') {
      throw new TypeError(`Plugin "${name}": \`${key}\` is not a hook. Did you mean \`${best}\`?`);
    }
  }
  const every = (plugin as Plugin).seesEveryRequest;
  if (every !== undefined && typeof every !== 'boolean') {
    throw new TypeError(`Plugin "${name}": \`seesEveryRequest\` must be true or false.`);
  }
  const value = (plugin as Plugin).dependencies;
  if (value !== undefined && (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))) {
    throw new TypeError(`Plugin "${name}": \`dependencies\` must be a list of plugin names.`);
  }
  return plugin as Plugin;
}

/**
 * Checks the plugins and orders them: each runs after its `dependencies`, otherwise in the order
 * given (phases, not names, order the rest: identity is set in `authenticate`, before every check). A missing dependency, a repeated name or a
 * cycle is a `TypeError` that names the plugins.
 *
 * @category Plugins and pipeline
 */
export function orderPlugins(plugins: unknown): Plugin[] {
  if (plugins === undefined) return [];
  if (!Array.isArray(plugins)) {
    throw new TypeError('`plugins` must be an array of plugins, e.g. plugins: [cors(), limits()].');
  }
  const list = plugins.map(checkPlugin);
  const byName = new Map<string, Plugin>();
  for (const plugin of list) {
    if (byName.has(plugin.name)) {
      throw new TypeError(
        `Two plugins are named "${plugin.name}"; names are unique, so register each plugin once.`,
      );
    }
    byName.set(plugin.name, plugin);
  }
  // after.get(x): the plugins that must run before x.
  const after = new Map<string, Set<string>>(list.map((p) => [p.name, new Set<string>()]));
  for (const plugin of list) {
    for (const needed of plugin.dependencies ?? []) {
      if (!byName.has(needed)) {
        throw new TypeError(
          `Plugin "${plugin.name}" needs the plugin "${needed}"; add it to \`plugins\`.`,
        );
      }
      after.get(plugin.name)!.add(needed);
    }
  }
  // Each plugin is placed right after what it waits for, pulled forward as late as possible, so
  // the order given holds wherever no constraint says otherwise.
  const ordered: Plugin[] = [];
  const placed = new Set<string>();
  const visiting: string[] = [];
  const place = (plugin: Plugin) => {
    if (placed.has(plugin.name)) return;
    if (visiting.includes(plugin.name)) {
      const loop = visiting.slice(visiting.indexOf(plugin.name)).sort();
      throw new TypeError(
        `The plugins ${loop.map((n) => `"${n}"`).join(', ')} wait for each other (their dependencies form a cycle).`,
      );
    }
    visiting.push(plugin.name);
    for (const name of after.get(plugin.name)!) place(byName.get(name)!);
    visiting.pop();
    placed.add(plugin.name);
    ordered.push(plugin);
  };
  for (const plugin of list) place(plugin);
  return ordered;
}

const tableOwner = 'the route table';

/** A route definition's handler: the definition itself, or its `handler`. */
const handlerOf = (definition: unknown): unknown =>
  typeof definition === 'function'
    ? definition
    : (definition as { handler?: unknown } | undefined)?.handler;

/**
 * The service's routes with those the plugins contribute. A plugin route on a path and method
 * the service or another plugin already serves is a `TypeError` naming both, unless the route
 * table holds that very route (its handler), spread from the plugin: the table's settings win.
 *
 * @category Plugins and pipeline
 */
export function mergeRoutes(own: RouteTable | undefined, plugins: readonly Plugin[]): RouteTable {
  // A table that is not an object is left for the router to refuse with its own message.
  if (
    !plugins.some((p) => p.routes) ||
    (own !== undefined && (typeof own !== 'object' || own === null))
  ) {
    return own ?? {};
  }
  const merged: Record<string, Record<string, unknown>> = {};
  const owner = new Map<string, string>();
  const add = (table: RouteTable, who: string) => {
    for (const [pattern, methods] of Object.entries(table)) {
      merged[pattern] ??= {};
      const into = merged[pattern];
      if (typeof methods !== 'object' || methods === null) {
        merged[pattern] = methods as never;
        continue;
      }
      for (const [method, handler] of Object.entries(methods)) {
        const key = `${method} ${pattern}`;
        if (owner.has(key)) {
          // The plugin's own route, spread into the table (to give it settings): the table's.
          const same = handlerOf(handler);
          if (
            owner.get(key) === tableOwner &&
            typeof same === 'function' &&
            handlerOf(into[method]) === same
          ) {
            continue;
          }
          throw new TypeError(`${who} declares ${key}, which ${owner.get(key)} already serves.`);
        }
        owner.set(key, who);
        into[method] = handler;
      }
    }
  };
  if (own !== undefined) add(own, tableOwner);
  for (const plugin of plugins) if (plugin.routes) add(plugin.routes, `Plugin "${plugin.name}"`);
  return merged as RouteTable;
}
