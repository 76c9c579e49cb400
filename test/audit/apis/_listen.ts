/** Starts an app of the tests' own on port 0. */
import type { RequestListener, Server } from 'node:http';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running app: its base URL and how to stop it. */
export interface Started {
  base: string;
  close(): Promise<void>;
}

/** Listens on 127.0.0.1, port 0. */
export async function listen(handler: RequestListener): Promise<Started> {
  const server: Server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
