/** The pipeline's own steps, in request order: pre-routing, routing's answers, a route's phases. */

import type { ApiResponse, OutgoingResponse } from '../http/response.ts';
import { allowList } from '../routing/router.ts';
import type { RouteInfo, RouteSettings } from '../routing/types.ts';
import { allowAnswer, noRoute, upperCasePath, wrongMethod } from './answers.ts';
import { type RequestContext, routable } from './context.ts';
import type { ResolvedConventionsOptions } from './options.ts';
import type { CheckResult, Guarded } from './plugin.ts';
import { runPreRouting } from './pre-routing.ts';
import { prepare, toOutgoing } from './request.ts';
import { failure, respond } from './respond.ts';
import { andThen, attempt, type Step } from './steps.ts';

type Settings = ResolvedConventionsOptions;

/**
 * What a host with routes of its own beside the table tells `Conventions.handle`.
 *
 * @category Plugins and pipeline
 */
export interface HostRouting {
  /** The context the host opened and ran `beforeRouting` on, so pre-routing hooks do not run twice. */
  context?: RequestContext | undefined;
  /** The methods the host's own routes serve on a path the table does not know (for 405 and OPTIONS). */
  methodsOf?: ((path: string) => readonly string[]) | undefined;
}

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

/** Pre-routing: the `onRequest` hooks, then the path rules; an early answer, or `undefined`. */
function preRouting(settings: Settings, ctx: RequestContext): Step<OutgoingResponse | undefined> {
  ctx.preRouted = true;
  if (settings.onRequest.length === 0) return pathRules(ctx);
  return andThen(runPreRouting(settings, ctx), (early) =>
    early === undefined ? pathRules(ctx) : toOutgoing(settings, ctx, early),
  );
}

/**
 * Pre-routing for a host with its own router: the response that stops the request, or `undefined`.
 *
 * @category Plugins and pipeline
 */
export function beforeRouting(
  settings: Settings,
  ctx: RequestContext,
): Step<ApiResponse | undefined> {
  if (settings.onRequest.length === 0 && routable(ctx)) {
    ctx.preRouted = true;
    return undefined;
  }
  const early = attempt(
    () => preRouting(settings, ctx),
    (error) => failure(ctx, error, settings.logger),
  );
  return andThen(early, (out) =>
    out === undefined ? undefined : respond(settings.response, ctx, out),
  );
}

/**
 * A matched route's phases: checks, body, handler.
 *
 * @category Plugins and pipeline
 */
export function runRoute(
  settings: Settings,
  ctx: RequestContext,
  route: RouteInfo,
): Step<OutgoingResponse> {
  ctx.route = route;
  return andThen(prepare(settings, ctx, ctx.input), (early) =>
    early === undefined
      ? andThen(route.handler(ctx), (result) => toOutgoing(settings, ctx, result))
      : toOutgoing(settings, ctx, early),
  );
}

/**
 * The answer to a path no route of the table has: the host's methods for it, or 404.
 *
 * @category Plugins and pipeline
 */
export function unmatched(ctx: RequestContext, methods: readonly string[]): OutgoingResponse {
  if (methods.length === 0) return noRoute(ctx);
  return ctx.method === 'OPTIONS' ? allowAnswer(ctx, methods) : wrongMethod(ctx, methods);
}

/**
 * The answer to a request a host's router did not match, after the pre-routing phase when the
 * host raised it before its hooks ran (Fastify's bad percent-encoding), as every host routes.
 *
 * @category Plugins and pipeline
 */
export function hostUnmatched(
  settings: Settings,
  ctx: RequestContext,
  methods: readonly string[],
): Step<OutgoingResponse> {
  const early = ctx.preRouted ? pathRules(ctx) : preRouting(settings, ctx);
  return andThen(early, (answer) => answer ?? unmatched(ctx, methods));
}

/**
 * Routes a request through the table, after the pre-routing phase (once per request).
 *
 * @category Plugins and pipeline
 */
export function routeRequest(
  settings: Settings,
  ctx: RequestContext,
  host: HostRouting,
): Step<OutgoingResponse> {
  const found = routable(ctx) ? settings.router.lookup(ctx.method, ctx.path) : undefined;
  if (found !== undefined && found.kind !== 'notFound') {
    ctx.allowed = found.allow;
    if (found.kind === 'found') {
      ctx.route = found.route;
      ctx.params = found.params;
    }
  }
  const early = ctx.preRouted ? pathRules(ctx) : preRouting(settings, ctx);
  return andThen(early, (answer): Step<OutgoingResponse> => {
    if (answer !== undefined) return answer;
    if (found === undefined || found.kind === 'notFound') {
      return unmatched(ctx, found && host.methodsOf ? allowList(host.methodsOf(ctx.path)) : []);
    }
    if (found.kind === 'options') return allowAnswer(ctx, found.allow);
    if (found.kind === 'methodNotAllowed') return wrongMethod(ctx, found.allow);
    return runRoute(settings, ctx, found.route);
  });
}

/**
 * What happens before a native handler: checks, body and field rules, later checks.
 *
 * @category Plugins and pipeline
 */
export function guardRoute(
  settings: Settings,
  ctx: RequestContext,
  route: RouteSettings,
  params: Record<string, string>,
): Step<Guarded> {
  ctx.route = route;
  ctx.params = params;
  const stop = (out: OutgoingResponse): Step<Guarded> =>
    andThen(respond(settings.response, ctx, out), (response) => ({ response }));
  return attempt(
    () =>
      andThen(
        prepare(settings, ctx, ctx.input),
        (early: CheckResult): Step<Guarded> =>
          early === undefined
            ? { response: undefined, body: ctx.body }
            : stop(toOutgoing(settings, ctx, early)),
      ),
    (error) => stop(failure(ctx, error, settings.logger)),
  );
}
