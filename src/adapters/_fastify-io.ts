/** Fastify request in, core response out: the translation every part of the Fastify adapter uses. */
import type { Conventions, RequestContext } from 'api-conventions';
import type { ApiResponse, RequestInput, Step } from 'api-conventions/host';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { nodeHeaders, schemeOf } from './_node-io.ts';

const asIs = (payload: unknown) => payload as string;

/** A Fastify request as the core's input; `body` is the raw bytes where Fastify kept them raw. */
function toInput(request: FastifyRequest): RequestInput {
  return {
    method: request.method,
    url: request.url,
    headers: nodeHeaders(request.raw, request.headers),
    scheme: schemeOf(request.raw),
    httpVersion: request.raw.httpVersion,
    remoteAddress: request.socket.remoteAddress,
    native: request,
  };
}

const held = Symbol.for('api-conventions.fastify-context');

/** The context the `onRequest` hook opened for this request, if it ran. */
export function heldContext(request: FastifyRequest): RequestContext | undefined {
  return (request as unknown as Record<symbol, RequestContext | undefined>)[held];
}

/** The request's context: the one the `onRequest` hook opened, or a new one (framework errors). */
export function contextOf(conventions: Conventions, request: FastifyRequest): RequestContext {
  let ctx = heldContext(request);
  if (ctx === undefined) {
    ctx = conventions.open(toInput(request));
    (request as unknown as Record<symbol, RequestContext>)[held] = ctx;
  }
  return ctx;
}

/** Writes a core response as it is: the identity serializer keeps Fastify from re-encoding it. */
export function send(reply: FastifyReply, response: ApiResponse): void {
  reply.code(response.status).headers(response.headers);
  if (response.body === null) reply.send();
  else reply.serializer(asIs).send(response.body);
}

/** Sends a core response now, or once it is ready. */
export function answer(reply: FastifyReply, result: Step<ApiResponse>): void | Promise<void> {
  if (!(result instanceof Promise)) return send(reply, result);
  return result.then((response) => send(reply, response));
}
