/**
 * The pipeline's own steps, in request order. A request is matched against the route view when
 * its context is opened; then the front (pre-routing, path rules, and on a matched route its
 * checks), then the rest (a table route's body and handler, or the router's answers), then the
 * response phases. Hosts with a router of their own run the front before it and the rest behind it.
 */

import type { ApiResponse, OutgoingResponse } from '../http/response.ts';
import { type RequestContext, runOf } from '../kernel/context.ts';
import type { CheckResult } from '../kernel/plugin.ts';
import type { RouteInfo } from '../kernel/route-table.ts';
import { Phase } from '../kernel/run.ts';
import { andThen, attempt, type Step } from '../kernel/steps.ts';
import { allowAnswer, noRoute, upperCasePath, wrongMethod } from './answers.ts';
import { checkMatch, type HostMatch } from './fail-closed.ts';
import type { ResolvedConventionsOptions } from './options.ts';
import { runPreRouting } from './pre-routing.ts';
import { checkRequest, prepareBody, toOutgoing } from './request.ts';
import { failure, respond } from './respond.ts';

type Options = ResolvedConventionsOptions;

/**
 * Runs a step to its outgoing response (a failure becomes its error), then the response phases.
 *
 * @category Plugins and pipeline
 */
export function run(
  options: Options,
  ctx: RequestContext,
  step: () => Step<OutgoingResponse>,
): Step<ApiResponse> {
  return andThen(
    attempt(step, (error) => failure(ctx, error, options.logger)),
    (out) => respond(options.response, ctx, out),
  );
}

/**
 * The path rules that hold before routing: well-formed encoding (400), lower case (404).
 */
function pathRules(ctx: RequestContext): OutgoingResponse | undefined {
  const run = runOf(ctx);
  if (run.problem !== undefined) throw run.problem;
  return run.upperCase ? upperCasePath(ctx) : undefined;
}

/** A check's early reply as the outgoing response, or `undefined` to go on. */
function early(options: Options, ctx: RequestContext, result: CheckResult) {
  return result === undefined ? undefined : toOutgoing(options, ctx, result);
}

/**
 * The front of every request: the `onRequest` hooks, the path rules, then the checks of the route
 * that serves it: on a host with a router of its own, decided on what `match` says that host will
 * run (src/core/pipeline/fail-closed.ts); on a host whose adapter checks what the host enters as it
 * enters it (`match` is `null`: check points), none here; where the library routes (no `match`,
 * or a `match` that gives `undefined`), on the route view's match. An early answer, or `undefined`
 * to go on. Throws what a hook threw.
 *
 * @category Plugins and pipeline
 */
export function front(
  options: Options,
  ctx: RequestContext,
  match?: (() => HostMatch | undefined) | null,
): Step<OutgoingResponse | undefined> {
  // What the host will run is read first: the plugins that see every request (a rate limit)
  // tell from it whether the request goes on to authentication.
  const run = runOf(ctx);
  const found = match?.();
  if (found !== undefined) run.routed = found.routes.length > 0;
  const checks = (): Step<OutgoingResponse | undefined> => {
    const stop = pathRules(ctx);
    if (stop !== undefined || match === null) return stop;
    if (found !== undefined) {
      return andThen(checkMatch(options, ctx, found), (r) => early(options, ctx, r));
    }
    if (ctx.route === undefined) return undefined;
    run.checked = ctx.route;
    run.reach(Phase.checked);
    return andThen(checkRequest(options, ctx), (r) => early(options, ctx, r));
  };
  run.reach(Phase.preRouted);
  if (options.onRequest.length === 0) return checks();
  return andThen(runPreRouting(options, ctx), (r) =>
    r === undefined ? checks() : toOutgoing(options, ctx, r),
  );
}

/**
 * Pre-routing alone, for an answer a host raised before its hooks ran (Fastify's bad URL).
 */
function preRouting(options: Options, ctx: RequestContext): Step<OutgoingResponse | undefined> {
  runOf(ctx).reach(Phase.preRouted);
  if (options.onRequest.length === 0) return pathRules(ctx);
  return andThen(runPreRouting(options, ctx), (r) =>
    r === undefined ? pathRules(ctx) : toOutgoing(options, ctx, r),
  );
}

/**
 * The rest of a request after the front: a table route's body, field rules, `preHandler` checks
 * and handler; otherwise the router's answer from the route view (404, 405 with `Allow`, or 204
 * with `Allow` for OPTIONS).
 *
 * @category Plugins and pipeline
 */
export function rest(options: Options, ctx: RequestContext): Step<OutgoingResponse> {
  const route = ctx.route;
  if (route === undefined || route.app) return answerUnrouted(options, ctx);
  return handleRoute(options, ctx, route as RouteInfo);
}

/**
 * A table route's body, field rules, `preHandler` checks and handler, its checks done.
 *
 * @category Plugins and pipeline
 */
export function handleRoute(
  options: Options,
  ctx: RequestContext,
  route: RouteInfo,
): Step<OutgoingResponse> {
  return andThen(prepareBody(options, ctx, runOf(ctx).input), (stop) =>
    stop === undefined
      ? andThen(route.handler(ctx), (result) => toOutgoing(options, ctx, result))
      : toOutgoing(options, ctx, stop),
  );
}

/**
 * What the router answers a request no handler served: pre-routing first when the host answered
 * before its hooks ran (Fastify's bad percent-encoding), the path rules, then {@link unmatched}.
 *
 * @category Plugins and pipeline
 */
export function answerUnrouted(options: Options, ctx: RequestContext): Step<OutgoingResponse> {
  const early = runOf(ctx).reached(Phase.preRouted) ? pathRules(ctx) : preRouting(options, ctx);
  return andThen(early, (answer) => answer ?? unmatched(ctx));
}

/**
 * The router's answers: 204 with `Allow` for OPTIONS on a path with methods; with a route matched
 * but not answered by the host, no methods on the path, or a method it has that nothing served,
 * 404 naming the path; 405 with `Allow` otherwise.
 */
function unmatched(ctx: RequestContext): OutgoingResponse {
  const methods = ctx.allowed;
  if (ctx.method === 'OPTIONS' && methods.length > 0) return allowAnswer(ctx, methods);
  // A method the path has, that no handler served (a host that does not serve the table), is
  // nothing found too.
  if (ctx.route !== undefined || methods.length === 0 || methods.includes(ctx.method)) {
    return noRoute(ctx);
  }
  return wrongMethod(ctx, methods);
}
