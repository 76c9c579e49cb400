/** Compiles a route table once and finds the route of each request: 404, 405 and OPTIONS (spec 4.1–4.2). */
import { type MatchFunction, match } from 'path-to-regexp';
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { methodNotAllowed } from '../errors/helpers.ts';
import { decodeParam } from '../paths/check-path.ts';
import { checkRouteConfig } from './check-config.ts';
import type { Handler, RouteConfig, RouteDefinition, RouteInfo, RouteTable } from './types.ts';

const declarable = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'];
const allowOrder = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * The `Allow` list for the methods a path serves: in the spec's order, HEAD beside GET and
 * OPTIONS added (RFC 9110 §9.3.2, §9.3.7), other methods after; empty when there are none.
 * Hosts with their own router build their 405 and OPTIONS answers with it.
 */
export function allowList(methods: Iterable<string>): string[] {
  const all = new Set(methods);
  if (all.size === 0) return [];
  all.add('OPTIONS');
  if (all.has('GET')) all.add('HEAD');
  const known = allowOrder.filter((method) => all.has(method));
  for (const method of all) if (!allowOrder.includes(method)) known.push(method);
  return known;
}

interface PathEntry {
  readonly pattern: string;
  readonly methods: ReadonlyMap<string, RouteInfo>;
  readonly allow: readonly string[];
  readonly matcher: MatchFunction<Record<string, string | string[]>> | undefined;
}

/** The outcome of routing: a route with its decoded parameters, or the methods of the path. */
export interface RouteMatch {
  /** The matched route; `undefined` for OPTIONS on a path with no OPTIONS handler. */
  route: RouteInfo | undefined;
  /** Decoded path parameters. */
  params: Record<string, string>;
  /** The methods the path allows, for `Allow`. */
  allow: readonly string[];
}

const noParams: Record<string, string> = Object.freeze({}) as Record<string, string>;

function isStatic(pattern: string): boolean {
  return !/[:*{}()\\]/.test(pattern);
}

function compileEntry(
  configKeys: readonly string[],
  pattern: string,
  methods: Record<string, Handler | RouteDefinition | undefined>,
): PathEntry {
  if (!pattern.startsWith('/')) {
    throw new TypeError(`Route pattern "${pattern}" must start with "/".`);
  }
  const map = new Map<string, RouteInfo>();
  for (const [method, value] of Object.entries(methods)) {
    if (value === undefined) continue;
    if (!declarable.includes(method)) {
      throw new TypeError(
        `Route "${pattern}": "${method}" is not a method; use one of ${declarable.join(', ')} (upper-case).`,
      );
    }
    const definition: RouteDefinition = typeof value === 'function' ? { handler: value } : value;
    if (typeof definition?.handler !== 'function') {
      throw new TypeError(`Route "${method} ${pattern}" needs a handler function.`);
    }
    const config: RouteConfig = Object.freeze({ ...definition.config });
    checkRouteConfig(`Route "${method} ${pattern}" config`, config, configKeys);
    map.set(method, Object.freeze({ method, pattern, config, handler: definition.handler }));
  }
  const get = map.get('GET');
  if (get && !map.has('HEAD')) map.set('HEAD', Object.freeze({ ...get, method: 'HEAD' }));
  const allow = allowList(map.keys());
  let matcher: PathEntry['matcher'];
  if (!isStatic(pattern)) {
    try {
      matcher = match(pattern, { decode: false, trailing: false, sensitive: true });
    } catch (error) {
      throw new TypeError(`Route pattern "${pattern}" is not valid: ${(error as Error).message}`);
    }
  }
  return { pattern, methods: map, allow, matcher };
}

/**
 * A compiled route table. Static paths are found with one map look-up; patterns with parameters
 * are tried in the order they were declared.
 */
export class Router {
  /** Every route, HEAD included where GET is declared, in declaration order. */
  readonly routes: readonly RouteInfo[];
  private readonly exact = new Map<string, PathEntry>();
  private readonly dynamic: PathEntry[] = [];

  /**
   * @param table - the route table
   * @param configKeys - route-setting keys the plugins read, beside the built-in ones
   */
  constructor(table: RouteTable = {}, configKeys: readonly string[] = []) {
    const routes: RouteInfo[] = [];
    for (const [pattern, methods] of Object.entries(table)) {
      const entry = compileEntry(
        configKeys,
        pattern,
        methods as Record<string, Handler | RouteDefinition>,
      );
      if (entry.matcher) this.dynamic.push(entry);
      else this.exact.set(pattern, entry);
      routes.push(...entry.methods.values());
    }
    this.routes = routes;
  }

  /**
   * Finds the route for a method and a (lower-case) path. Throws a 404 that names the path when
   * nothing is there, and a 405 with `Allow` when the path exists but the method does not. For
   * OPTIONS on a path with no OPTIONS handler, `route` is undefined and `allow` is the answer.
   */
  find(method: string, path: string): RouteMatch {
    let entry = this.exact.get(path);
    let params = noParams;
    if (entry === undefined) {
      for (const candidate of this.dynamic) {
        const result = candidate.matcher!(path);
        if (result) {
          entry = candidate;
          params = {};
          for (const [name, raw] of Object.entries(result.params)) {
            if (raw === undefined) continue;
            params[name] = Array.isArray(raw)
              ? raw.map((part) => decodeParam(part, name)).join('/')
              : decodeParam(raw, name);
          }
          break;
        }
      }
    }
    if (entry === undefined) {
      throw new ApiError(404, ErrorCode.NoRoute, `Nothing found at ${path}.`);
    }
    const route = entry.methods.get(method);
    if (route) return { route, params, allow: entry.allow };
    if (method === 'OPTIONS') return { route: undefined, params, allow: entry.allow };
    throw methodNotAllowed(method, path, entry.allow);
  }

  /** The methods allowed on a path, or `undefined` when no route matches it. */
  allowed(path: string): readonly string[] | undefined {
    try {
      return this.find('OPTIONS', path).allow;
    } catch {
      return undefined;
    }
  }
}
