/**
 * Fastify's native I/O: its request as the core's input, a core response written to its reply,
 * and the server options and error handling that run before and around the plugin's hooks.
 */
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  type ApiResponse,
  andThen,
  type BoundHost,
  normalizedUrl,
  type RequestInput,
  type Step,
} from '#core';
import { nodeInput } from './_node-io.ts';
import { writeClientError } from './_node-server.ts';

/** The Fastify host of a service. */
export type FastifyHost = BoundHost<FastifyRequest>;

/** A Fastify `onRequest` hook's continuation. */
export type Next = (error?: Error) => void;

/** What the plugin keeps on each Fastify app it serves. */
export interface Served {
  /** The bound host, for the server options that run before hooks. */
  readonly host: FastifyHost;
  /**
   * The plugin's entry (opens the request, runs the dispatched route's checks), for a host that
   * runs it ahead of hooks registered before the plugin; a request no route serves then goes on,
   * and the plugin's own hook answers it after them.
   */
  readonly enter: (request: FastifyRequest, reply: FastifyReply, next: Next) => void;
}

/** The plugin on each Fastify app it serves. */
export const served = new WeakMap<object, Served>();

/** The identity serializer: the core's body goes out as the core made it. */
export const asIs = (payload: unknown) => payload as string;

/** A Fastify request as the core's input; the body is added where the core reads it. */
export const toInput = (request: FastifyRequest): RequestInput =>
  nodeInput(request.raw, request.url, request, request.headers);

/**
 * Writes a core response as it is, now or once it is ready: the identity serializer keeps Fastify
 * from re-encoding it.
 */
export function writeReply(reply: FastifyReply, result: Step<ApiResponse>): void | Promise<void> {
  return andThen(result, (response) => {
    reply.code(response.status).headers(response.headers);
    if (response.body === null) reply.send();
    else reply.serializer(asIs).send(response.body);
  });
}

/**
 * Answers an error Fastify or a handler raised with the spec's error body; a router's error about
 * a request it cannot route gets the route view's answer (the binding tells which).
 */
export function writeError(
  host: FastifyHost,
  error: unknown,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const facts = {
    status: reply.statusCode,
    bodyLimit: request.routeOptions.bodyLimit,
    contentType: request.headers['content-type'],
    unmatched: request.is404,
  };
  return writeReply(reply, host.fail(request, error, facts));
}

/**
 * Fastify's `frameworkErrors` server option: answers the errors Fastify raises before any hook
 * runs (a malformed percent-encoded URL, a path parameter past `maxParamLength`) with the spec's
 * error body of the conventions registered on that server, instead of Fastify's own body.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { conventions } from 'api-conventions';
 * import { frameworkErrors, toFastifyPlugin } from 'api-conventions/fastify';
 *
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * const app = Fastify({ frameworkErrors }); // or all of them: Fastify({ ...serverOptions })
 * await app.register(toFastifyPlugin(api));
 * ```
 */
export function frameworkErrors(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): unknown {
  const host = served.get(request.server)?.host;
  if (host === undefined) return reply.send(error);
  return writeError(host, error, request, reply);
}

/**
 * Fastify's `clientErrorHandler` server option: what Node's HTTP parser refuses before Fastify
 * sees a request (a bad request line, header or framing, a header section over `maxHeaderSize`,
 * a request slower than the timeouts) is answered with the spec's error body and the always-on
 * headers of the conventions registered on the app, instead of Fastify's own body.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { conventions } from 'api-conventions';
 * import { clientErrorHandler, toFastifyPlugin } from 'api-conventions/fastify';
 *
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * // One of serverOptions' members; an app that assembles its own server options names it.
 * const app = Fastify({ clientErrorHandler, connectionTimeout: 10_000 });
 * await app.register(toFastifyPlugin(api));
 * ```
 */
export function clientErrorHandler(
  this: object,
  error: Error & { code?: string },
  socket: Duplex,
): void {
  writeClientError(served.get(this)?.host.api, error, socket);
}

/**
 * Fastify's `rewriteUrl` server option: routes every request on its normalised target (dot
 * segments removed, percent-encoded unreserved characters decoded, absolute form and fragment
 * dropped), as the core and every other host do. A target that cannot be normalised is left as
 * it is and answered 400 by the plugin.
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { conventions } from 'api-conventions';
 * import { rewriteUrl, toFastifyPlugin } from 'api-conventions/fastify';
 *
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * // One of serverOptions' members: /v1/./books and /v1/%62ooks route as /v1/books.
 * const app = Fastify({ rewriteUrl });
 * await app.register(toFastifyPlugin(api));
 * ```
 */
export function rewriteUrl(req: { url?: string }): string {
  return normalizedUrl(req.url ?? '/');
}

/**
 * The Fastify server options the conventions need, to spread into `Fastify({ ... })`: the
 * spec's error body for errors Fastify raises before any hook (`frameworkErrors`) and for those
 * Node's parser raises before Fastify (`clientErrorHandler`) and for a request that arrives while
 * the app closes (`return503OnClosing: false`: the plugin answers 503), one routing of every target
 * (`rewriteUrl`), and path parameters bounded by the URI limit rather than Fastify's 100
 * characters (`routerOptions.maxParamLength`). Timeouts and `maxHeaderSize` are the host's
 * choice: see [Request limits](../../docs/limits.md).
 *
 * @example
 * ```ts
 * import Fastify from 'fastify';
 * import { conventions } from 'api-conventions';
 * import { serverOptions, toFastifyPlugin } from 'api-conventions/fastify';
 *
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * const app = Fastify({ ...serverOptions, logger: true });
 * await app.register(toFastifyPlugin(api));
 * ```
 */
export const serverOptions = {
  /** Fastify's own early errors answered with the spec's error body. */
  frameworkErrors,
  /** Node's parser errors and timeouts answered with the spec's error body. */
  clientErrorHandler,
  /** A request that arrives while the app closes gets the core's 503 with the error body. */
  return503OnClosing: false,
  /** Every request routed on its normalised target. */
  rewriteUrl,
  /** Path parameters as long as the URI allows, not Fastify's 100 characters. */
  routerOptions: {
    /** The longest path parameter, in characters: the URI limit. */
    maxParamLength: 8192,
  },
} as const;
