/**
 * Check points on a host's routing stacks (CONTRIBUTING.md, "Fail closed, where the host enters"):
 * on a host whose router decides as it goes (Express, Koa), every route, nested router and piece
 * of middleware that may answer gets a check point in front of it, put there the first time its
 * stack is seen and again when the stack grows, so that "may this caller run this?" is decided as
 * the host enters it, with the settings of exactly what it entered. The adapter brings a small
 * probe of its router (how a layer matches a path, a route's methods, a nested router) and the
 * native wrapper it puts around a layer; what is decided is decided here, once for every host.
 */
import type { ApiResponse } from '../http/response.ts';
import type { Guarded } from '../kernel/plugin.ts';
import type { AppRoute, RouteConfig, RouteSettings } from '../kernel/route-types.ts';
import { andThen, isPromise, type Step } from '../kernel/steps.ts';
import type { BoundHost } from './bind-host.ts';
import { listRoutes, readMarks, type StackProbe, takes } from './stack-probe.ts';

/**
 * What stands at a place of a stack, for the adapter to put its check point there: a route, a
 * nested router (whose stack is covered too), or middleware.
 *
 * @category Host binding
 */
export type Checkpoint<Layer, Route> =
  | {
      /** In front of one of the app's routes. */
      readonly kind: 'route';
      /** The route it checks. */
      readonly route: Route;
    }
  | {
      /** In front of a nested router: records where the request is, for the look ahead. */
      readonly kind: 'router';
      /** The nested router's stack. */
      readonly stack: Layer[];
    }
  | {
      /** In front of middleware that may answer. */
      readonly kind: 'middleware';
    };

/**
 * What the check points need of the adapter: the bound host, its router probe, and how to put a
 * check point in front of what `stack[at]` runs (a wrapper calling {@link Checkpoints.route},
 * {@link Checkpoints.middleware} or {@link Checkpoints.into}). `place` gives back what stands at
 * `at` once it is there, or `undefined` where the layer needs none (the conventions' own steps,
 * error middleware, middleware that never answers).
 *
 * @category Host binding
 */
export interface CheckpointBinding<Native extends object, Layer, Route> {
  /** The bound host the check points check with. */
  readonly host: BoundHost<Native>;
  /** How the host's router is read. */
  readonly probe: StackProbe<Native, Layer, Route>;
  /** Puts `point` in front of what `stack[at]` runs; what stands there now, or `undefined`. */
  place(stack: Layer[], at: number, point: Checkpoint<Layer, Route>): Layer | undefined;
}

/**
 * The check points of one app.
 *
 * @category Host binding
 */
export interface Checkpoints<Native extends object, Layer, Route> {
  /** Puts a check point in front of each layer not yet covered, nested routers' included; cheap when none is new. */
  cover(stack: Layer[]): void;
  /** A number that changes when layers are added to the stack or to a router it was seen to hold. */
  size(stack: readonly Layer[]): number;
  /** The app's routes for the route view; what it cannot hold is named in a warning. */
  routes(stack: readonly Layer[]): AppRoute[];
  /** A route's settings for a method: its table route's, its guard's, or the defaults. */
  settingsOf(route: Route, method: string): RouteSettings;
  /** The check where the host enters a route: the refusal, or `undefined`. */
  route(
    native: Native,
    route: Route,
    params?: Readonly<Record<string, string>>,
  ): Step<ApiResponse | undefined>;
  /**
   * The check where the host enters middleware at `self` in `stack` (`undefined`: before all of
   * it): a caller without credentials passes only on the way to an open route ahead, in this
   * stack or in those of the routers the request is in.
   */
  middleware(
    native: Native,
    stack: readonly Layer[],
    self: Layer | undefined,
  ): Step<ApiResponse | undefined>;
  /** The request enters the router at `self` in `stack`, whose routes see `base`: call what it gives when the router hands the request back. */
  into(native: Native, stack: readonly Layer[], self: Layer, base: string): () => void;
  /**
   * A guard's settings, checked now (a misspelt key is a `TypeError` at start-up), and how they
   * apply where a request reaches the guard.
   */
  guard(config: RouteConfig): CheckpointGuard<Native, Route>;
  /**
   * Says once per router, when `strict()` says it is not strict, that it serves `/v1/books/` as
   * `/v1/books` (spec 4.1.9 wants 404), and how to make it strict (`fix`).
   */
  loose(router: object, strict: () => boolean, fix: string): void;
}

/**
 * A guard of the app's (`guard(settings)`) on a host with check points.
 *
 * @category Host binding
 */
export interface CheckpointGuard<Native extends object, Route> {
  /** Its settings, as checked. */
  readonly config: RouteConfig;
  /**
   * The guard's step ({@link BoundHost.guard}) with the settings of the route it stands on
   * (`route`), or, outside a route, its own, by method and `path`.
   */
  run(
    native: Native,
    route: Route | undefined,
    path: string,
    params?: Readonly<Record<string, string>>,
  ): Step<Guarded>;
}

/** A router a request is inside: its layer in the stack it belongs to, and the base of its routes. */
interface Frame<Layer> {
  readonly stack: readonly Layer[];
  readonly layer: Layer;
  readonly base: string;
}

const none: readonly never[] = [];

/**
 * Enters what a check point stands in front of (`go`) once the check let the request through, or
 * hands the refusal to `refuse`: at once when the check was synchronous. With `failed`, for a host
 * that does not await what its handlers return, a later throw goes to it and nothing is returned.
 *
 * @category Host binding
 */
export function enterAfter<T>(
  checked: Step<ApiResponse | undefined>,
  go: () => T,
  refuse: (refusal: ApiResponse) => T,
  failed?: (error: unknown) => void,
): Step<T> | undefined {
  const out = andThen(checked, (refusal) => (refusal === undefined ? go() : refuse(refusal)));
  if (failed === undefined || !isPromise(out)) return out;
  out.then(undefined, failed);
  return undefined;
}

/**
 * Builds the check points of an app's conventions on a host whose router decides as it goes.
 *
 * @category Host binding
 */
export function checkpoints<Native extends object, Layer, Route>(
  binding: CheckpointBinding<Native, Layer, Route>,
): Checkpoints<Native, Layer, Route> {
  const { host, probe } = binding;
  const covered = new WeakSet<object>();
  const lengths = new WeakMap<readonly Layer[], number>();
  const nestedOf = new WeakMap<readonly Layer[], Layer[][]>();
  const trails = new WeakMap<Native, Frame<Layer>[]>();
  const told = new WeakSet<object>();
  // A route's methods, read again when handlers are added (a method comes with its handlers).
  const methodsOf = new WeakMap<object, { version: number; methods: readonly string[] }>();
  const methods = (route: Route): readonly string[] => {
    const version = probe.handlers(route).length;
    let known = methodsOf.get(route as object);
    if (known?.version !== version) {
      known = { version, methods: probe.methods(route) };
      methodsOf.set(route as object, known);
    }
    return known.methods;
  };

  const settingsOf = (route: Route, method: string): RouteSettings => {
    const name = method === 'HEAD' && !methods(route).includes('HEAD') ? 'GET' : method;
    const handlers = probe.handlers(route);
    const read = () => readMarks(handlers, name);
    return host.settingsFor(
      route as object,
      name,
      String(probe.pattern(route)),
      read,
      handlers.length,
    );
  };

  /** Whether a route of `stack` from `from` on that matches `path` lets a caller in without credentials. */
  const openAhead = (
    stack: readonly Layer[],
    from: number,
    path: string,
    method: string,
  ): boolean => {
    for (let i = from; i < stack.length; i++) {
      const layer = stack[i]!;
      const route = probe.route(layer);
      const nested = route === undefined ? probe.router(layer) : undefined;
      if (route === undefined ? nested === undefined : !takes(methods(route), method)) continue;
      let matched: string | undefined;
      try {
        matched = probe.match(layer, path);
      } catch {
        continue; // a parameter the host cannot decode: that layer never matches this path
      }
      if (matched === undefined) continue;
      if (route !== undefined) {
        if (host.opens(settingsOf(route, method))) return true;
        continue;
      }
      const rest = path.slice(matched.length);
      if ((rest === '' || rest[0] === '/') && openAhead(nested!, 0, rest || '/', method))
        return true;
    }
    return false;
  };

  const cover = (stack: Layer[]): void => {
    if (lengths.get(stack) !== stack.length) {
      lengths.set(stack, stack.length);
      for (let at = 0; at < stack.length; at++) {
        const layer = stack[at]!;
        if (covered.has(layer as object)) continue;
        covered.add(layer as object);
        const route = probe.route(layer);
        const nested = route === undefined ? probe.router(layer) : undefined;
        if (nested !== undefined) {
          const known = nestedOf.get(stack) ?? [];
          nestedOf.set(stack, known);
          if (!known.includes(nested)) known.push(nested);
        }
        const point: Checkpoint<Layer, Route> =
          route !== undefined
            ? { kind: 'route', route }
            : nested !== undefined
              ? { kind: 'router', stack: nested }
              : { kind: 'middleware' };
        const placed = binding.place(stack, at, point);
        if (placed !== undefined) covered.add(placed as object);
      }
    }
    // Routers grow on their own: each one seen is looked at again.
    for (const nested of nestedOf.get(stack) ?? none) cover(nested);
  };

  const size = (stack: readonly Layer[]): number => {
    let n = stack.length;
    for (const nested of nestedOf.get(stack) ?? none) n += size(nested);
    return n;
  };

  return {
    cover,
    size,
    routes: (stack) =>
      listRoutes(probe as StackProbe<never, Layer, Route>, stack, (what) =>
        host.logger.warn(
          `The app's routes under ${what} are not in the route view: their paths get no Allow, 405 or CORS preflight from the library. Requests to them are still checked on the route the app's router runs.`,
        ),
      ),
    settingsOf,
    route(native, route, params) {
      if (host.held(native) === undefined) return undefined;
      return host.check(native, settingsOf(route, probe.method(native)), params);
    },
    middleware(native, stack, self) {
      if (host.held(native) === undefined) return undefined;
      const ahead = () => {
        const path = probe.path(native);
        const method = probe.method(native);
        const trail = trails.get(native) ?? none;
        let base = trail.at(-1)?.base ?? '';
        const from = self === undefined ? 0 : stack.indexOf(self) + 1;
        if (openAhead(stack, from, path.slice(base.length) || '/', method)) return true;
        for (let i = trail.length - 1; i >= 0; i--) {
          const frame = trail[i]!;
          base = trail[i - 1]?.base ?? '';
          const at = frame.stack.indexOf(frame.layer) + 1;
          if (openAhead(frame.stack, at, path.slice(base.length) || '/', method)) return true;
        }
        return false;
      };
      return host.check(native, undefined, undefined, ahead);
    },
    into(native, stack, layer, base) {
      if (host.held(native) === undefined) return () => {};
      let trail = trails.get(native);
      if (trail === undefined) {
        trail = [];
        trails.set(native, trail);
      }
      const frame: Frame<Layer> = { stack, layer, base };
      trail.push(frame);
      return () => {
        const at = trail.lastIndexOf(frame);
        if (at !== -1) trail.length = at;
      };
    },
    loose(router, strict, fix) {
      if (told.has(router)) return;
      told.add(router);
      if (strict()) return;
      host.logger.warn(
        `The app's router serves /v1/books/ as /v1/books unless it is strict (spec 4.1.9 wants 404): ${fix}`,
      );
    },
    guard(config) {
      const { config: checked } = host.settingsOf('ANY', 'guard()', config);
      const own = (native: Native, route: Route | undefined, path: string) => {
        const method = probe.method(native);
        return route === undefined
          ? host.settingsFor(checked, method, path, () => checked)
          : settingsOf(route, method);
      };
      return {
        config: checked,
        run: (native, route, path, params) => host.guard(native, own(native, route, path), params),
      };
    },
  };
}
