/** Helpers of the security suites: the header set, and custom APIs served on every host. */
import type { Conventions } from 'api-conventions';
import { afterAll, beforeAll, describe, expect } from 'vitest';
import { type AdapterName, loadHost, type Running } from '../../examples/bookshelf/hosts/host.ts';
import { hosts } from './_matrix.ts';
import { serveSeams } from './_seams-hosts.ts';

/** The spec's header set (spec 4.8) as the library sends it by default. */
export const headerSet: Readonly<Record<string, string>> = {
  'x-content-type-options': 'nosniff',
  'x-xss-protection': '1; mode=block',
  'x-frame-options': 'deny',
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  // Beside the spec's set, where it is silent (docs/security.md).
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

/** Asserts that a response carries the whole header set. */
export function expectHeaderSet(
  res: { headers: Headers } | { headers: Record<string, string> },
): void {
  const read = (name: string) =>
    res.headers instanceof Headers ? res.headers.get(name) : (res.headers[name] ?? null);
  for (const [name, value] of Object.entries(headerSet)) {
    expect(read(name), name).toBe(value);
  }
}

/** A custom API on one host, with the seams suite's native routes beside its table. */
export interface HostServed {
  readonly adapter: AdapterName;
  readonly port: number;
  url(path: string): string;
  fetch(path: string, init?: RequestInit): Promise<Response>;
}

/**
 * Declares `suite` on every host, each serving a fresh `build()`: with the seams suite's native
 * routes beside the table, or (`native: false`) on the bookshelf's host files, which tell the
 * core the peer address on every host (the trusted-proxy tests need it).
 */
export function describeHosts(
  title: string,
  build: () => Conventions,
  suite: (served: HostServed) => void,
  { native = true }: { native?: boolean } = {},
): void {
  for (const adapter of hosts) {
    describe(`${title} [${adapter}]`, () => {
      let running: Running | undefined;
      const served: HostServed = {
        adapter,
        get port() {
          if (!running) throw new Error('server not started');
          return running.port;
        },
        url: (path) => `http://127.0.0.1:${served.port}${path}`,
        fetch: (path, init) => fetch(served.url(path), { redirect: 'manual', ...init }),
      };
      beforeAll(async () => {
        if (native) running = await serveSeams(adapter, build());
        else running = await (await loadHost(adapter))(build(), { port: 0, host: '127.0.0.1' });
      });
      afterAll(async () => {
        await running?.close();
      });
      suite(served);
    });
  }
}
