/** Fastify request in, core response out: the translation every part of the Fastify adapter uses. */
import {
  type ApiResponse,
  andThen,
  type BoundHost,
  type RequestInput,
  type Step,
} from 'api-conventions/host';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { nodeInput } from './_node-io.ts';

/** The Fastify host of a service. */
export type FastifyHost = BoundHost<FastifyRequest>;

const asIs = (payload: unknown) => payload as string;

/** A Fastify request as the core's input; the body is added where the core reads it. */
export const toInput = (request: FastifyRequest): RequestInput =>
  nodeInput(request.raw, request.url, request, request.headers);

/** Writes a core response as it is: the identity serializer keeps Fastify from re-encoding it. */
export function send(reply: FastifyReply, response: ApiResponse): void {
  reply.code(response.status).headers(response.headers);
  if (response.body === null) reply.send();
  else reply.serializer(asIs).send(response.body);
}

/** Sends a core response now, or once it is ready. */
export function answer(reply: FastifyReply, result: Step<ApiResponse>): void | Promise<void> {
  return andThen(result, (response) => send(reply, response));
}
