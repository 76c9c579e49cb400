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
 * @category Host binding
 */
export function catchAllPath(pattern: string, host: string): string {
  const star = /\*([^/]+)$/.exec(pattern);
  if (/[{}()\\]/.test(pattern) || (!star && pattern.includes('*'))) {
    throw unreadable(pattern, host, 'optional groups, escapes or inner wildcards');
  }
  return star ? `${pattern.slice(0, star.index)}*` : pattern;
}

/**
 * A pattern of the route table for a host router on path-to-regexp 0.1 (Express 4), where `*` is
 * an unnamed wildcard: a named wildcard `*name` becomes the parameter `:name(.+)`, whose value is
 * the rest of the path, as the table's. Optional groups and escapes, which such a router cannot
 * read, are a `TypeError` naming `host`.
 *
 * @category Host binding
 */
export function regexpParamPath(pattern: string, host: string): string {
  if (/[{}()\\]/.test(pattern)) throw unreadable(pattern, host, 'optional groups or escapes');
  return pattern.replace(/\*(\w+)/g, ':$1(.+)');
}

/** A pattern a host's router cannot read: one wording for every host. */
function unreadable(pattern: string, host: string, what: string): TypeError {
  return new TypeError(
    `Route "${pattern}": ${host} has no ${what}; declare each path as its own route.`,
  );
}

/**
 * A host's decoded path parameters as strings: Express 5 gives a wildcard's segments as an array,
 * which the table's `*name` holds as one string, its segments joined by `/`.
 */
export function joinWildcards(
  params: Readonly<Record<string, string | readonly string[]>>,
): Readonly<Record<string, string>> {
  let joined: Record<string, string> | undefined;
  for (const name in params) {
    const value = params[name];
    if (!Array.isArray(value)) continue;
    joined ??= { ...(params as Record<string, string>) };
    joined[name] = value.join('/');
  }
  return joined ?? (params as Readonly<Record<string, string>>);
}
