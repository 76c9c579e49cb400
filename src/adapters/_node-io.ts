/** Node request reading shared by the node, Express and Fastify adapters: headers and body in. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ApiError, ErrorCode } from 'api-conventions';
import {
  type BoundHost,
  type HeaderReader,
  payloadTooLarge,
  type ReadBodyOptions,
  type RequestInput,
  requestTimeout,
} from '#core';
import { decodeNodeBody } from './_node-decode.ts';
import { sendContinue } from './_node-server.ts';

/**
 * The core's input for a Node request on `url` (what the host routes on), the body left for where
 * the host has it: `withBody` adds the stream, read with the route's limit and timeout.
 */
export function nodeInput(
  req: IncomingMessage,
  url: string,
  native: object,
  headers?: IncomingMessage['headers'],
  withBody = false,
): RequestInput {
  return {
    method: req.method ?? 'GET',
    url,
    headers: nodeHeaders(req, headers),
    scheme: schemeOf(req),
    httpVersion: req.httpVersion,
    readBody:
      withBody && announcesBody(req)
        ? (limit, options) => readNodeBody(req, limit, options)
        : undefined,
    decodeBody: withBody ? decodeNodeBody : undefined,
    remoteAddress: req.socket.remoteAddress,
    remotePort: req.socket.remotePort,
    native,
  };
}

/**
 * Wraps Node's lower-cased header object as a {@link HeaderReader}; repeated values are joined.
 * Node keeps only the first `Content-Type` and the first `Host` of a request that sent two; the
 * core is shown both, as a fetch host shows them, so that every host refuses the ambiguity alike.
 */
export function nodeHeaders(req: IncomingMessage, headers = req.headers): HeaderReader {
  // Host is read on every request: its lines are looked up once, in the raw header list.
  let host: string | undefined | null = null;
  return {
    get(name) {
      if (name === 'host') {
        if (host === null) host = allHostLines(req.rawHeaders) ?? headers.host;
        return host;
      }
      if (name === 'content-type') {
        const all = req.headersDistinct?.['content-type'];
        if (all !== undefined && all.length > 1) return all.join(', ');
      }
      const value = headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/** Every `Host` line of a raw header list, joined as a fetch host joins them; `undefined` if none. */
function allHostLines(raw: readonly string[] | undefined): string | undefined {
  if (raw === undefined) return undefined;
  let value: string | undefined;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i]!;
    if (name.length === 4 && name.toLowerCase() === 'host') {
      value = value === undefined ? raw[i + 1] : `${value}, ${raw[i + 1]}`;
    }
  }
  return value;
}

/** The scheme of the connection a request came on. */
export function schemeOf(req: IncomingMessage): 'http' | 'https' {
  return (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
}

/** Tells whether the request announces a body (RFC 9112 §6.3). */
export function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Reads the whole body, rejecting with 413 as soon as it is known to pass `limit` bytes (at once
 * from `Content-Length`, or while the bytes arrive), with 408 when it takes longer than the
 * timeout, and with 400 when the client goes away before the end.
 */
export function readNodeBody(
  req: IncomingMessage,
  limit: number,
  options: ReadBodyOptions,
): Promise<Uint8Array> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.reject(payloadTooLarge(limit));
  // The core reads the body: a client that waits for it may send it now (RFC 9110 §10.1.1).
  sendContinue(req);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const stop = (error: ApiError) => {
      cleanup();
      req.pause();
      reject(error);
    };
    const timer = setTimeout(() => stop(requestTimeout()), options.timeoutMs);
    const cleanup = () => {
      clearTimeout(timer);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) return stop(payloadTooLarge(limit));
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    };
    const onError = () =>
      stop(
        new ApiError(400, ErrorCode.BadRequest, 'The request body was not received completely.'),
      );
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  });
}

/**
 * Hands the core a body to read from `stream` (the request, or the stream a host's hooks made of
 * it), with the route's limit and timeout, and the Node decoders of its content codings; nothing
 * without a stream (a request whose body the host's parsers never saw: a GET).
 */
export function readBodyFrom(stream: IncomingMessage | undefined, input: RequestInput): void {
  if (stream === undefined) return;
  input.readBody = (limit, options) => readNodeBody(stream, limit, options);
  input.decodeBody = decodeNodeBody;
}

/**
 * Hands a Node request's body to the core where a router host has it: what a body parser made of
 * it (`parsed`, once the stream is read), else the stream itself. Called as the route runs, since
 * a body parser may have run after the conventions' first step.
 */
export function addNodeBody(req: IncomingMessage, parsed: unknown, input: RequestInput): void {
  if (!req.readableEnded) {
    if (announcesBody(req)) readBodyFrom(req, input);
    return;
  }
  if (typeof parsed === 'string' || parsed instanceof Uint8Array) {
    // A text or raw parser: bytes the core parses by the route's own rules.
    const bytes = typeof parsed === 'string' ? Buffer.from(parsed) : parsed;
    input.readBody = (limit) =>
      bytes.byteLength > limit ? Promise.reject(payloadTooLarge(limit)) : Promise.resolve(bytes);
  } else {
    input.parsedBody = { value: parsed };
  }
}

/**
 * Reports a Node response's final status to the plugins that observe every request (the bound
 * host's `sent`), where the service has any: once, as it finishes (before an HTTP instrumentation
 * ends its span), or on `close` when it never finishes.
 */
export function reportFinalStatus<Native extends object>(
  host: BoundHost<Native>,
  native: Native,
  res: ServerResponse,
): void {
  if (!host.observes) return;
  let reported = false;
  const once = () => {
    if (reported) return;
    reported = true;
    host.sent(native, res.statusCode);
  };
  res.once('finish', once);
  res.once('close', once);
}
