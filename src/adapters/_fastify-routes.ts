/** Routing translation between the route table (path-to-regexp) and Fastify's router (find-my-way). */

/** Fastify path syntax for a route-table pattern: `:name` is shared, `*name` becomes `*`. */
export function toFastifyUrl(pattern: string): { url: string; wildcard: string | undefined } {
  const star = /\*([^/]+)$/.exec(pattern);
  if (/[{}()\\]/.test(pattern) || (!star && pattern.includes('*'))) {
    throw new TypeError(
      `Route "${pattern}": Fastify has no optional groups, escapes or inner wildcards; declare each path as its own route.`,
    );
  }
  return star
    ? { url: `${pattern.slice(0, star.index)}*`, wildcard: star[1] }
    : { url: pattern, wildcard: undefined };
}
