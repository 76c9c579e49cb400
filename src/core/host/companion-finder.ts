/**
 * How the companions the core knows are recognised among a host's handlers: by the name their
 * package gives its middleware function, or by what it leaves on it or on a request it counted.
 * A host hands over what it lists; which package that is, is said here once for every host.
 */
import type { Companion } from './companions.ts';
import { originalOf } from './marks.ts';

// Middleware the core knows as companions, by their functions' names.
const byName: Readonly<Record<string, Companion>> = {
  secureHeaders: 'hono/secure-headers',
  compress: 'hono/compress',
  compression: 'compression',
};

/**
 * The companion a handler of the app is, through wrappers that keep what they wrap: by its
 * function's name, or express-rate-limit by the `resetKey` and `getKey` it carries.
 *
 * @category Host binding
 */
export function companionOf(handler: unknown): Companion | undefined {
  if (typeof handler !== 'function') return undefined;
  const own = originalOf(handler) as { name?: unknown; resetKey?: unknown; getKey?: unknown };
  if (typeof own.resetKey === 'function' && typeof own.getKey === 'function') {
    return 'express-rate-limit';
  }
  return typeof own.name === 'string' && Object.hasOwn(byName, own.name)
    ? byName[own.name]
    : undefined;
}

/**
 * Finds companions as requests come: among a host's list of handlers, read again only when it
 * grew, and hono-rate-limiter by the store it leaves on a request it counted.
 *
 * @category Host binding
 */
export class CompanionFinder {
  private scanned = 0;
  private limiter = false;

  /** `found` is told each companion (the binding's `companion`, which names each once). */
  constructor(private readonly found: (companion: Companion) => void) {}

  /**
   * The companions among the handlers of `entries` (a host's route list), read again when it
   * grew, and a rate limiter's `store` that a request carries (hono-rate-limiter's
   * `rateLimitStore`, left on a request it counted).
   */
  seen(entries: readonly { readonly handler?: unknown }[] | undefined, store?: unknown): void {
    if (entries !== undefined && entries.length !== this.scanned) {
      this.scanned = entries.length;
      for (const { handler } of entries) {
        const companion = companionOf(handler);
        if (companion !== undefined) this.found(companion);
      }
    }
    if (this.limiter || typeof (store as { resetKey?: unknown })?.resetKey !== 'function') return;
    this.limiter = true;
    this.found('hono-rate-limiter');
  }
}
