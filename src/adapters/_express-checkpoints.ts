/**
 * Check points on the app's Express layers (the core's `bindCheckpoints`): every route, mounted Router
 * and piece of middleware of the app's stack gets one in front of its handler, wrapping whatever
 * is there (an APM agent's wrapper included), so that it is checked as Express enters it. Here is
 * only how Express's layers are read, and the wrapper each gets.
 */
import type { Conventions, ConventionsOptions } from 'api-conventions';
import type { NextFunction, Request, Response } from 'express';
import {
  type ApiResponse,
  bindCheckpoints,
  type CheckpointHost,
  markOf,
  passesThrough,
  type StackProbe,
  type Step,
} from '#core';
import { inputOf } from './_express-io.ts';
import {
  appRouter,
  catchesErrors,
  type ExpressRoute,
  type Layer,
  mountPath,
  routerOf,
} from './_express-routes.ts';
import { setNodeHeaders, writeResponse } from './_node-write.ts';

type Handle = (req: Request, res: Response, next: NextFunction) => unknown;

/** The check points of an Express app, with the bound host they check with. */
export type ExpressCheckpoints = CheckpointHost<Request, Layer, ExpressRoute>;

/** How the check points read Express's layers. */
export const expressProbe: StackProbe<Request, Layer, ExpressRoute> = {
  route: (layer) => layer.route,
  router: (layer) => routerOf(layer.handle)?.stack,
  match(layer, path) {
    const result = layer.match(path);
    if (result === false) return undefined;
    return typeof result === 'object' ? result.path : (layer.path ?? '');
  },
  mount: (layer) => mountPath(layer) ?? layer.regexp,
  methods: ({ methods }) =>
    Object.keys(methods)
      .filter((name) => methods[name] === true)
      .map((name) => (name === '_all' ? 'ALL' : name.toUpperCase())),
  pattern: (route) => route.path,
  handlers: (route) => route.stack ?? [],
  method: (req) => req.method,
  // Middleware mounted on the whole path (`app.use('/{*path}', …)`, `app.use('/v1/x', …)`) sees
  // `req.url` as "/": the request's path is its base, unless it ended with a slash.
  path(req) {
    const rest = pathOf(req.url);
    const whole = rest === '/' && req.baseUrl !== '' && !pathOf(req.originalUrl).endsWith('/');
    return whole ? req.baseUrl : req.baseUrl + rest;
  },
};

/** Binds the conventions to an Express app through check points: the bound host is theirs. */
export function expressCheckpoints(api: Conventions | ConventionsOptions): ExpressCheckpoints {
  /** Runs the app's handler once the check let the request through, or sends the refusal. */
  const enter =
    (check: (req: Request) => Step<ApiResponse | undefined>, inner: Handle): Handle =>
    (req, res, next) =>
      // Express 5 hands a rejected promise of a handler to `next`; here the handler runs later.
      kit.enter(req, check(req), () => inner(req, res, next), next);

  const kit: ExpressCheckpoints = bindCheckpoints(api, {
    input: inputOf,
    stack: (req) => appRouter(req.app)?.stack ?? [],
    probe: expressProbe,
    headers: (req, values) => setNodeHeaders(req.res!, values),
    refuse: (req, refusal) => writeResponse(req.res!, refusal, kit.host.logger),
    place(stack, at, point) {
      const layer = stack[at]!;
      const handle = layer.handle as Handle | undefined;
      if (typeof handle !== 'function') return undefined;
      // Error middleware runs only for an error a handler raised.
      if (catchesErrors(handle)) return undefined;
      let checkpoint: Handle;
      if (point.kind === 'route') {
        checkpoint = enter((req) => kit.route(req, point.route, req.params as never), handle);
      } else if (markOf(handle) !== undefined) {
        // The conventions' own steps: `before`, `after` and a guard outside a route check themselves.
        return undefined;
      } else if (point.kind === 'router') {
        checkpoint = (req, res, next) => {
          const leave = kit.into(req, stack, layer, req.baseUrl);
          // The Router hands the request back through `next` when nothing in it answered.
          return handle(req, res, (error?: unknown) => {
            leave();
            next(error as never);
          });
        };
      } else if (passesThrough(handle)) return undefined;
      else checkpoint = enter((req) => kit.middleware(req, stack, layer), handle);
      // Kept as `__original`, as shimmer does: readers of the stack (ours included) see through it.
      Object.defineProperty(checkpoint, '__original', { value: handle });
      layer.handle = checkpoint as Layer['handle'];
      return layer;
    },
  });
  return kit;
}

/** The path of a request target, without its query. */
function pathOf(url: string): string {
  const q = url.indexOf('?');
  return q === -1 ? url : url.slice(0, q);
}
