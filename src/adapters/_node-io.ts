/** Node request reading shared by the node, Express and Fastify adapters: headers and body in. */
import type { IncomingMessage } from 'node:http';
import { ApiError, ErrorCode, type HeaderReader, payloadTooLarge } from 'api-conventions';

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
