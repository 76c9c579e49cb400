/**
 * `api-conventions/node`: serves the conventions from `node:http` (and `node:https`).
 *
 * @module api-conventions/node
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  type ApiResponse,
  type Conventions,
  type ConventionsOptions,
  toConventions,
} from 'api-conventions';
import { announcesBody, nodeHeaders, readNodeBody } from './_node-io.ts';
import { writeNodeResponse } from './_node-write.ts';

/** A listener for `http.createServer`. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Turns the conventions (or the options to build them) into a listener for
 * `http.createServer`. Bodies are read with the configured size limit; everything else is the
 * core's decision.
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
 */
export function toNodeHandler(api: Conventions | ConventionsOptions): NodeHandler {
  const app = toConventions(api);
  return (req, res) => {
    const result = app.handle({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: nodeHeaders(req.headers),
      readBody: announcesBody(req) ? (limit) => readNodeBody(req, limit) : undefined,
      remoteAddress: req.socket.remoteAddress,
      native: req,
    });
    if (result instanceof Promise) {
      result.then((response: ApiResponse) => writeNodeResponse(res, response, app.logger));
    } else {
      writeNodeResponse(res, result, app.logger);
    }
  };
}
