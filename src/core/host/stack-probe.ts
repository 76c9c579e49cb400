/**
 * How a host's router is read for the check points and the route view (`StackProbe`): each layer
 * of a stack is a route, a nested router or middleware. The adapter says how to tell them apart;
 * the routes it lists and the settings it finds on them are read here, the same for every host.
 */
import type { AppRoute, RouteConfig, RouteSettings } from '../kernel/route-types.ts';
import { markOf } from './marks.ts';

/**
 * A handler of one of the host's routes: the function itself, or an entry that holds it with the
 * method it serves (`undefined`: every method).
 *
 * @category Host binding
 */
export type RouteHandler =
  | ((...args: never[]) => unknown)
  | {
      /** The handler the layer runs. */
      readonly handle?: unknown;
      /** The method it runs for, lower-case; every method when absent. */
      readonly method?: string | undefined;
    };

/**
 * What the check points read of a host's router: each layer of a stack is a route, a nested
 * router or middleware. The adapter's router probe, with no decision in it.
 *
 * @category Host binding
 */
export interface StackProbe<Native, Layer, Route> {
  /** The route a layer holds, or `undefined` when it is not a route. */
  route(layer: Layer): Route | undefined;
  /** The stack of the router a layer dispatches to (read through wrappers), or `undefined`. */
  router(layer: Layer): Layer[] | undefined;
  /**
   * The start of `path` a layer matches (all of it for a route, a router's mount path, `''` for
   * one on every path), or `undefined` when it does not match. A throw is taken as no match.
   */
  match(layer: Layer, path: string): string | undefined;
  /** The literal path a router's layer is mounted on (`''` at the root); anything else is unreadable. */
  mount(layer: Layer): unknown;
  /** The methods a route declares, upper-case (`ALL` for every method). */
  methods(route: Route): readonly string[];
  /** The path a route was declared on (a string, a list or a RegExp, as the host keeps it). */
  pattern(route: Route): unknown;
  /** The route's handlers, in order; their marks carry a guard's settings or a table route. */
  handlers(route: Route): readonly RouteHandler[];
  /** The request's method, upper-case. */
  method(native: Native): string;
  /** The request's path as the host routes it at the top of its stack. */
  path(native: Native): string;
}

/** Whether methods declared on a route take `method` (HEAD is served by GET's handlers). */
export function takes(methods: readonly string[], method: string): boolean {
  return (
    methods.includes(method) ||
    methods.includes('ALL') ||
    (method === 'HEAD' && methods.includes('GET'))
  );
}

/** A route's table route, or the first guard's settings, among its handlers for `method`. */
export function readMarks(
  handlers: readonly RouteHandler[],
  method: string,
): RouteConfig | { table: RouteSettings } | undefined {
  let config: RouteConfig | undefined;
  for (const entry of handlers) {
    let handle: unknown = entry;
    if (typeof entry !== 'function') {
      if (entry.method !== undefined && entry.method.toUpperCase() !== method) continue;
      handle = entry.handle;
    }
    const mark = markOf(handle);
    if (mark?.table !== undefined) return { table: mark.table };
    config ??= mark?.guard;
  }
  return config;
}

/**
 * The routes of a stack, nested routers on literal paths included, as plain data for the route
 * view: table routes (mounted by the adapter) are left out, and a guard gives a route its
 * settings. What the view cannot hold (a RegExp path, a router mounted on a pattern) is passed to
 * `skip`.
 *
 * @category Host binding
 */
export function listRoutes<Layer, Route>(
  probe: StackProbe<never, Layer, Route>,
  stack: readonly Layer[],
  skip: (what: string) => void,
  prefix = '',
  out: AppRoute[] = [],
): AppRoute[] {
  for (const layer of stack) {
    const route = probe.route(layer);
    if (route === undefined) {
      const nested = probe.router(layer);
      if (nested === undefined) continue;
      const mount = probe.mount(layer);
      if (typeof mount === 'string') listRoutes(probe, nested, skip, prefix + mount, out);
      else skip(`a Router mounted on ${String(mount)}`);
      continue;
    }
    const methods = probe.methods(route);
    for (const path of [probe.pattern(route)].flat()) {
      if (typeof path !== 'string') {
        skip(`a route on ${String(path)} (a RegExp path)`);
        continue;
      }
      // A router's own root (`router.get('/')`) is its mount path itself.
      const pattern = path === '/' && prefix !== '' ? prefix : prefix + path;
      for (const method of methods) {
        // The view serves HEAD with GET itself.
        if (method === 'ALL' || (method === 'HEAD' && methods.includes('GET'))) continue;
        const config = readMarks(probe.handlers(route), method);
        if (config !== undefined && 'table' in config) continue;
        out.push({ method, pattern, config });
      }
    }
  }
  return out;
}
