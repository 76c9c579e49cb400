/**
 * Check points in a Koa app (the core's `bindCheckpoints`): every route of an @koa/router router gets
 * one at the head of its stack, and every other piece of the app's middleware one in front of it,
 * so that "may this caller run this?" is decided as Koa enters each, with the settings of exactly
 * what it entered. Here is only how Koa's middleware and routers are read, and the check point
 * each gets.
 */
import type { Conventions, ConventionsOptions } from 'api-conventions';
import type { Context, Middleware, Next } from 'koa';
import {
  type ApiResponse,
  bindCheckpoints,
  type CheckpointHost,
  markOf,
  markStep,
  originalOf,
  type StackProbe,
  type Step,
} from '#core';
import { nodeInput } from './_node-io.ts';
import { setNodeHeaders } from './_node-write.ts';

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
const routerOf = (fn: unknown): KoaRouter | undefined =>
  typeof fn === 'function'
    ? ((fn as { router?: KoaRouter }).router ?? (originalOf(fn) as { router?: KoaRouter }).router)
    : undefined;

const strictFix = 'create it with new Router({ strict: true, sensitive: true }).';

/** A place in a Koa stack: app middleware (a function), or a layer of a router. */
type KoaEntry = Middleware | KoaLayer;

/** How the check points read Koa's middleware and @koa/router's layers. */
const koaProbe: StackProbe<Context, KoaEntry, KoaLayer> = {
  route: (entry) => (typeof entry !== 'function' && entry.methods.length > 0 ? entry : undefined),
  router: (entry) => (typeof entry === 'function' ? routerOf(entry)?.stack : undefined),
  match: (entry, path) => (typeof entry === 'function' || entry.match(path) ? '' : undefined),
  mount: () => '',
  methods: (layer) => layer.methods,
  pattern: (layer) => layer.path,
  handlers: (layer) => layer.stack,
  method: (ctx) => ctx.method,
  path: (ctx) => ctx.path,
};

/** The rest of an app's middleware, run for one request. */
type Rest = (ctx: Context) => Promise<void>;

/** The check points of one app, and the ways the conventions' middleware runs the app's. */
export interface KoaCheckpoints extends CheckpointHost<Context, KoaEntry, KoaLayer> {
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
  unknownChain(ctx: Context, middleware: Middleware[], next: Next): unknown;
  /** The route whose check point the request passed last, for a guard on it. */
  entered(ctx: Context): KoaLayer | undefined;
}

/** Binds the conventions to a Koa app through check points: `send` writes a refusal. */
export function koaCheckpoints(
  api: Conventions | ConventionsOptions,
  send: (ctx: Context, response: ApiResponse) => unknown,
): KoaCheckpoints {
  /** Runs what comes next once the check let the request through, or sends the refusal. */
  const enter = (checked: Step<ApiResponse | undefined>, ctx: Context, next: () => unknown) =>
    kit.enter(ctx, checked, next);

  const entered = new WeakMap<Context, KoaLayer>();
  const kit: CheckpointHost<Context, KoaEntry, KoaLayer> = bindCheckpoints(api, {
    input: (ctx) => nodeInput(ctx.req, ctx.originalUrl, ctx),
    stack: (ctx) => ctx.app.middleware,
    probe: koaProbe,
    headers: (ctx, headers) => setNodeHeaders(ctx.res, headers),
    refuse: send,
    place(stack, at, point) {
      const entry = stack[at]!;
      if (point.kind === 'router') {
        const router = routerOf(entry)!;
        kit.loose(router, () => router.opts?.strict === true, strictFix);
        return undefined;
      }
      if (typeof entry === 'function') {
        if (markOf(entry) !== undefined) return undefined;
        // Middleware the library cannot read: a caller without credentials passes it only on the
        // way to an open route of a router behind it.
        const self: Middleware = (ctx, next) =>
          enter(kit.middleware(ctx, stack, self), ctx, () => entry(ctx, next));
        stack[at] = markStep(self, { own: true });
        return self;
      }
      const step: Middleware =
        point.kind === 'route'
          ? (ctx, next) => {
              if (kit.host.held(ctx) !== undefined) entered.set(ctx, point.route);
              return enter(kit.route(ctx, point.route, ctx.params), ctx, next);
            }
          : (ctx, next) => enter(kit.middleware(ctx, stack, entry), ctx, next);
      entry.stack.unshift(markStep(step, { own: true }));
      return entry;
    },
  });

  const composed = new WeakMap<Middleware[], { length: number; run: Rest }>();
  const rest = (middleware: Middleware[], own: Middleware): Rest => {
    kit.cover(middleware);
    let known = composed.get(middleware);
    if (known?.length !== middleware.length) {
      const chain = middleware.slice(middleware.indexOf(own) + 1);
      known = { length: middleware.length, run: (ctx) => dispatch(chain, 0, ctx) };
      composed.set(middleware, known);
    }
    return known.run;
  };

  const unknownChain = (ctx: Context, middleware: Middleware[], next: Next) =>
    enter(kit.middleware(ctx, middleware, undefined), ctx, next);

  return { ...kit, rest, unknownChain, entered: (ctx) => entered.get(ctx) };
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
