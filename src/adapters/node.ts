/**
 * `api-conventions/node`: serves the conventions from `node:http` (and `node:https`).
 *
 * @module api-conventions/node
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Conventions, ConventionsOptions } from 'api-conventions';
import { toConventions } from 'api-conventions/host';
import { announcesBody, nodeHeaders, readNodeBody, schemeOf } from './_node-io.ts';
import { writeNodeResponse } from './_node-write.ts';

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
 */
export function toNodeHandler(api: Conventions | ConventionsOptions): NodeHandler {
  const conventions = toConventions(api);
  const { logger } = conventions;
  return (req, res) => {
    const result = conventions.handle({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: nodeHeaders(req),
      scheme: schemeOf(req),
      readBody: announcesBody(req)
        ? (limit, options) => readNodeBody(req, limit, options)
        : undefined,
      remoteAddress: req.socket.remoteAddress,
      native: req,
    });
    if (result instanceof Promise)
      result.then((response) => writeNodeResponse(res, response, logger));
    else writeNodeResponse(res, result, logger);
  };
}
