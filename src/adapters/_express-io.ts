/** An Express request as the core's input: headers, and the body as a body parser left it. */
import { payloadTooLarge, type RequestInput } from 'api-conventions';
import type { Request } from 'express';
import { announcesBody, nodeHeaders, readNodeBody } from './_node-io.ts';

/** The core's input for an Express request, without its body. */
export function inputOf(req: Request): RequestInput {
  return {
    method: req.method,
    url: req.originalUrl,
    headers: nodeHeaders(req.headers),
    remoteAddress: req.socket.remoteAddress,
    native: req,
  };
}

/** Hands the body to the core: what a body parser already made of it, else the stream. */
export function addBody(req: Request, input: RequestInput): void {
  if (!req.readableEnded) {
    if (announcesBody(req)) input.readBody = (limit) => readNodeBody(req, limit);
    return;
  }
  const body: unknown = req.body;
  if (typeof body === 'string' || body instanceof Uint8Array) {
    // express.text() or express.raw(): bytes the core parses by the route's own rules.
    const bytes = typeof body === 'string' ? Buffer.from(body) : body;
    input.readBody = (limit) =>
      bytes.byteLength > limit ? Promise.reject(payloadTooLarge(limit)) : Promise.resolve(bytes);
  } else {
    input.parsedBody = { value: body };
  }
}
