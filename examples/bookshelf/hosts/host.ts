/** What every host file of the bookshelf provides: start a server for the API on a port. */
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Conventions } from 'api-conventions';
import { serverOptions } from 'api-conventions/node';

/** A running server. */
export interface Running {
  /** The port it listens on (the real one when 0 was asked for). */
  port: number;
  /** Stops listening and closes open connections. */
  close(): Promise<void>;
}

/**
 * The node:http settings of every host: `serverOptions` (64 KiB of headers so that a long URI
 * reaches the library's 414, header, request and keep-alive timeouts), which a test may shorten.
 */
export type ServerSettings = {
  -readonly [K in keyof typeof serverOptions]: (typeof serverOptions)[K] extends number
    ? number
    : (typeof serverOptions)[K];
};

/** Where a host listens, and its server settings when they differ from the defaults. */
export interface Where {
  port: number;
  host: string;
  server?: Partial<ServerSettings>;
}

/** Starts a server for `api` on `host:port`. */
export type Host = (api: Conventions, where: Where) => Promise<Running>;

/** The settings a host's server gets: `serverOptions` with the overrides of `where`. */
export function settingsOf(where: Where): ServerSettings {
  return { ...serverOptions, ...where.server };
}

/** The adapters the bookshelf runs on, one host file each beside this one. */
export const adapters = [
  'node',
  'express',
  'express4',
  'fastify',
  'fetch',
  'koa',
  'nest',
  'nest-fastify',
] as const;

/** One of {@link adapters}. */
export type AdapterName = (typeof adapters)[number];

/** Loads the host file of an adapter. */
export async function loadHost(name: AdapterName): Promise<Host> {
  switch (name) {
    case 'node':
      return (await import('./node.ts')).serve;
    case 'express':
      return (await import('./express.ts')).serve;
    case 'express4':
      return (await import('./express4.ts')).serve;
    case 'fastify':
      return (await import('./fastify.ts')).serve;
    case 'fetch':
      return (await import('./fetch.ts')).serve;
    case 'koa':
      return (await import('./koa.ts')).serve;
    case 'nest':
      return (await import('./nest.ts')).serve;
    case 'nest-fastify':
      return (await import('./nest-fastify.ts')).serve;
  }
}

/** Listens with a node:http server; resolves with its bound port and a close that ends open connections. */
export function listen(server: Server, port: number, host: string): Promise<Running> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      const { port: bound } = server.address() as AddressInfo;
      resolve({
        port: bound,
        close: () => new Promise<void>((done) => server.close(() => done()).closeAllConnections()),
      });
    });
  });
}
