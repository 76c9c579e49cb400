/**
 * The packages apps already have that do what a plugin of the conventions does ("What you already
 * have" in the guide to existing apps). A host finds them its own way; what doubling one up means,
 * and what to keep, is said here once for every host.
 */

/**
 * A package found beside the conventions that does what one of its plugins does.
 *
 * @category Host binding
 */
export type Companion =
  | 'express-rate-limit'
  | '@fastify/rate-limit'
  | '@fastify/cors'
  | 'hono-rate-limiter'
  | '@fastify/helmet'
  | 'hono/secure-headers'
  | 'compression'
  | '@fastify/compress'
  | 'hono/compress';

/** The plugin a companion doubles up, and what to say when both are there. */
interface Overlap {
  /** The plugin's name; the warning is said only when the service has it. */
  readonly plugin: string;
  /** The warning, or none where the library adapts itself to the companion. */
  readonly warning?: string;
  /** Why the two cannot run side by side, and which to keep: a `TypeError` at start-up. */
  readonly refused?: string;
}

const limiter = (name: string, where: string) =>
  `${name} counts requests beside the conventions' rateLimit(): two limits count every request, the lower one refuses, and the 429 body and the two sets of rate-limit headers contradict each other. Keep one: remove ${name} (${where}) and give its limit to rateLimit({ policies }), whose 429 carries the spec's error body and counts the verified caller, or remove rateLimit() from the plugins (docs/existing-apps.md).`;

const headers = (name: string, what: string) =>
  `${name} sets security headers beside the conventions' securityHeaders(): ${what} Set those headers through the options of securityHeaders() and turn them off in ${name}, or remove securityHeaders() from the plugins (docs/existing-apps.md).`;

const overlaps: Record<Companion, Overlap> = {
  'express-rate-limit': {
    plugin: 'rate-limit',
    warning: limiter('express-rate-limit', 'its app.use() or its place on a route'),
  },
  '@fastify/rate-limit': {
    plugin: 'rate-limit',
    warning: limiter('@fastify/rate-limit', 'its app.register()'),
  },
  'hono-rate-limiter': {
    plugin: 'rate-limit',
    warning: limiter('hono-rate-limiter', 'its app.use()'),
  },
  // Both would answer preflights: which one does depends on the order of their hooks.
  '@fastify/cors': {
    plugin: 'cors',
    refused:
      "@fastify/cors and the conventions' cors() plugin both answer CORS requests: keep one. The conventions' cors() answers each preflight with the methods of its path; to keep @fastify/cors, remove cors() from the plugins.",
  },
  '@fastify/helmet': {
    plugin: 'security-headers',
    warning: headers(
      '@fastify/helmet',
      "for a header both set, the conventions' value is sent (X-XSS-Protection: 1; mode=block where helmet sends 0), and on the answers the conventions give before the app's hooks (404, 405, 401, 429) only theirs.",
    ),
  },
  'hono/secure-headers': {
    plugin: 'security-headers',
    warning: headers(
      'hono/secure-headers',
      'for a header both set, its value is sent, in either order (X-XSS-Protection: 0 where the spec wants 1; mode=block, its own Strict-Transport-Security and X-Frame-Options).',
    ),
  },
  // Entity tags then differ by the codings the request accepts: no warning.
  compression: { plugin: 'caching' },
  '@fastify/compress': { plugin: 'caching' },
  'hono/compress': { plugin: 'caching' },
};

/** What `companion` doubles up beside a service with the plugins `plugins`, if it does. */
function overlapWith(companion: Companion, plugins: readonly string[]): Overlap | undefined {
  const overlap = overlaps[companion];
  return plugins.includes(overlap.plugin) ? overlap : undefined;
}

/**
 * The warning for `companion` beside a service with the plugins `plugins`, or `undefined` where
 * the two do not double up (the plugin is not installed, or the library adapts to the companion).
 *
 * @category Host binding
 */
export function companionWarning(
  companion: Companion,
  plugins: readonly string[],
): string | undefined {
  return overlapWith(companion, plugins)?.warning;
}

/**
 * Why `companion` cannot run beside a service with the plugins `plugins`, and which to keep, or
 * `undefined` where the two can.
 *
 * @category Host binding
 */
export function companionConflict(
  companion: Companion,
  plugins: readonly string[],
): string | undefined {
  return overlapWith(companion, plugins)?.refused;
}

/** Every companion the core knows, by the name of its package (or its module, for Hono's). */
export const knownCompanions = Object.keys(overlaps) as readonly Companion[];

const coders: ReadonlySet<Companion> = new Set<Companion>([
  'compression',
  '@fastify/compress',
  'hono/compress',
]);

/**
 * Whether `companion` may encode the responses after the conventions sent them (RFC 9110 §8.4),
 * so that a strong entity tag must differ by the codings a request accepts.
 *
 * @category Host binding
 */
export function encodesAfter(companion: Companion): boolean {
  return coders.has(companion);
}
