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
import type { AppRoute, RouteConfig, RouteSettings } from '../kernel/route-types.ts';
import type { Step } from '../kernel/steps.ts';
import type { BoundHost } from './bind-host.ts';
import { enterChecked, enterGuarded, type NativeEntry } from './checkpoint-entry.ts';
import { LookAhead, RouteReader } from './look-ahead.ts';
import { type Checkpoint, coverage } from './stack-cover.ts';
import { listRoutes, type StackProbe } from './stack-probe.ts';

export { enterAfter } from './checkpoint-entry.ts';
export type { Checkpoint } from './stack-cover.ts';

/**
 * What the check points need of the adapter: the bound host, its router probe, how to put a
 * check point in front of what `stack[at]` runs (a wrapper calling {@link Checkpoints.route},
 * {@link Checkpoints.middleware} or {@link Checkpoints.into}, entering through
 * {@link Checkpoints.enter}), and its native writers: `headers` puts the headers the checks
 * gathered on the host's response before the app's code runs, `refuse` sends a refusal. `place`
 * gives back what stands at `at` once it is there, or `undefined` where the layer needs none (the
 * conventions' own steps, error middleware, middleware that never answers).
 *
 * @category Host binding
 */
export interface CheckpointBinding<Native extends object, Layer, Route>
  extends NativeEntry<Native> {
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
   * Enters what a check point stands in front of (`go`) once `checked` let the request through,
   * with the headers the checks gathered on the host's response, or sends the refusal: at once
   * when the check was synchronous. With `failed`, for a host that does not await what its
   * handlers return, a later throw goes to it and nothing is returned.
   */
  enter(
    native: Native,
    checked: Step<ApiResponse | undefined>,
    go: () => unknown,
    failed?: (error: unknown) => void,
  ): unknown;
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
  /**
   * A `TypeError` for `what` (a step that registers routes) on a router that is not strict: the
   * wording of {@link Checkpoints.loose}, with how to make it strict (`fix`).
   */
  notStrict(what: string, fix: string): TypeError;
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
   * (`route`), or, outside a route, its own, by method and `path`; then `go` with the checked
   * body, the headers the checks gathered on the host's response, or the refusal sent. `failed`
   * as for {@link Checkpoints.enter}.
   */
  enter(
    native: Native,
    route: Route | undefined,
    path: string,
    params: Readonly<Record<string, string>> | undefined,
    go: (body: unknown) => unknown,
    failed?: (error: unknown) => void,
  ): unknown;
}

const looseText = (fix: string) =>
  `The app's router serves /v1/books/ as /v1/books unless it is strict (spec 4.1.9 wants 404): ${fix}`;

/**
 * Builds the check points of an app's conventions on a host whose router decides as it goes.
 *
 * @category Host binding
 */
export function checkpoints<Native extends object, Layer, Route>(
  binding: CheckpointBinding<Native, Layer, Route>,
): Checkpoints<Native, Layer, Route> {
  const { host, probe } = binding;
  const reader = new RouteReader(host, probe);
  const ahead = new LookAhead(host, probe, reader);
  const told = new WeakSet<object>();
  const { cover, size } = coverage(probe, (stack, at, point) => binding.place(stack, at, point));
  return {
    cover,
    size,
    routes: (stack) =>
      listRoutes(probe as StackProbe<never, Layer, Route>, stack, (what) =>
        host.logger.warn(
          `The app's routes under ${what} are not in the route view: their paths get no Allow, 405 or CORS preflight from the library. Requests to them are still checked on the route the app's router runs.`,
        ),
      ),
    settingsOf: (route, method) => reader.settingsOf(route, method),
    route(native, route, params) {
      if (host.held(native) === undefined) return undefined;
      return host.check(native, reader.settingsOf(route, probe.method(native)), params);
    },
    middleware(native, stack, self) {
      if (host.held(native) === undefined) return undefined;
      return host.check(native, undefined, undefined, () => ahead.opensAhead(native, stack, self));
    },
    into(native, stack, layer, base) {
      if (host.held(native) === undefined) return () => {};
      return ahead.into(native, stack, layer, base);
    },
    enter: (native, checked, go, failed) =>
      enterChecked(host, binding, native, checked, go, failed),
    loose(router, strict, fix) {
      if (told.has(router)) return;
      told.add(router);
      if (!strict()) host.logger.warn(looseText(fix));
    },
    notStrict: (what, fix) => new TypeError(`${what} needs a strict router. ${looseText(fix)}`),
    guard(config) {
      const { config: checked } = host.settingsOf('ANY', 'guard()', config);
      const own = (native: Native, route: Route | undefined, path: string) => {
        const method = probe.method(native);
        return route === undefined
          ? host.settingsFor(checked, method, path, () => checked)
          : reader.settingsOf(route, method);
      };
      return {
        config: checked,
        enter(native, route, path, params, go, failed) {
          const guarded = host.guard(native, own(native, route, path), params);
          return enterGuarded(host, binding, native, guarded, go, failed);
        },
      };
    },
  };
}
