/** Writes a core response to a Node `ServerResponse`: shared by the node, Express and Koa adapters. */
import type { ServerResponse } from 'node:http';
import type { HeaderValue, Logger } from 'api-conventions';
import { type ApiResponse, andThen, errorToResponse, type Step } from '#core';
import { lingerOnClose } from './_node-linger.ts';

/**
 * Writes a core response to a Node response, with `Content-Length` when there is a body, and a
 * lingering close should it close the connection before the request body arrived. A response
 * Node refuses to write (a header value with a line break, say) becomes a logged 500.
 */
export function writeResponse(res: ServerResponse, response: ApiResponse, logger: Logger): void {
  // Node or Express without attachServerHandlers: the refusals the core writes linger all the same.
  lingerOnClose(res.req);
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

/** Writes a core response to a Node response now, or once it is ready. */
export function writeNodeStep(
  res: ServerResponse,
  result: Step<ApiResponse>,
  logger: Logger,
): Step<void> {
  return andThen(result, (response) => writeResponse(res, response, logger));
}

/**
 * Puts headers on the Node response, over what it has (the core's `appHeaders`, before the app's
 * own code answers).
 */
export function setNodeHeaders(
  res: ServerResponse,
  headers: Readonly<Record<string, string | readonly string[]>>,
): void {
  for (const name in headers) res.setHeader(name, headers[name] as string | string[]);
}

/**
 * Takes the headers the app set off a Node response, to go with its value through the response
 * phases (the core's `finish`, which sends them with its own).
 */
export function takeNodeHeaders(res: ServerResponse): Record<string, HeaderValue> {
  const headers = res.getHeaders() as Record<string, HeaderValue>;
  for (const name of res.getHeaderNames()) res.removeHeader(name);
  return headers;
}
