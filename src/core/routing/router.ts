/** Compiles a route table once and finds the route of each request: 404, 405 and OPTIONS (spec 4.1–4.2). */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { methodNotAllowed } from '../errors/helpers.ts';
import type { RouteInfo, RouteTable } from '../kernel/route-table.ts';
import { decodeParam } from '../paths/check-path.ts';
import { compileEntry, kindOf, type PathEntry } from './compile-entry.ts';
import { literalSegments, PrefixIndex } from './prefix-index.ts';

export { allowList } from './compile-entry.ts';

/**
 * {@link Router.lookup} found the route of the method on the path.
 *
 * @category Routing
 */
export interface RouteFound {
  /** What was found. */
  readonly kind: 'found';
  /** The matched route. */
  readonly route: RouteInfo;
  /** Decoded path parameters. */
  readonly params: Readonly<Record<string, string>>;
  /** The methods the path allows, for `Allow`. */
  readonly allow: readonly string[];
}

/**
 * {@link Router.lookup} found the path of an OPTIONS request that has no OPTIONS handler: 204 with `Allow`.
 *
 * @category Routing
 */
export interface OptionsFound {
  /** What was found. */
  readonly kind: 'options';
  /** Decoded path parameters. */
  readonly params: Readonly<Record<string, string>>;
  /** The methods the path allows: the answer's `Allow`. */
  readonly allow: readonly string[];
}

/**
 * {@link Router.lookup} found the path but not the method: 405 with `Allow` (RFC 9110 §15.5.6).
 *
 * @category Routing
 */
export interface MethodNotFound {
  /** What was found. */
  readonly kind: 'methodNotAllowed';
  /** The methods the path allows: the answer's `Allow`. */
  readonly allow: readonly string[];
}

/**
 * {@link Router.lookup} found no route with the path: 404.
 *
 * @category Routing
 */
export interface PathNotFound {
  /** What was found. */
  readonly kind: 'notFound';
}

/**
 * The outcome of {@link Router.lookup}; `kind` tells which answer the request gets.
 *
 * @category Routing
 */
export type RouteLookup = RouteFound | OptionsFound | MethodNotFound | PathNotFound;

/**
 * The outcome of {@link Router.find}: a route with its decoded parameters, or the methods of the path.
 *
 * @category Routing
 */
export interface RouteMatch {
  /** The matched route; `undefined` for OPTIONS on a path with no OPTIONS handler. */
  route: RouteInfo | undefined;
  /** Decoded path parameters. */
  params: Record<string, string>;
  /** The methods the path allows, for `Allow`. */
  allow: readonly string[];
}

const noParams: Record<string, string> = Object.freeze({}) as Record<string, string>;
const notFound: PathNotFound = Object.freeze({ kind: 'notFound' });

/** A static path's answers, built once: looking one up allocates nothing. */
interface StaticEntry {
  readonly found: ReadonlyMap<string, RouteFound>;
  readonly options: OptionsFound;
  readonly wrongMethod: MethodNotFound;
}

function staticEntry(entry: PathEntry): StaticEntry {
  const { allow } = entry;
  const found = new Map<string, RouteFound>();
  for (const [method, route] of entry.methods) {
    found.set(method, Object.freeze({ kind: 'found', route, params: noParams, allow }));
  }
  return {
    found,
    options: Object.freeze({ kind: 'options', params: noParams, allow }),
    wrongMethod: Object.freeze({ kind: 'methodNotAllowed', allow }),
  };
}

function decodeAll(raw: Record<string, string | string[] | undefined>): Record<string, string> {
  const params: Record<string, string> = {};
  for (const name in raw) {
    const value = raw[name];
    if (value === undefined) continue;
    params[name] = Array.isArray(value)
      ? value.map((part) => decodeParam(part, name)).join('/')
      : decodeParam(value, name);
  }
  return params;
}

/**
 * A compiled route table. Static paths are found with one map look-up; patterns with parameters
 * are bucketed by their literal leading segments, and only the patterns that can match a path
 * are tried, in the order they were declared.
 *
 * @category Routing
 */
export class Router {
  /** Every route, HEAD included where GET is declared, in declaration order. */
  readonly routes: readonly RouteInfo[];
  /** @internal The compiled paths, in declaration order: a route view adds the host's to them. */
  readonly entries: readonly PathEntry[];
  private readonly exact = new Map<string, StaticEntry>();
  private readonly dynamic = new PrefixIndex<PathEntry>();

  /**
   * Checks and compiles the table; a mistake in it is a `TypeError` that says how to fix it.
   *
   * @param table - the route table
   * @param configKeys - route-setting keys the plugins read, beside the built-in ones
   */
  constructor(table: RouteTable = {}, configKeys: readonly string[] = []) {
    if (typeof table !== 'object' || table === null || Array.isArray(table)) {
      throw new TypeError(
        `The route table must map path patterns to methods, such as { '/v1/books': { GET: listBooks } }; got ${kindOf(table)}.`,
      );
    }
    const entries = Object.entries(table).map(([pattern, methods]) =>
      compileEntry(pattern, methods, configKeys),
    );
    this.entries = entries;
    this.routes = this.index(entries);
  }

  /**
   * @internal A router over paths already compiled (the table's and the host's, see `compileView`), in the
   * order given. Its `routes` list every route of those paths.
   */
  static of(entries: readonly PathEntry[]): Router {
    const router = new Router();
    (router as { entries: readonly PathEntry[] }).entries = entries;
    (router as { routes: readonly RouteInfo[] }).routes = router.index(entries);
    return router;
  }

  private index(entries: readonly PathEntry[]): RouteInfo[] {
    const routes: RouteInfo[] = [];
    for (const entry of entries) {
      if (entry.matcher) this.dynamic.add(literalSegments(entry.pattern), entry);
      else this.exact.set(entry.pattern, staticEntry(entry));
      routes.push(...entry.methods.values());
    }
    return routes;
  }

  /**
   * Finds what a request to `method` and a well-formed (normalised, lower-case) `path` gets,
   * without throwing for a 404 or a 405: `kind` says which, with the `Allow` list where the
   * path exists. Throws only the 400 for a parameter with malformed percent-encoding.
   */
  lookup(method: string, path: string): RouteLookup {
    const known = this.exact.get(path);
    if (known !== undefined) {
      const found = known.found.get(method);
      if (found !== undefined) return found;
      return method === 'OPTIONS' ? known.options : known.wrongMethod;
    }
    for (const candidate of this.dynamic.candidates(path)) {
      const result = candidate.matcher!(path);
      if (!result) continue;
      const route = candidate.methods.get(method);
      const { allow } = candidate;
      if (route !== undefined) {
        return { kind: 'found', route, params: decodeAll(result.params), allow };
      }
      if (method === 'OPTIONS') return { kind: 'options', params: decodeAll(result.params), allow };
      return { kind: 'methodNotAllowed', allow };
    }
    return notFound;
  }

  /**
   * Like {@link Router.lookup}, but throws a 404 that names the path when nothing is there, and a
   * 405 with `Allow` when the path exists but the method does not. For OPTIONS on a path with no
   * OPTIONS handler, `route` is undefined and `allow` is the answer.
   */
  find(method: string, path: string): RouteMatch {
    const found = this.lookup(method, path);
    switch (found.kind) {
      case 'found':
        return { route: found.route, params: found.params, allow: found.allow };
      case 'options':
        return { route: undefined, params: found.params, allow: found.allow };
      case 'methodNotAllowed':
        throw methodNotAllowed(method, path, found.allow);
      default:
        throw new ApiError(404, ErrorCode.NoRoute, `Nothing found at ${path}.`);
    }
  }

  /**
   * The methods allowed on a path, or `undefined` when no route matches it. Parameters are not
   * decoded, so this never throws.
   */
  allowed(path: string): readonly string[] | undefined {
    const known = this.exact.get(path);
    if (known !== undefined) return known.options.allow;
    for (const candidate of this.dynamic.candidates(path)) {
      if (candidate.matcher!(path)) return candidate.allow;
    }
    return undefined;
  }
}
