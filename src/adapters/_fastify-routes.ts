/** Routing translation between the route table (path-to-regexp) and Fastify's router (find-my-way). */
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** find-my-way lets a parameter match nothing (`/v1/books/`); the route table's patterns do not. */
export function hasEmpty(params: Record<string, string> | undefined): boolean {
  for (const name in params) if (params[name] === '') return true;
  return false;
}

/** The methods Fastify's router serves on a concrete path; the core orders them for `Allow`. */
export function allowedOn(fastify: FastifyInstance, url: string): string[] {
  return fastify.supportedMethods.filter((method) => {
    const found = fastify.findRoute({ method, url });
    return found !== null && !hasEmpty(found.params as Record<string, string>);
  });
}

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

/** The route's parameters under the table's names: Fastify calls a wildcard `*`. */
export function paramsOf(
  request: FastifyRequest,
  wildcard: string | undefined,
): Record<string, string> {
  const params = request.params as Record<string, string>;
  if (wildcard === undefined) return params;
  const { '*': rest = '', ...named } = params;
  return { ...named, [wildcard]: rest };
}
