/**
 * Check points in a Koa app: every route of an @koa/router router gets one at the head of its
 * stack, and every other piece of the app's middleware one in front of it, so that "may this
 * caller run this?" is decided as Koa enters each, with the settings of exactly what it entered.
 */
import type { RouteConfig, RouteSettings } from 'api-conventions';
import {
  type ApiResponse,
  type AppRoute,
  type BoundHost,
  markOf,
  markStep,
  originalOf,
  type Step,
} from 'api-conventions/host';
import type { Context, Middleware, Next } from 'koa';

/** The parts of an @koa/router layer read here: a route (with methods) or router middleware. */
export interface KoaLayer {
  methods: string[];
  path: string | RegExp;
  stack: Middleware[];
  match(path: string): boolean;
}

/** The router behind `router.routes()`: its layers, and its `strict` option. */
interface KoaRouter {
  stack: KoaLayer[];
  opts?: { strict?: boolean };
}

/** The router a piece of app middleware dispatches to (`router.routes()`), if it is one. */
export const routerOf = (fn: unknown): KoaRouter | undefined =>
  typeof fn === 'function'
    ? ((fn as { router?: KoaRouter }).router ?? (originalOf(fn) as { router?: KoaRouter }).router)
    : undefined;

/** What the check points need of the adapter: the host, and how to send a refusal. */
export interface KoaCheckpointHost {
  readonly host: BoundHost<Context>;
  send(ctx: Context, response: ApiResponse): void;
  /** Puts the headers the checks gathered on the response, before the app's code runs. */
  copyHeaders(ctx: Context): void;
}

/** The check points of one app, and what they found out. */
export interface KoaCheckpoints {
  /** Covers what is new in the app's middleware and its routers (cheap when nothing is). */
  cover(middleware: Middleware[]): void;
  /**
   * The app's middleware behind `own` (the conventions' middleware), each behind its check point,
   * as one function: Koa composes a copy of its list when it starts, so the conventions run the
   * rest of the list themselves, read afresh, and middleware added later is covered too.
   */
  rest(middleware: Middleware[], own: Middleware): Rest;
  /**
   * For a chain the conventions cannot put check points in (their middleware wrapped by an APM
   * agent, or composed into other middleware): one check before all of it, as for middleware the
   * library cannot read — a caller without credentials passes only on the way to an open route of
   * a router it can read.
   */
  unknownChain(ctx: Context, middleware: readonly Middleware[], next: Next): unknown;
  /** The settings of the route a request entered, for a guard on it. */
  entered(ctx: Context): RouteSettings | undefined;
  /** The app's routes, for the route view. */
  appRoutes(middleware: readonly Middleware[]): AppRoute[];
  /** A number that changes when routes or middleware are added. */
  size(middleware: readonly Middleware[]): number;
}

/** The settings a route's guard declares, read through the marks on its stack. */
function guardOf(layer: KoaLayer): RouteConfig | undefined {
  for (const fn of layer.stack) {
    const guard = markOf(fn)?.guard;
    if (guard !== undefined) return guard;
  }
  return undefined;
}

/** The rest of an app's middleware, run for one request. */
type Rest = (ctx: Context) => Promise<void>;

/** Builds the check points of an app's conventions. */
export function koaCheckpoints(adapter: KoaCheckpointHost): KoaCheckpoints {
  const { host } = adapter;
  const covered = new WeakSet<object>();
  const entered = new WeakMap<Context, RouteSettings>();
  const lengths = new WeakMap<readonly unknown[], number>();

  const settingsOf = (layer: KoaLayer, method: string): RouteSettings => {
    const name = method === 'HEAD' && !layer.methods.includes('HEAD') ? 'GET' : method;
    return host.settingsFor(
      layer,
      name,
      String(layer.path),
      () => guardOf(layer),
      layer.stack.length,
    );
  };

  /** Whether a route among `layers` from `from` on, for this request, lets a caller in without credentials. */
  const openAhead = (layers: readonly KoaLayer[], from: number, ctx: Context): boolean => {
    for (let i = from; i < layers.length; i++) {
      const layer = layers[i]!;
      if (!layer.methods.includes(ctx.method) || !layer.match(ctx.path)) continue;
      if (host.opens(settingsOf(layer, ctx.method))) return true;
    }
    return false;
  };

  /** Runs what comes next once the check let the request through, or sends the refusal. */
  const enter = (checked: Step<ApiResponse | undefined>, ctx: Context, next: Next) => {
    const go = (refusal: ApiResponse | undefined) => {
      if (refusal !== undefined) return adapter.send(ctx, refusal);
      adapter.copyHeaders(ctx);
      return next();
    };
    return checked instanceof Promise ? checked.then(go) : go(checked);
  };

  const coverRouter = (router: KoaRouter): void => {
    const { stack } = router;
    if (lengths.get(stack) === stack.length) return;
    lengths.set(stack, stack.length);
    for (const layer of stack) {
      if (covered.has(layer)) continue;
      covered.add(layer);
      const point: Middleware =
        layer.methods.length > 0
          ? (ctx, next) => {
              if (host.held(ctx) === undefined) return next();
              const settings = settingsOf(layer, ctx.method);
              entered.set(ctx, settings);
              return enter(host.check(ctx, settings, ctx.params), ctx, next);
            }
          : (ctx, next) => {
              if (host.held(ctx) === undefined) return next();
              const ahead = () => openAhead(stack, stack.indexOf(layer) + 1, ctx);
              return enter(host.check(ctx, undefined, undefined, ahead), ctx, next);
            };
      layer.stack.unshift(markStep(point, { own: true }));
    }
  };

  const cover = (middleware: Middleware[]): void => {
    if (lengths.get(middleware) !== middleware.length) coverApp(middleware);
    for (const fn of middleware) {
      const router = routerOf(fn);
      if (router !== undefined) coverRouter(router);
    }
  };

  const coverApp = (middleware: Middleware[]): void => {
    lengths.set(middleware, middleware.length);
    for (let at = 0; at < middleware.length; at++) {
      const fn = middleware[at]!;
      if (covered.has(fn)) continue;
      covered.add(fn);
      if (routerOf(fn) !== undefined || markOf(fn) !== undefined) continue;
      // Middleware the library cannot read: a caller without credentials passes it only on the
      // way to an open route of a router behind it.
      const point: Middleware = (ctx, next) => {
        if (host.held(ctx) === undefined) return fn(ctx, next);
        const ahead = () =>
          middleware
            .slice(middleware.indexOf(point) + 1)
            .some((later) => openAhead(routerOf(later)?.stack ?? [], 0, ctx));
        return enter(host.check(ctx, undefined, undefined, ahead), ctx, () => fn(ctx, next));
      };
      covered.add(markStep(point, { own: true }));
      middleware[at] = point;
    }
  };

  const appRoutes = (middleware: readonly Middleware[]): AppRoute[] => {
    const routes: AppRoute[] = [];
    for (const fn of middleware) {
      for (const layer of routerOf(fn)?.stack ?? []) {
        if (typeof layer.path !== 'string') continue;
        const config = guardOf(layer);
        for (const method of layer.methods) {
          // @koa/router adds HEAD to every GET route; the view serves HEAD with GET itself.
          if (method === 'HEAD' && layer.methods.includes('GET')) continue;
          routes.push({ method, pattern: layer.path, config });
        }
      }
    }
    return routes;
  };

  const size = (middleware: readonly Middleware[]): number => {
    let n = middleware.length;
    for (const fn of middleware) n += routerOf(fn)?.stack.length ?? 0;
    return n;
  };

  const composed = new WeakMap<Middleware[], { length: number; run: Rest }>();
  const rest = (middleware: Middleware[], own: Middleware): Rest => {
    cover(middleware);
    let known = composed.get(middleware);
    if (known?.length !== middleware.length) {
      const chain = middleware.slice(middleware.indexOf(own) + 1);
      known = { length: middleware.length, run: (ctx) => dispatch(chain, 0, ctx) };
      composed.set(middleware, known);
    }
    return known.run;
  };

  const unknownChain = (ctx: Context, middleware: readonly Middleware[], next: Next) => {
    const ahead = () => middleware.some((fn) => openAhead(routerOf(fn)?.stack ?? [], 0, ctx));
    return enter(host.check(ctx, undefined, undefined, ahead), ctx, next);
  };

  return { cover, rest, unknownChain, entered: (ctx) => entered.get(ctx), appRoutes, size };
}

/** Runs `chain` from `at` as Koa would: each piece gets a `next` that runs the one after it. */
async function dispatch(chain: readonly Middleware[], at: number, ctx: Context): Promise<void> {
  const fn = chain[at];
  if (fn === undefined) return;
  let called = false;
  await fn(ctx, () => {
    if (called) return Promise.reject(new Error('next() called multiple times'));
    called = true;
    return dispatch(chain, at + 1, ctx);
  });
}
