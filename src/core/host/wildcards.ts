/**
 * Wildcards between the route table's patterns (path-to-regexp: `:name`, and a named trailing
 * wildcard `*name`) and the routers of hosts that know only a trailing catch-all `*` (Fastify's
 * find-my-way, Hono's): translated here, the same way for every such host.
 */

/** The name a host's unnamed catch-all gets in the table's syntax. */
const catchAllName = 'rest';

/**
 * A path of a host's own route in the table's syntax: its trailing catch-all `*` becomes the
 * named wildcard `*rest`; the rest of the path is the same in both.
 *
 * @example
 * ```ts
 * import { tablePattern } from 'api-conventions/host';
 *
 * tablePattern('/v1/files/*'); // '/v1/files/*rest'
 * ```
 *
 * @category Host binding
 */
export function tablePattern(path: string): string {
  return path.endsWith('*') ? `${path}${catchAllName}` : path;
}

/**
 * A pattern of the route table for a host router with a trailing catch-all only: a trailing
 * `*name` becomes `*` (its value is the rest of the path, as the table's). Optional groups,
 * escapes and inner wildcards, which such a router cannot read, are a `TypeError` naming `host`.
 *
 * @example
 * ```ts
 * import { catchAllPath } from 'api-conventions/host';
 *
 * catchAllPath('/v1/files/*path', 'Fastify'); // '/v1/files/*'
 * ```
 *
 * @category Host binding
 */
export function catchAllPath(pattern: string, host: string): string {
  const star = /\*([^/]+)$/.exec(pattern);
  if (/[{}()\\]/.test(pattern) || (!star && pattern.includes('*'))) {
    throw new TypeError(
      `Route "${pattern}": ${host} has no optional groups, escapes or inner wildcards; declare each path as its own route.`,
    );
  }
  return star ? `${pattern.slice(0, star.index)}*` : pattern;
}
