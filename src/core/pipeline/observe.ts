/**
 * The observation hooks (`onReceive`, `onResponse`): every request's start and final status, for
 * the plugins that watch requests rather than decide them (telemetry, request ids). They cannot
 * answer; what they throw is logged, never answered.
 */
import { type RequestContext, runOf } from '../kernel/context.ts';
import { Phase } from '../kernel/run.ts';
import type { ResolvedConventionsOptions } from './options.ts';

type Options = ResolvedConventionsOptions;

/**
 * The plugins' `onReceive` hooks, as a request is received: before pre-routing, on every host.
 *
 * @category Plugins and pipeline
 */
export function received(options: Options, ctx: RequestContext): void {
  const hooks = options.onReceive;
  for (let i = 0; i < hooks.length; i++) {
    try {
      hooks[i]!(ctx);
    } catch (error) {
      ctx.logger.error({ err: error }, 'a plugin failed as a request was received');
    }
  }
}

/**
 * The plugins' `onResponse` hooks, once per request, with its final status.
 *
 * @category Plugins and pipeline
 */
export function responded(options: Options, ctx: RequestContext, status: number): void {
  const run = runOf(ctx);
  if (run.reached(Phase.answered)) return;
  run.reach(Phase.answered);
  const hooks = options.onResponse;
  for (let i = 0; i < hooks.length; i++) {
    try {
      hooks[i]!(ctx, status);
    } catch (error) {
      ctx.logger.error({ err: error }, 'a plugin failed as a response was done');
    }
  }
}
