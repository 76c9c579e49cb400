/** Serves the bookshelf with `node:http` and the node adapter. */
import { createServer } from 'node:http';
import type { Conventions } from 'api-conventions';
import { attachServerHandlers, toNodeHandler } from 'api-conventions/node';
import { type Host, listen, settingsOf } from './host.ts';

/**
 * Starts a node:http server for `api`; resolves once it listens. Node's own answers (parser
 * errors, timeouts, `Expect`, `CONNECT`) are the core's, with the error body.
 */
export const serve: Host = (api: Conventions, where) => {
  const listener = toNodeHandler(api);
  const server = attachServerHandlers(createServer(settingsOf(where), listener), api, listener);
  return listen(server, where.port, where.host);
};
