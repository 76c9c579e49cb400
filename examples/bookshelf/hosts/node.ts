/** Serves the bookshelf with `node:http` and the node adapter. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Conventions } from 'api-conventions';
import { toNodeHandler } from 'api-conventions/node';
import type { Host } from './host.ts';

/** Starts a node:http server for `api`; resolves once it listens. */
export const serve: Host = (api: Conventions, { port, host }) =>
  new Promise((resolve, reject) => {
    const server = createServer(toNodeHandler(api));
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve({
        port: bound,
        close: () => new Promise<void>((done) => server.close(() => done()).closeAllConnections()),
      });
    });
  });
