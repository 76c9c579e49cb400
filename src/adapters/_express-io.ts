/** An Express request as the core's context: headers, origin, and the body as a body parser left it. */
import { payloadTooLarge } from 'api-conventions';
import type { RequestInput } from 'api-conventions/host';
import type { Request } from 'express';
import { decodeNodeBody } from './_node-decode.ts';
import { announcesBody, nodeInput, readNodeBody } from './_node-io.ts';

/** The core's input for an Express request, without its body (added where a route reads it). */
export const inputOf = (req: Request): RequestInput => nodeInput(req, req.originalUrl, req);

/**
 * Hands the body to the core: what a body parser already made of it, else the stream. Called
 * when the route runs, since a body parser may have run after `before`.
 */
export function addBody(req: Request, input: RequestInput): void {
  if (!req.readableEnded) {
    if (announcesBody(req)) {
      input.readBody = (limit, options) => readNodeBody(req, limit, options);
      input.decodeBody = decodeNodeBody;
    }
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
