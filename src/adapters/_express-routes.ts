/** What the Express adapter reads from Express itself: its version, routing table and errors. */
import {
  ApiError,
  type AppRoute,
  type Conventions,
  ErrorCode,
  malformedJson,
  payloadTooLarge,
  type RouteConfig,
  type RouteInfo,
} from 'api-conventions';
import { fromHttpError, type HttpErrorLike } from 'api-conventions/host';
import type { Application, Router } from 'express';

/** The parts of an Express 4 or 5 router layer the adapter reads. */
export interface Layer {
  /** Express 5 (`router` 2): the match or `false`. Express 4: a boolean, and `path` is set. */
  match(path: string): { path: string; params?: Record<string, string> } | boolean;
  path?: string;
  /** Express 5 (`router` 2.2): the path the layer was declared with. */
  rawPath?: unknown;
  /** Express 4: the compiled path, the only trace of a Router's mount path. */
  regexp?: RegExp & { fast_slash?: boolean };
  route?: ExpressRoute;
  handle?: ((...args: never[]) => unknown) & { stack?: unknown };
  /** Express 4: what the last `match` found. */
  params?: Record<string, string>;
}

/** An Express route: a path with its methods and handlers. */
export interface ExpressRoute {
  path: unknown;
  methods: Record<string, boolean | undefined>;
  /** Its layers: each handler, with the method it serves (`undefined` for all). */
  stack?: readonly { handle?: unknown; method?: string }[];
}

/** An Express router: the app's own, or one from `express.Router()`. */
export interface RouterLike {
  stack: Layer[];
  strict?: boolean;
}

/** The router of an Express app: `app.router` in Express 5, `app._router` in Express 4. */
export function appRouter(app: unknown): RouterLike | undefined {
  const a = app as { _router?: RouterLike; router?: RouterLike; lazyrouter?: () => void };
  // Express 4 builds `_router` lazily, and its `app.router` getter throws, so it is never read.
  if (typeof a.lazyrouter !== 'function') return a.router;
  a.lazyrouter();
  return a._router;
}

/** Tells whether an app or a Router is Express 4's: its app builds the router lazily, its Router keeps `_params`. */
export function isExpress4(target: unknown): boolean {
  const t = target as { lazyrouter?: unknown; _params?: unknown };
  return typeof t.lazyrouter === 'function' || Array.isArray(t._params);
}

/** Tells whether a router, or an app's router, tells `/a/` from `/a` (Express's `strict` option). */
export function isStrict(target: unknown): boolean {
  const router = Array.isArray((target as RouterLike).stack)
    ? (target as RouterLike)
    : appRouter(target);
  return router?.strict === true;
}

/**
 * What the conventions' own Express steps say of themselves: `before`, `after`, a guard's route
 * settings, a table route's handler's route.
 */
export interface StepMark {
  readonly own?: true;
  readonly guard?: RouteConfig;
  readonly table?: RouteInfo;
}

// Two marks, so that one survives each kind of wrapper APM agents put around an Express layer's
// handler: an enumerable property with a string key (OpenTelemetry's Express instrumentation
// proxies those, Elastic's copies them) and the function's name (New Relic's keeps only name and
// arity). A symbol or the function's identity is lost under both. Where neither can be read, the
// layer is checked as the app's own code: a public route then needs credentials, never the reverse.
const markKey = 'api-conventions:step';
const byName = new Map<string, StepMark>();

/** Marks one of the conventions' own Express steps. */
export function mark<F extends object>(step: F, what: StepMark): F {
  const name = `api-conventions step #${byName.size + 1}`;
  byName.set(name, what);
  Object.defineProperty(step, markKey, { value: what, enumerable: true });
  Object.defineProperty(step, 'name', { value: name });
  return step;
}

/** The innermost function under wrappers that keep their original as `__original` (shimmer's way). */
export function originalOf(fn: unknown): (...args: never[]) => unknown {
  let f = fn as { __original?: unknown };
  for (let depth = 0; depth < 8 && typeof f.__original === 'function'; depth++) {
    f = f.__original as { __original?: unknown };
  }
  return f as unknown as (...args: never[]) => unknown;
}

/** The router inside a layer that is not a route: an `express.Router()`, through wrappers. */
export function routerOf(handle: unknown): RouterLike | undefined {
  if (typeof handle !== 'function') return undefined;
  if (Array.isArray((handle as { stack?: unknown }).stack)) return handle as unknown as RouterLike;
  const original = originalOf(handle) as { stack?: unknown };
  return Array.isArray(original.stack) ? (original as unknown as RouterLike) : undefined;
}

/** The mark of a function, read through wrappers that copy or proxy properties or keep `__original`. */
export function markOf(fn: unknown): StepMark | undefined {
  let f = fn;
  for (let depth = 0; depth < 8 && typeof f === 'function'; depth++) {
    const step = f as unknown as Record<string, unknown>;
    const found = (step[markKey] as StepMark | undefined) ?? byName.get(step.name as string);
    if (found !== undefined) return found;
    f = step.__original;
  }
  return undefined;
}

/**
 * The app's own routes, nested Routers included, as plain data for the route view: the table's
 * routes (mounted by `mount`) are left out, and a guard on a route gives it its settings. A
 * Router whose mount path cannot be read (Express 4 with parameters in it) is passed to `skip`.
 */
export function appRoutesOf(app: unknown, skip: (why: string) => void): AppRoute[] {
  const routes: AppRoute[] = [];
  const router = appRouter(app);
  if (router) walk(router.stack, '', routes, skip);
  return routes;
}

/** The top of an app's routing stack, whose length tells when routes were added. */
export function stackSize(app: unknown): number {
  return appRouter(app)?.stack.length ?? 0;
}

function walk(
  stack: readonly Layer[],
  prefix: string,
  out: AppRoute[],
  skip: (why: string) => void,
) {
  for (const layer of stack) {
    const { route } = layer;
    if (route) {
      const marks = (route.stack ?? []).map((h) => markOf(h.handle));
      if (marks.some((m) => m?.table !== undefined)) continue;
      let config: RouteConfig | undefined;
      for (const m of marks) config ??= m?.guard;
      for (const path of [route.path].flat()) {
        if (typeof path !== 'string') {
          skip(`a route on ${String(path)} (a RegExp path)`);
          continue;
        }
        for (const [method, on] of Object.entries(route.methods)) {
          if (!on || method === '_all') continue;
          // A Router's own root (`router.get('/')`) is its mount path itself.
          const pattern = path === '/' && prefix !== '' ? prefix : prefix + path;
          out.push({ method: method.toUpperCase(), pattern, config });
        }
      }
    } else {
      const nested = routerOf(layer.handle);
      if (nested === undefined) continue;
      const mount = mountPath(layer);
      if (mount === undefined) skip(`a Router mounted on ${String(layer.regexp)}`);
      else walk(nested.stack, prefix + mount, out, skip);
    }
  }
}

/** The literal path a Router is mounted on (`''` at the root), or `undefined` when unreadable. */
function mountPath(layer: Layer): string | undefined {
  if (typeof layer.rawPath === 'string') return layer.rawPath === '/' ? '' : layer.rawPath;
  if (layer.regexp?.fast_slash) return '';
  // Express 4 (path-to-regexp 0.1): `^\/v1\/admin\/?(?=\/|$)` for a literal mount path.
  const literal = /^\^((?:\\\/[\w.~-]+)+)\\\/\?\(\?=\\\/\|\$\)$/.exec(layer.regexp?.source ?? '');
  return literal ? literal[1]!.replaceAll('\\/', '/') : undefined;
}

/** The body-parser fields of an `http-errors` error read here, beside the status. */
interface BodyParserError extends HttpErrorLike {
  type?: string;
  limit?: number;
  charset?: string;
  encoding?: string;
}

// body-parser's error types (shared with raw-body), as the core's errors.
const bodyErrors: Record<string, (e: BodyParserError) => ApiError> = {
  'entity.parse.failed': (e) => malformedJson(e.message),
  'entity.too.large': (e) => payloadTooLarge(e.limit ?? 0),
  'charset.unsupported': (e) =>
    new ApiError(
      415,
      ErrorCode.UnsupportedMediaType,
      `Charset "${e.charset}" is not supported; send the body as UTF-8.`,
    ),
  'encoding.unsupported': (e) =>
    new ApiError(
      415,
      ErrorCode.UnsupportedMediaType,
      `Content-Encoding "${e.encoding}" is not supported.`,
    ),
};

/**
 * Body-parser's and Express's own 4xx errors as the core's errors; any other error goes to the
 * core's one rule for errors that carry a status ({@link fromHttpError}), as on every adapter.
 */
export function fromExpressError(error: unknown): unknown {
  const e = error as BodyParserError | null;
  if (typeof e?.type === 'string' && Object.hasOwn(bodyErrors, e.type)) {
    return bodyErrors[e.type]!(e);
  }
  // Express's router throws a URIError-based 400 for a parameter it cannot decode.
  if (error instanceof URIError && (e?.status ?? e?.statusCode) === 400) {
    return new ApiError(
      400,
      ErrorCode.MalformedPath,
      'The request path has malformed percent-encoding.',
    );
  }
  return fromHttpError(error);
}

/**
 * The table's pattern for Express's router. Express 4 reads patterns with path-to-regexp 0.1,
 * where `*path` is an unnamed wildcard followed by the text `path`: a named wildcard becomes
 * `:path(.+)` there, and groups and escapes, which it cannot read, are a `TypeError`.
 */
export function expressPattern(pattern: string, target: Application | Router): string {
  if (!isExpress4(target)) return pattern;
  if (/[{}()\\]/.test(pattern)) {
    throw new TypeError(
      `Route "${pattern}": Express 4 has no optional groups or escapes; declare each path as its own route, or use Express 5.`,
    );
  }
  return pattern.replace(/\*(\w+)/g, ':$1(.+)');
}

const warnedApps = new WeakSet<object>();

/** The app's own routes, without strict routing, serve `/v1/books/` as `/v1/books`: say so once. */
export function warnIfLoose(conventions: Conventions, app: object): void {
  if (warnedApps.has(app)) return;
  warnedApps.add(app);
  if (isStrict(app)) return;
  conventions.logger.warn(
    "Express serves /v1/books/ as /v1/books unless strict routing is on (spec 4.1 wants 404): call app.set('strict routing', true) before the first app.use().",
  );
}
