/**
 * The pre-routing hooks: in plugin order until one answers, then the hooks of the plugins that
 * see every request (a rate limit), so that no answer, early or the host's own, goes uncounted.
 */
import { isApiError } from '../errors/api-error.ts';
import { toApiError } from '../errors/from-http-error.ts';
import type { ResponseHeaders } from '../http/headers.ts';
import type { HeaderReader } from '../http/response.ts';
import { RequestContext, runOf } from '../kernel/context.ts';
import type { CheckResult } from '../kernel/plugin.ts';
import { Phase } from '../kernel/run.ts';
import { attempt, isPromise, type Step } from '../kernel/steps.ts';
import {
  type Refusal,
  type RefusalResponse,
  refusalError,
  toRefusalResponse,
} from '../limits/index.ts';
import type { ResolvedConventionsOptions } from './options.ts';

type Options = ResolvedConventionsOptions;

/** How pre-routing was answered before the hooks that see every request ran: a reply, or an error. */
type Early =
  | { readonly failed: false; readonly value: CheckResult }
  | { readonly failed: true; readonly value: unknown };

const replied = (value: CheckResult): Early => ({ failed: false, value });
const threw = (value: unknown): Early => ({ failed: true, value });

/**
 * Runs the `onRequest` hooks in order until one answers (a reply, or a thrown error); the hooks
 * of plugins that see every request after it still run, and the first error one of them throws
 * (a 429) replaces the answer. Synchronous until a hook is not.
 */
export function runPreRouting(options: Options, ctx: RequestContext, from = 0): Step<CheckResult> {
  const hooks = options.onRequest;
  for (let i = from; i < hooks.length; i++) {
    let result: Step<CheckResult>;
    try {
      result = hooks[i]!(ctx);
    } catch (error) {
      return everyRequest(options, ctx, i + 1, threw(error));
    }
    if (result === undefined) continue;
    if (isPromise<CheckResult>(result)) {
      return result.then(
        (reply) =>
          reply === undefined
            ? runPreRouting(options, ctx, i + 1)
            : everyRequest(options, ctx, i + 1, replied(reply)),
        (error: unknown) => everyRequest(options, ctx, i + 1, threw(error)),
      );
    }
    return everyRequest(options, ctx, i + 1, replied(result));
  }
  return undefined;
}

/**
 * Runs, from hook `from` on, the `onRequest` hooks of the plugins that see every request, on a
 * request already answered by `early`; then gives that answer: its reply, or its error thrown.
 * What those hooks return is ignored; the first error they throw becomes the answer.
 */
function everyRequest(
  options: Options,
  ctx: RequestContext,
  from: number,
  early: Early,
  replaced = false,
): Step<CheckResult> {
  const hooks = options.onRequest;
  const every = options.everyRequest;
  for (let i = from; i < hooks.length; i++) {
    if (!every[i]) continue;
    let result: Step<CheckResult>;
    try {
      result = hooks[i]!(ctx);
    } catch (error) {
      if (!replaced) early = threw(error);
      replaced = true;
      continue;
    }
    if (isPromise<CheckResult>(result)) {
      const answer = early;
      const done = replaced;
      return result.then(
        () => everyRequest(options, ctx, i + 1, answer, done),
        (error: unknown) => everyRequest(options, ctx, i + 1, done ? answer : threw(error), true),
      );
    }
  }
  if (early.failed) throw early.value;
  return early.value;
}

/**
 * Has the plugins that see every request see an error raised before pre-routing ran (by a host,
 * before its hooks), then throws it, or the error one of them threw instead (a 429).
 */
export function raiseUnrouted(options: Options, ctx: RequestContext, error: unknown): Step<never> {
  const run = runOf(ctx);
  if (run.reached(Phase.preRouted) || !options.everyRequest.includes(true)) throw error;
  run.reach(Phase.preRouted);
  return everyRequest(options, ctx, 0, threw(error)) as Step<never>;
}

// A request the host could not read: nothing of it is known but where it came from.
const noHeaders: HeaderReader = { get: () => undefined };

/**
 * The answer to a request a host refused before the pipeline could read it, once the plugins
 * that see every request saw it, known by the client's address alone (a request from a trusted
 * proxy is not counted: the client behind it is unknown). Their headers join the answer, and
 * an error one of them throws (a 429) is answered instead. Never rejects.
 */
export function countedRefusal(
  options: Options,
  kind: Refusal,
  remoteAddress: string | undefined,
  uncounted: RefusalResponse,
): Step<RefusalResponse> {
  if (!options.everyRequest.includes(true)) return uncounted;
  const { trust } = options;
  if (remoteAddress !== undefined && trust(remoteAddress, 0)) return uncounted;
  const input = { method: '', url: '/', headers: noHeaders, remoteAddress };
  const ctx = new RequestContext(input, '/', '', trust);
  const run = runOf(ctx);
  run.logs = options.logs;
  run.reach(Phase.preRouted);
  const headers = (): ResponseHeaders => ({
    ...options.response.alwaysOn,
    ...(ctx.hasResponseHeaders ? ctx.responseHeaders.record : {}),
  });
  const passed = (): RefusalResponse =>
    ctx.hasResponseHeaders
      ? toRefusalResponse(refusalError(kind, options.uriLimit), headers())
      : uncounted;
  const refused = (error: unknown): RefusalResponse => {
    const apiError = toApiError(error);
    if (!isApiError(error) && apiError.status >= 500) {
      options.logger.error({ err: error }, 'a plugin failed on a request the host answered');
    }
    return toRefusalResponse(apiError, headers());
  };
  return attempt(() => {
    const seen = everyRequest(options, ctx, 0, replied(undefined));
    return isPromise(seen) ? seen.then(passed) : passed();
  }, refused);
}
