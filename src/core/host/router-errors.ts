/**
 * Errors a host's router raises for a request it cannot route. They are routing answers, not
 * failures: the route view gives them as it does on every host (400 naming a path that cannot be
 * decoded, 404, or 405 with `Allow`), instead of the wording of the host's own error.
 */

/** When a router's error is the route view's to answer, by the error's code. */
const routerErrors: Readonly<Record<string, 'unroutable' | 'unmatched'>> = {
  // find-my-way cannot decode the path: the core's path rules name it.
  FST_ERR_BAD_URL: 'unroutable',
  // A method that carries a body (QUERY) on a path no route serves.
  FST_ERR_ROUTE_MISSING_CONTENT_TYPE: 'unmatched',
};

/**
 * Whether `error` is a router's, about a request the route view answers instead: one the host's
 * router found no route for (`unmatched`), or whose target the core cannot route (`unroutable`,
 * asked only when it matters).
 */
export function answeredByRouteView(
  error: unknown,
  unmatched: boolean | undefined,
  unroutable: () => boolean,
): boolean {
  const code = (error as { code?: unknown } | null | undefined)?.code;
  if (typeof code !== 'string' || !Object.hasOwn(routerErrors, code)) return false;
  return routerErrors[code] === 'unmatched' ? unmatched === true : unroutable();
}
