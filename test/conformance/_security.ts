/** Helpers of the security suites: the header set, and how their own APIs are served. */
import { expect } from 'vitest';
import type { MatrixOptions } from './_matrix.ts';
import { serveSeams } from './_seams-hosts.ts';

/**
 * A security suite's own API on every host, with the seams suite's native routes beside its
 * table, and requests exactly as the test sends them.
 */
export const ownApi: MatrixOptions = { serve: serveSeams, plain: true };

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
