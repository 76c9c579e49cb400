/** What a node:http server answers by itself, answered by the core instead: shared by every Node host. */
import type { IncomingMessage, RequestListener, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Conventions } from 'api-conventions';
import {
  type Refusal,
  type RefusalResponse,
  refusalOf,
  refusalResponseFor,
  settle,
  stampDate,
} from '#core';
import { lingerOnClose, lingerOnCloseOf } from './_node-linger.ts';

/** A `clientError` listener: Node's own HTTP parser errors and timeouts, with the socket. */
export type ClientErrorHandler = (error: Error & { code?: string }, socket: Duplex) => void;

/** The client address of a connection, when the socket knows it. */
const addressOf = (socket: Duplex) => (socket as { remoteAddress?: string }).remoteAddress;

/**
 * Writes the core's answer to a request the server refused on `socket` (counted by the client's
 * address: see `refusalResponseFor` of api-conventions/host) and closes it; a socket that can no longer be
 * written is only closed.
 */
export function writeRefusal(api: Conventions, kind: Refusal, socket: Duplex): void {
  const write = (answer: RefusalResponse) => {
    if (socket.writable) socket.end(stampDate(answer));
    else socket.destroy();
  };
  settle(refusalResponseFor(api, kind, addressOf(socket)), write);
}

// Node's own answer to a client error, for a server with no conventions to answer it.
const bareBadRequest = 'HTTP/1.1 400 Bad Request\r\nConnection: close\r\nContent-Length: 0\r\n\r\n';

/**
 * Writes the core's answer to a client error on the socket and closes it, unless the client is
 * gone or a response is already on its way (then the socket is only closed, and nothing was
 * answered, so nothing is counted). Without `api` (a server whose conventions are not registered
 * yet, an app still starting), Node's own bare 400.
 */
export function writeClientError(
  api: Conventions | undefined,
  error: Error & { code?: string },
  socket: Duplex,
): void {
  // Node's own handler makes the same test before it writes its bare answer.
  const current = (socket as { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === 'ECONNRESET' || !socket.writable || current?.headersSent) socket.destroy();
  else if (api === undefined) socket.end(bareBadRequest);
  else writeRefusal(api, refusalOf(error.code), socket);
}

// Marks a request Node handed over through `checkContinue`: it waits for `100 Continue`, which is
// sent only when the core decides to read its body. A registered symbol, so every adapter's copy
// of this module sees the mark.
const waiting = Symbol.for('api-conventions.awaitingContinue');

type Waiting = IncomingMessage & { [waiting]?: ServerResponse };

// Whoever starts reading the body (the core, a body parser, a fetch host's Request) listens for
// its data: that is when the client may send it.
function onReader(this: IncomingMessage, event: string | symbol): void {
  if (event === 'data' || event === 'readable') sendContinue(this);
}

/**
 * A `checkContinue` listener: the request goes to `listener`, and `100 Continue` is sent only
 * once something starts reading its body.
 */
export function continueLater(listener: RequestListener): RequestListener {
  return (req, res) => {
    lingerOnClose(req);
    (req as Waiting)[waiting] = res;
    req.on('newListener', onReader);
    listener(req, res);
  };
}

/**
 * Sends `100 Continue` to a client that waits for it (RFC 9110 §10.1.1), once.
 *
 * @example
 * ```ts
 * import type { HttpBindings } from '@hono/node-server';
 * import { conventions } from 'api-conventions';
 * import { toFetchHandler } from 'api-conventions/fetch';
 * import { sendContinue } from 'api-conventions/node';
 * import { type Context, Hono } from 'hono';
 *
 * const api = conventions({ routes: { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } } });
 * // Hono on node:http: `100 Continue` only once the library reads the body, so a request it
 * // refuses first (too large, no route) never sends its body.
 * const handle = toFetchHandler<Context<{ Bindings: HttpBindings }>>(api, {
 *   readingBody: (_request, c) => sendContinue(c.env.incoming),
 * });
 * const app = new Hono<{ Bindings: HttpBindings }>();
 * app.notFound(handle);
 * ```
 */
export function sendContinue(req: IncomingMessage): void {
  const res = (req as Waiting)[waiting];
  if (res === undefined) return;
  (req as Waiting)[waiting] = undefined;
  req.off('newListener', onReader);
  if (!res.headersSent) res.writeContinue();
}

/**
 * Hands `listener` the requests Node would answer by itself: `Expect: 100-continue` (answered
 * `100 Continue` only when the core reads the body), any other `Expect` (the core's 417), and
 * `CONNECT` (the core's 501, where Node would close the connection without a word).
 */
function takeExpectations(server: Server, api: Conventions, listener: RequestListener): void {
  server.on('checkContinue', continueLater(listener));
  server.on('checkExpectation', listener);
  server.on('connect', (_req: IncomingMessage, socket: Duplex) => {
    writeRefusal(api, 'connect', socket);
  });
}

/**
 * What every Node host does with its server: the requests Node would answer by itself go to
 * `listener` ({@link takeExpectations}; once per server, so a server whose expectations are
 * taken already keeps its listeners), and connections closed early close with a lingering close.
 */
export function takeServer(server: Server, api: Conventions, listener: RequestListener): void {
  if (server.listenerCount('checkContinue') === 0) takeExpectations(server, api, listener);
  lingerOnCloseOf(server);
}
