/**
 * Check points on the app's Express layers: every route, mounted Router and piece of middleware
 * of the app's stack gets one in front of its handler, so that the decision "may this caller run
 * this?" is taken as Express enters it, with the settings of exactly what it entered — after a
 * method override or a URL rewrite, after `next()` out of a public route, and under the wrappers
 * APM agents put around each layer (a check point wraps whatever is there).
 */
import type { RouteConfig, RouteSettings } from 'api-conventions';
import {
  type ApiResponse,
  type BoundHost,
  markOf,
  originalOf,
  type Step,
} from 'api-conventions/host';
import type { NextFunction, Request, Response } from 'express';
import { type ExpressRoute, type Layer, routerOf } from './_express-routes.ts';

// Middleware that never answers a request: Express's body parsers (body-parser), and Express 4's
// own first layers. Anything else that is not a route may answer.
const passThrough = new Set([
  'jsonParser',
  'urlencodedParser',
  'rawParser',
  'textParser',
  'query',
  'expressInit',
]);

type Handle = (req: Request, res: Response, next: NextFunction) => unknown;

/** What the check points need of the adapter: the host, and how to send a refusal. */
export interface CheckpointHost {
  readonly host: BoundHost<Request>;
  send(res: Response, response: ApiResponse): void;
  /** Puts the headers the checks gathered on the native response, before the app's code runs. */
  copyHeaders(req: Request, res: Response): void;
}

/** Whether an Express route takes a method, lower-case (HEAD is served by GET's handlers). */
function takes(route: ExpressRoute, verb: string): boolean {
  const { methods } = route;
  return (
    methods._all === true || methods[verb] === true || (verb === 'head' && methods.get === true)
  );
}

/** A Router the request is inside: its layer in the stack it belongs to, and that level's base. */
interface Frame {
  readonly stack: readonly Layer[];
  readonly layer: Layer;
  readonly base: string;
}

/** The Routers a request is inside, innermost last, for the look ahead from middleware. */
const trails = new WeakMap<Request, Frame[]>();

/** The check points of one app, and the settings of the routes they find. */
export interface Checkpoints {
  /** Puts a check point in front of each layer of `stack` not yet covered (cheap when none is new). */
  cover(stack: readonly Layer[]): void;
  /** The settings of an Express route for a method: its table route's, its guard's, or the defaults. */
  settingsOf(route: ExpressRoute, method: string): RouteSettings;
}

/** Builds the check points of an app's conventions. */
export function checkpoints(adapter: CheckpointHost): Checkpoints {
  const { host } = adapter;
  const covered = new WeakSet<Layer>();
  const lengths = new WeakMap<readonly Layer[], number>();

  /** A route's table route, or its guard's settings, for a method (lower-case). */
  const read = (route: ExpressRoute, verb: string) => () => {
    let config: RouteConfig | undefined;
    for (const layer of route.stack ?? []) {
      if (layer.method !== undefined && layer.method !== verb) continue;
      const mark = markOf(layer.handle);
      if (mark?.table !== undefined) return { table: mark.table };
      config ??= mark?.guard;
    }
    return config;
  };
  const settingsOf = (route: ExpressRoute, method: string): RouteSettings => {
    const name = method === 'HEAD' && route.methods.head !== true ? 'GET' : method;
    const version = route.stack?.length ?? 0;
    return host.settingsFor(
      route,
      name,
      String(route.path),
      read(route, name.toLowerCase()),
      version,
    );
  };

  /** Runs the app's handler once the check let the request through, or sends the refusal. */
  const enter = (
    checked: Step<ApiResponse | undefined>,
    inner: Handle,
    req: Request,
    res: Response,
    next: NextFunction,
  ): unknown => {
    const go = (refusal: ApiResponse | undefined): unknown => {
      if (refusal !== undefined) return adapter.send(res, refusal);
      adapter.copyHeaders(req, res);
      return inner(req, res, next);
    };
    if (!(checked instanceof Promise)) return go(checked);
    // Express 5 hands a rejected promise of a handler to `next`; here the handler runs later.
    checked.then(go).then(undefined, next);
    return undefined;
  };

  /** Whether a route ahead of `layer` in `stack` that matches `path` lets a caller in without credentials. */
  const openAhead = (
    stack: readonly Layer[],
    from: number,
    path: string,
    method: string,
  ): boolean => {
    const verb = method.toLowerCase();
    for (let i = from; i < stack.length; i++) {
      const layer = stack[i]!;
      const { route } = layer;
      const nested = route === undefined ? routerOf(layer.handle) : undefined;
      if (route === undefined && nested === undefined) continue;
      if (route !== undefined && !takes(route, verb)) continue;
      let result: ReturnType<Layer['match']>;
      try {
        result = layer.match(path);
      } catch {
        continue; // a parameter Express cannot decode: that layer never matches this path
      }
      if (result === false) continue;
      if (route !== undefined) {
        if (host.opens(settingsOf(route, method))) return true;
      } else {
        const matched = typeof result === 'object' ? result.path : (layer.path ?? '');
        const rest = path.slice(matched.length);
        if ((rest === '' || rest[0] === '/') && openAhead(nested!.stack, 0, rest || '/', method)) {
          return true;
        }
      }
    }
    return false;
  };

  /** From middleware at `layer` of `stack`: is there an open route ahead, here or outside the Routers it is in? */
  const opensAheadOf = (req: Request, stack: readonly Layer[], layer: Layer) => () => {
    // Middleware mounted on the whole path (`app.use('/{*path}', …)`, `app.use('/v1/x', …)`)
    // sees `req.url` as "/": the request's path is its base, unless it ended with a slash.
    const rest = pathOf(req.url);
    const whole = rest === '/' && req.baseUrl !== '' && !pathOf(req.originalUrl).endsWith('/');
    const full = whole ? req.baseUrl : req.baseUrl + rest;
    const trail = trails.get(req) ?? [];
    let base = trail.at(-1)?.base ?? '';
    if (openAhead(stack, stack.indexOf(layer) + 1, full.slice(base.length) || '/', req.method)) {
      return true;
    }
    for (let i = trail.length - 1; i >= 0; i--) {
      const frame = trail[i]!;
      base = trail[i - 1]?.base ?? '';
      const at = frame.stack.indexOf(frame.layer) + 1;
      if (openAhead(frame.stack, at, full.slice(base.length) || '/', req.method)) return true;
    }
    return false;
  };

  const routeCheckpoint = (layer: Layer, inner: Handle): Handle => {
    const route = layer.route!;
    return (req, res, next) => {
      if (host.held(req) === undefined) return inner(req, res, next);
      const checked = host.check(req, settingsOf(route, req.method), req.params as never);
      return enter(checked, inner, req, res, next);
    };
  };

  const routerCheckpoint = (layer: Layer, inner: Handle, stack: readonly Layer[]): Handle => {
    const router = routerOf(layer.handle)!;
    return (req, res, next) => {
      if (host.held(req) === undefined) return inner(req, res, next);
      cover(router.stack);
      let trail = trails.get(req);
      if (trail === undefined) {
        trail = [];
        trails.set(req, trail);
      }
      const frame: Frame = { stack, layer, base: req.baseUrl };
      trail.push(frame);
      // The Router hands the request back through `next` when nothing in it answered.
      return inner(req, res, (error?: unknown) => {
        const at = trail.lastIndexOf(frame);
        if (at !== -1) trail.length = at;
        next(error as never);
      });
    };
  };

  const middlewareCheckpoint = (layer: Layer, inner: Handle, stack: readonly Layer[]): Handle => {
    return (req, res, next) => {
      if (host.held(req) === undefined) return inner(req, res, next);
      const checked = host.check(req, undefined, undefined, opensAheadOf(req, stack, layer));
      return enter(checked, inner, req, res, next);
    };
  };

  const cover = (stack: readonly Layer[]): void => {
    if (lengths.get(stack) === stack.length) return;
    lengths.set(stack, stack.length);
    for (const layer of stack) {
      if (covered.has(layer)) continue;
      covered.add(layer);
      const handle = layer.handle as Handle | undefined;
      if (typeof handle !== 'function') continue;
      const original = originalOf(handle);
      // Error middleware runs only for an error a handler raised; Express tells it by its arity.
      if (handle.length === 4 || original.length === 4) continue;
      const mark = markOf(handle);
      // The conventions' own steps: `before`, `after` and a guard outside a route check themselves.
      if (mark !== undefined && layer.route === undefined) continue;
      let checkpoint: Handle;
      if (layer.route !== undefined) checkpoint = routeCheckpoint(layer, handle);
      else if (routerOf(handle) !== undefined) {
        checkpoint = routerCheckpoint(layer, handle, stack);
        cover(routerOf(handle)!.stack);
      } else if (passThrough.has(original.name)) continue;
      else checkpoint = middlewareCheckpoint(layer, handle, stack);
      // Kept as `__original`, as shimmer does: readers of the stack (ours included) see through it.
      Object.defineProperty(checkpoint, '__original', { value: handle });
      layer.handle = checkpoint as Layer['handle'];
    }
  };

  return { cover, settingsOf };
}

/** The path of a request target, without its query. */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
