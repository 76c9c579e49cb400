/**
 * `api-conventions/node`: serves the conventions from `node:http` (and `node:https`).
 *
 * @module api-conventions/node
 */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Conventions, ConventionsOptions } from 'api-conventions';
import { bindHost, settle } from '#core';
import { nodeInput } from './_node-io.ts';
import { type ClientErrorHandler, takeServer, writeClientError } from './_node-server.ts';
import { writeResponse } from './_node-write.ts';

export { decodeNodeBody } from './_node-decode.ts';
export { serverOptions } from './_node-options.ts';
export { type ClientErrorHandler, sendContinue } from './_node-server.ts';

/** A listener for `http.createServer`. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Turns the conventions (or the options to build them) into a listener for
 * `http.createServer`. Bodies are read with the configured size limit and timeout; everything
 * else is the core's decision.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { conventions } from 'api-conventions';
 * import { toNodeHandler } from 'api-conventions/node';
 *
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * createServer(toNodeHandler(api)).listen(3000);
 * ```
 *
 * @see [Adapters](../../docs/adapters.md) for every host and its server settings.
 */
export function toNodeHandler(api: Conventions | ConventionsOptions): NodeHandler {
  const host = bindHost<IncomingMessage>(api, {
    input: (req) => nodeInput(req, req.url ?? '/', req, undefined, true),
  });
  const { logger } = host;
  return (req, res) => settle(host.handle(req), (response) => writeResponse(res, response, logger));
}

/**
 * A `clientError` listener for a node:http server: what Node's HTTP parser refuses (a request
 * line or header it cannot parse, broken body framing, a header section over `maxHeaderSize`, a
 * request slower than `headersTimeout` or `requestTimeout`) is answered with the spec's error
 * body and the always-on headers (400, 431 or 408), where Node would send a bare status line.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { conventions } from 'api-conventions';
 * import { toClientErrorHandler, toNodeHandler } from 'api-conventions/node';
 *
 * const api = conventions({ routes: {} });
 * createServer(toNodeHandler(api)).on('clientError', toClientErrorHandler(api)).listen(3000);
 * ```
 */
export function toClientErrorHandler(api: Conventions): ClientErrorHandler {
  return (error, socket) => writeClientError(api, error, socket);
}

/**
 * Gives the core every answer a node:http server would otherwise make by itself:
 * - `clientError`: parser errors and timeouts ({@link toClientErrorHandler});
 * - `checkContinue`: a request with `Expect: 100-continue` goes to `listener`, and `100 Continue`
 *   is sent only once the core reads its body, so a request that will be refused (a
 *   Content-Length over the limit, a wrong media type, no route) gets its final answer instead;
 * - `checkExpectation`: any other `Expect` goes to `listener` too, and the core answers 417;
 * - `connect`: `CONNECT` is answered 501 with the error body instead of a closed connection.
 *
 * `listener` is the server's request listener: `toNodeHandler(api)` or an Express app. Returns
 * the server.
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { conventions } from 'api-conventions';
 * import { attachServerHandlers, serverOptions, toNodeHandler } from 'api-conventions/node';
 *
 * const api = conventions({ routes: {} });
 * const listener = toNodeHandler(api);
 * attachServerHandlers(createServer(serverOptions, listener), api, listener).listen(3000);
 * ```
 */
export function attachServerHandlers<S extends Server>(
  server: S,
  api: Conventions,
  listener: RequestListener = toNodeHandler(api),
): S {
  server.on('clientError', toClientErrorHandler(api));
  takeServer(server, api, listener);
  return server;
}
