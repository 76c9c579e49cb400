/**
 * The pipeline's own steps, in request order. A request is matched against the route view when
 * its context is opened; then the front (pre-routing, path rules, and on a matched route its
 * checks), then the rest (a table route's body and handler, or the router's answers), then the
 * response phases. Hosts with a router of their own run the front before it and the rest behind it.
 */

import type { ApiResponse, OutgoingResponse } from '../http/response.ts';
import type { RouteInfo } from '../routing/table.ts';
import type { RouteSettings } from '../routing/types.ts';
import { allowAnswer, noRoute, upperCasePath, wrongMethod } from './answers.ts';
import type { RequestContext } from './context.ts';
import type { ResolvedConventionsOptions } from './options.ts';
import type { CheckResult, Guarded } from './plugin.ts';
import { runPreRouting } from './pre-routing.ts';
import { checkRequest, prepareBody, toOutgoing } from './request.ts';
import { failure, respond } from './respond.ts';
import { andThen, attempt, type Step } from './steps.ts';

type Settings = ResolvedConventionsOptions;

/**
 * Runs a step to its outgoing response (a failure becomes its error), then the response phases.
 *
 * @category Plugins and pipeline
 */
export function run(
  settings: Settings,
  ctx: RequestContext,
  step: () => Step<OutgoingResponse>,
): Step<ApiResponse> {
  return andThen(
    attempt(step, (error) => failure(ctx, error, settings.logger)),
    (out) => respond(settings.response, ctx, out),
  );
}

/**
 * The path rules that hold before routing: well-formed encoding (400), lower case (404).
 *
 * @category Plugins and pipeline
 */
export function pathRules(ctx: RequestContext): OutgoingResponse | undefined {
  if (ctx.problem !== undefined) throw ctx.problem;
  return ctx.upperCase ? upperCasePath(ctx) : undefined;
}

/** A check's early reply as the outgoing response, or `undefined` to go on. */
function early(settings: Settings, ctx: RequestContext, result: CheckResult) {
  return result === undefined ? undefined : toOutgoing(settings, ctx, result);
}

/**
 * The front of every request: the `onRequest` hooks, the path rules, then, when a route matched
 * (the table's or the host's), authentication and the `preParsing` checks. An early answer, or
 * `undefined` to go on. Throws what a hook threw.
 *
 * @category Plugins and pipeline
 */
export function front(settings: Settings, ctx: RequestContext): Step<OutgoingResponse | undefined> {
  const checks = (): Step<OutgoingResponse | undefined> => {
    const stop = pathRules(ctx);
    if (stop !== undefined || ctx.route === undefined) return stop;
    return andThen(checkRequest(settings, ctx), (r) => early(settings, ctx, r));
  };
  ctx.preRouted = true;
  if (settings.onRequest.length === 0) return checks();
  return andThen(runPreRouting(settings, ctx), (r) =>
    r === undefined ? checks() : toOutgoing(settings, ctx, r),
  );
}

/** Pre-routing alone, for an answer a host raised before its hooks ran (Fastify's bad URL). */
function preRouting(settings: Settings, ctx: RequestContext): Step<OutgoingResponse | undefined> {
  ctx.preRouted = true;
  if (settings.onRequest.length === 0) return pathRules(ctx);
  return andThen(runPreRouting(settings, ctx), (r) =>
    r === undefined ? pathRules(ctx) : toOutgoing(settings, ctx, r),
  );
}

/**
 * The rest of a request after the front: a table route's body, field rules, `preHandler` checks
 * and handler; otherwise the router's answer from the route view (404, 405 with `Allow`, or 204
 * with `Allow` for OPTIONS).
 *
 * @category Plugins and pipeline
 */
export function rest(settings: Settings, ctx: RequestContext): Step<OutgoingResponse> {
  const route = ctx.route;
  if (route === undefined || route.host) {
    // A host may answer before its hooks ran (Fastify's bad percent-encoding): pre-routing first.
    const early = ctx.preRouted ? pathRules(ctx) : preRouting(settings, ctx);
    return andThen(early, (answer) => answer ?? unmatched(ctx));
  }
  return andThen(prepareBody(settings, ctx, ctx.input), (stop) =>
    stop === undefined
      ? andThen((route as RouteInfo).handler(ctx), (result) => toOutgoing(settings, ctx, result))
      : toOutgoing(settings, ctx, stop),
  );
}

/**
 * The router's answers: with a host route matched but not answered by the host, or no methods on
 * the path, 404 naming the path; else 204 with `Allow` for OPTIONS, 405 with `Allow` otherwise.
 *
 * @category Plugins and pipeline
 */
export function unmatched(ctx: RequestContext): OutgoingResponse {
  const methods = ctx.allowed;
  if (ctx.route !== undefined || methods.length === 0) return noRoute(ctx);
  return ctx.method === 'OPTIONS' ? allowAnswer(ctx, methods) : wrongMethod(ctx, methods);
}

/**
 * The front for a host with its own router: the response that stops the request, or `undefined`.
 *
 * @category Plugins and pipeline
 */
export function begin(settings: Settings, ctx: RequestContext): Step<ApiResponse | undefined> {
  const stop = attempt(
    () => front(settings, ctx),
    (error) => failure(ctx, error, settings.logger),
  );
  return andThen(stop, (out) =>
    out === undefined ? undefined : respond(settings.response, ctx, out),
  );
}

/**
 * What happens before a host's own handler that the front did not do: the body and its field
 * rules, then the `preHandler` checks. With `own` settings for a route the view does not hold,
 * the route's checks run first (the front could not know it).
 *
 * @category Plugins and pipeline
 */
export function guardRoute(
  settings: Settings,
  ctx: RequestContext,
  own: RouteSettings | undefined,
  params: Record<string, string> | undefined,
): Step<Guarded> {
  const stop = (out: OutgoingResponse): Step<Guarded> =>
    andThen(respond(settings.response, ctx, out), (response) => ({ response }));
  const body = (): Step<Guarded> =>
    andThen(prepareBody(settings, ctx, ctx.input), (r: CheckResult) =>
      r === undefined
        ? { response: undefined, body: ctx.body }
        : stop(toOutgoing(settings, ctx, r)),
    );
  const held = ctx.route?.host === true;
  return attempt(
    () => {
      if (held || own === undefined)
        return ctx.route === undefined ? { response: undefined, body: ctx.body } : body();
      ctx.route = own;
      if (params !== undefined) ctx.params = params;
      return andThen(checkRequest(settings, ctx), (r) =>
        r === undefined ? body() : stop(toOutgoing(settings, ctx, r)),
      );
    },
    (error) => stop(failure(ctx, error, settings.logger)),
  );
}
