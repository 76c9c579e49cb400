/** Node I/O shared by the node, Express and Fastify adapters: headers in, body in, response out. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  ApiError,
  type ApiResponse,
  ErrorCode,
  errorToResponse,
  type HeaderReader,
  type Logger,
  payloadTooLarge,
} from 'api-conventions';

/** Wraps Node's lower-cased header object as a {@link HeaderReader}; repeated values are joined. */
export function nodeHeaders(headers: IncomingMessage['headers']): HeaderReader {
  return {
    get(name) {
      const value = headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    },
  };
}

/** Tells whether the request announces a body (RFC 9112 §6.3). */
export function announcesBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * Reads the whole body, rejecting with 413 as soon as it is known to pass `limit` bytes: at once
 * from `Content-Length`, or while the bytes arrive.
 */
export function readNodeBody(req: IncomingMessage, limit: number): Promise<Uint8Array> {
  const declared = Number(req.headers['content-length']);
  if (declared > limit) return Promise.reject(payloadTooLarge(limit));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let received = 0;
    const cleanup = () => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('aborted', onError);
    };
    const onData = (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) {
        cleanup();
        req.pause();
        reject(payloadTooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received));
    };
    const onError = () => {
      cleanup();
      reject(
        new ApiError(400, ErrorCode.BadRequest, 'The request body was not received completely.'),
      );
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('aborted', onError);
  });
}

/**
 * Writes a core response to a Node response, with `Content-Length` when there is a body. A
 * response Node refuses to write (a header value with a line break, say) becomes a logged 500.
 */
export function writeNodeResponse(
  res: ServerResponse,
  response: ApiResponse,
  logger: Logger,
): void {
  const { body, headers } = response;
  if (body !== null && headers['content-length'] === undefined) {
    headers['content-length'] = String(
      typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength,
    );
  }
  try {
    res.writeHead(response.status, headers);
  } catch (error) {
    if (res.headersSent) throw error;
    const fallback = errorToResponse(error, logger);
    res.writeHead(fallback.status, fallback.headers);
    res.end(fallback.body);
    return;
  }
  res.end(body ?? undefined);
}
