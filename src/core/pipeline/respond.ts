/** The response phases, in order: transform → serialize → send → always-on headers → HEAD. */
import type { Logger } from '../errors/logger.ts';
import { errorToOutgoing } from '../http/error-response.ts';
import type { ResponseHeaders } from '../http/headers.ts';
import type { ApiResponse, OutgoingResponse, SentResponse } from '../http/response.ts';
import { utf8Length } from '../http/response.ts';
import { compiled } from '../internal/platform.ts';
import { type RequestContext, runOf } from '../kernel/context.ts';
import { andThen, attempt, runAll, type Step } from '../kernel/steps.ts';
import { startHeaders } from './answers.ts';
import { checkResponse } from './schemas.ts';
import type { SerializerRegistry } from './serialize.ts';

/**
 * What the response phases run, compiled once from the plugins.
 *
 * @category Plugins and pipeline
 */
export interface ResponsePlan {
  /** Transform hooks (`preSerialization`), in plugin order. */
  transform: ((ctx: RequestContext, out: OutgoingResponse) => Step<void>)[];
  /** Send hooks (`onSend`), in plugin order. */
  send: ((ctx: RequestContext, sent: SentResponse) => Step<void>)[];
  /** The serializers by media type. */
  serializers: SerializerRegistry;
  /** Headers on every response, checked at start-up. */
  alwaysOn: Readonly<ResponseHeaders>;
  /** Sets each of `alwaysOn` a response has not set itself ({@link alwaysOnFill}). */
  fillAlwaysOn: AlwaysOnFill;
  /** Where 5xx faults go. */
  logger: Logger;
  /** Development mode: response values are checked against the route's `response` schemas. */
  development?: boolean;
}

/**
 * The error response for a failure of this request, before serialization. It keeps the headers
 * plugins added to the context (`Vary`, rate-limit counters) and adds the error's own.
 *
 * @category Plugins and pipeline
 */
export function failure(ctx: RequestContext, error: unknown, logger: Logger): OutgoingResponse {
  // A fault is logged with the request's context (its route, id and trace) where it has one.
  const log = runOf(ctx).logs === undefined ? logger : ctx.logger;
  const { status, headers, body } = errorToOutgoing(error, log, {
    method: ctx.method,
    path: ctx.path,
  });
  // The error's own headers were checked when its bag was built: merging them cannot throw.
  return { status, headers: startHeaders(ctx).merge(headers), body, type: undefined };
}

/**
 * Runs the response phases; never throws: a failing phase yields an error that runs the later ones.
 *
 * @category Plugins and pipeline
 */
export function respond(
  plan: ResponsePlan,
  ctx: RequestContext,
  out: OutgoingResponse,
): Step<ApiResponse> {
  // The handler's value, before the transforms shape it: what a kept text was written from.
  const given = out.body;
  if (plan.transform.length === 0) return serialized(plan, ctx, out, given);
  return attempt(
    () => andThen(runAll(plan.transform, ctx, out), () => serialized(plan, ctx, out, given)),
    (error) => serialized(plan, ctx, failure(ctx, error, plan.logger), undefined),
  );
}

function serialized(
  plan: ResponsePlan,
  ctx: RequestContext,
  out: OutgoingResponse,
  given: unknown,
): Step<ApiResponse> {
  // After the transform phase: the envelope, the selected fields and the links, as sent.
  if (plan.development && plan.logger.warn) {
    checkResponse(ctx.logger, ctx, out.status, out.body);
  }
  let sent: SentResponse;
  try {
    sent = plan.serializers.serialize(ctx, out, given);
  } catch (error) {
    // A body its serializer cannot represent (a cycle, a BigInt) is the handler's fault.
    sent = plan.serializers.serialize(ctx, failure(ctx, error, plan.logger));
  }
  if (plan.send.length === 0) return finished(plan, ctx, sent);
  return attempt(
    () => andThen(runAll(plan.send, ctx, sent), () => finished(plan, ctx, sent)),
    (error) =>
      finished(plan, ctx, plan.serializers.serialize(ctx, failure(ctx, error, plan.logger))),
  );
}

/**
 * Sets each always-on header a response has not set itself.
 *
 * @internal
 */
type AlwaysOnFill = (headers: ResponseHeaders) => void;

/**
 * The fill of a set of always-on headers: where the runtime compiles code, one function
 * generated from their names (checked header names, written as JSON string literals), which
 * reads and sets each by its name, so V8 caches every step; a loop over the names elsewhere.
 * Made once per service, when its response phases are compiled.
 *
 * @internal
 */
export function alwaysOnFill(alwaysOn: Readonly<ResponseHeaders>): AlwaysOnFill {
  const names = Object.keys(alwaysOn);
  const values = names.map((name) => alwaysOn[name]!);
  const steps = names.map((name, i) => {
    const key = JSON.stringify(name);
    return `if (h[${key}] === undefined) h[${key}] = v[${i}];`;
  });
  return (
    compiled<AlwaysOnFill>(['v'], `"use strict";\nreturn (h) => {\n${steps.join('\n')}\n};`, [
      values,
    ]) ??
    ((headers) => {
      for (let i = 0; i < names.length; i++) {
        const name = names[i]!;
        if (headers[name] === undefined) headers[name] = values[i]!;
      }
    })
  );
}

/** Always-on headers where the response has none of its own, then HEAD drops the body (RFC 9110 §9.3.2). */
function finished(plan: ResponsePlan, ctx: RequestContext, sent: SentResponse): ApiResponse {
  const headers = sent.headers.record;
  plan.fillAlwaysOn(headers);
  let body = sent.body;
  if (ctx.method === 'HEAD' && body !== null) {
    headers['content-length'] = String(
      typeof body === 'string' ? utf8Length(body) : body.byteLength,
    );
    body = null;
  }
  return { status: sent.status, headers, body };
}
