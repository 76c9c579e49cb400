/**
 * What a Hono app already has beside the conventions (docs/existing-apps.md, "What you already
 * have"): the companions the core knows, found as requests come.
 */
import type { BoundHost, Companion } from 'api-conventions/host';
import type { AppRouteEntry, FetchContext } from './_fetch-host.ts';

// Hono's middleware the core knows as companions, by their functions' names.
const honoCompanions: Readonly<Record<string, Companion>> = {
  secureHeaders: 'hono/secure-headers',
  compress: 'hono/compress',
};

/**
 * Finds the companions beside the middleware: Hono's own by name in the app's routes (read again
 * when they grow), hono-rate-limiter by the store it leaves on the context of a request it counted.
 */
export function watchCompanions(
  host: BoundHost<Request>,
  routes: (() => readonly AppRouteEntry[]) | undefined,
): (c: FetchContext) => void {
  let scanned = 0;
  let limiter = false;
  return (c) => {
    const list = routes?.();
    if (list !== undefined && list.length !== scanned) {
      scanned = list.length;
      for (const { handler } of list) {
        const name = (handler as { name?: unknown } | undefined)?.name;
        if (typeof name === 'string' && Object.hasOwn(honoCompanions, name)) {
          host.companion(honoCompanions[name]!);
        }
      }
    }
    if (limiter) return;
    const store = (c as { var?: { rateLimitStore?: { resetKey?: unknown } } }).var?.rateLimitStore;
    if (typeof store?.resetKey === 'function') {
      limiter = true;
      host.companion('hono-rate-limiter');
    }
  };
}
