/** Serves the bookshelf with `node:http` and the node adapter. */
import { createServer } from 'node:http';
import type { Conventions } from 'api-conventions';
import { toNodeHandler } from 'api-conventions/node';
import { type Host, listen } from './host.ts';

/** Starts a node:http server for `api`; resolves once it listens. */
export const serve: Host = (api: Conventions, { port, host }) =>
  listen(createServer(toNodeHandler(api)), port, host);
