/**
 * `api-conventions/fetch`: serves the conventions as a Web-standard `fetch` handler (Hono, Bun,
 * Deno, workers), with Web APIs only.
 *
 * @module api-conventions/fetch
 */
import {
  type ApiResponse,
  badRequest,
  type Conventions,
  type ConventionsOptions,
  errorToResponse,
  type Logger,
  payloadTooLarge,
  type ReadBodyOptions,
  requestTimeout,
  toConventions,
} from 'api-conventions';
import { assertKnownKeys } from '../core/internal/options.ts';

/**
 * A Web-standard request handler. `context` is whatever the host passes second (Deno's
 * `ServeHandlerInfo`, Bun's `Server`, a Hono `Context`); only `remoteAddress` reads it. It returns
 * the `Response` itself when nothing on the way is asynchronous, as every `fetch` host accepts.
 */
export type FetchHandler<Context = unknown> = (
  request: Request,
  context?: Context,
) => Response | Promise<Response>;

/** Options of {@link toFetchHandler}. */
export interface FetchHandlerOptions<Context = unknown> {
  /**
   * Reads the client address, which a `Request` does not carry, from the host: e.g.
   * `(_, info) => info.remoteAddr.hostname` on Deno,
   * `(req, server) => server.requestIP(req)?.address` on Bun,
   * `(_, c) => getConnInfo(c).remote.address` on Hono.
   * @default undefined (no address: rate limits fall back to other identities)
   */
  remoteAddress?: ((request: Request, context: Context) => string | undefined) | undefined;
}

/**
 * Turns the conventions (or the options to build them) into a `fetch` handler for any
 * Web-standard host. Bodies are read as a stream with the configured size limit; everything else
 * is the core's decision.
 *
 * @example
 * ```ts
 * import { Hono } from 'hono';
 * import { conventions } from 'api-conventions';
 * import { toFetchHandler } from 'api-conventions/fetch';
 *
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * const handle = toFetchHandler(api);
 * const app = new Hono();
 * app.all('*', (c) => handle(c.req.raw));
 * export default app; // or Deno.serve(handle), Bun.serve({ fetch: handle })
 * ```
 */
export function toFetchHandler<Context = unknown>(
  api: Conventions | ConventionsOptions,
  options: FetchHandlerOptions<Context> = {},
): FetchHandler<Context> {
  const conventions = toConventions(api);
  assertKnownKeys('toFetchHandler()', options, ['remoteAddress']);
  const { remoteAddress } = options;
  if (remoteAddress !== undefined && typeof remoteAddress !== 'function') {
    throw new TypeError('toFetchHandler(): `remoteAddress` must be a function.');
  }
  return (request, context) => {
    const method = request.method;
    const url = request.url;
    const result = conventions.handle({
      method,
      url: originForm(url),
      scheme: url.startsWith('https:') ? 'https' : 'http',
      // Read on demand: on Node, Hono builds `request.headers` from the raw headers on first use.
      headers: { get: (name) => request.headers.get(name) },
      // Fetch §5.4: GET and HEAD have no body. Not touching `body` keeps them cheap (on Node, Hono
      // builds a whole second Request the first time `body` is read).
      readBody:
        method === 'GET' || method === 'HEAD'
          ? undefined
          : (limit, options) => readBody(request, limit, options),
      remoteAddress: remoteAddress?.(request, context as Context),
      native: request,
    });
    return result instanceof Promise
      ? result.then((response) => toResponse(response, conventions.logger))
      : toResponse(result, conventions.logger);
  };
}

/** The path and query of an absolute URL as serialized (case and percent-encoding kept). */
function originForm(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  const hash = url.indexOf('#', start);
  return hash === -1 ? url.slice(start) : url.slice(start, hash);
}

/**
 * Reads the whole body, rejecting with 413 as soon as it is known to pass `limit` bytes: at once
 * from `Content-Length`, or at the chunk that passes it (the rest is never pulled).
 */
async function readBody(
  request: Request,
  limit: number,
  options: ReadBodyOptions,
): Promise<Uint8Array> {
  if (Number(request.headers.get('content-length')) > limit) throw payloadTooLarge(limit);
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const timer = setTimeout(() => {
    timedOut = true;
    reader.cancel().catch(() => {});
  }, options.timeoutMs);
  let timedOut = false;
  try {
    return await readAll(reader, limit, () => timedOut);
  } finally {
    clearTimeout(timer);
  }
}

async function readAll(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
  timedOut: () => boolean,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const chunk = await reader.read().catch(() => {
      throw badRequest('The request body was not received completely.');
    });
    if (timedOut()) throw requestTimeout();
    if (chunk.done) break;
    received += chunk.value.byteLength;
    if (received > limit) {
      reader.cancel().catch(() => {});
      throw payloadTooLarge(limit);
    }
    chunks.push(chunk.value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(received);
  received = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, received);
    received += chunk.byteLength;
  }
  return bytes;
}

/**
 * A core response as a Fetch `Response`; an array value becomes repeated header lines. The core
 * has already refused header names and values a host cannot send; should the runtime still
 * refuse the response, that becomes a logged 500.
 */
function toResponse({ status, headers, body }: ApiResponse, logger: Logger): Response {
  let lists = false;
  for (const name in headers) if (typeof headers[name] !== 'string') lists = true;
  let init = headers as Record<string, string> | Headers;
  if (lists) {
    init = new Headers();
    for (const [name, value] of Object.entries(headers)) {
      for (const item of typeof value === 'string' ? [value] : value) init.append(name, item);
    }
  }
  try {
    return new Response(body as BodyInit | null, { status, headers: init });
  } catch (error) {
    return failed(error, logger);
  }
}

/** The spec's 500 for a response that could not be built; the fault is logged. */
function failed(error: unknown, logger: Logger): Response {
  const { status, headers, body } = errorToResponse(error, logger);
  return new Response(body as string, { status, headers: headers as Record<string, string> });
}
