/** The router's own answers built as plain data: no Error, no stack trace (the flood path). */
import { ErrorCode } from '../errors/catalogue.ts';
import { HeaderBag } from '../http/headers.ts';
import type { OutgoingResponse } from '../http/response.ts';
import type { RequestContext } from '../kernel/context.ts';
import { boundedEcho } from '../paths/echo.ts';

/**
 * The headers a response of this request starts with: the context's, or none.
 *
 * @category Plugins and pipeline
 */
export function startHeaders(ctx: RequestContext): HeaderBag {
  return ctx.hasResponseHeaders ? new HeaderBag(ctx.responseHeaders) : new HeaderBag();
}

function problem(
  ctx: RequestContext,
  status: number,
  code: number,
  message: string,
): OutgoingResponse {
  return { status, headers: startHeaders(ctx), body: { errors: [{ message, code }] } };
}

/**
 * 404 naming the path (spec 7.1.3), repeating at most a bounded prefix of it.
 *
 * @category Plugins and pipeline
 */
export function noRoute(ctx: RequestContext): OutgoingResponse {
  return problem(ctx, 404, ErrorCode.NoRoute, `Nothing found at ${boundedEcho(ctx.path)}.`);
}

/**
 * 404 for a path with upper-case letters, with no redirect (spec 4.1.3).
 *
 * @category Plugins and pipeline
 */
export function upperCasePath(ctx: RequestContext): OutgoingResponse {
  return problem(
    ctx,
    404,
    ErrorCode.UpperCasePath,
    `Nothing found at ${boundedEcho(ctx.path)}: paths are entirely lower-case.`,
  );
}

/**
 * 405 with `Allow` listing the methods the path serves (RFC 9110 §15.5.6).
 *
 * @category Plugins and pipeline
 */
export function wrongMethod(ctx: RequestContext, allow: readonly string[]): OutgoingResponse {
  const list = allow.join(', ');
  const out = problem(
    ctx,
    405,
    ErrorCode.MethodNotAllowed,
    `${boundedEcho(ctx.method, 20)} is not allowed on ${boundedEcho(ctx.path)}; allowed: ${list}.`,
  );
  out.headers.record.allow = list;
  return out;
}

/**
 * RFC 9110 §9.3.7: OPTIONS on a path with no handler of its own answers 204 with `Allow`.
 *
 * @category Plugins and pipeline
 */
export function allowAnswer(ctx: RequestContext, allow: readonly string[]): OutgoingResponse {
  const headers = startHeaders(ctx);
  headers.record.allow = allow.join(', ');
  return { status: 204, headers, body: undefined };
}
