/** Lints a whole route table: each pattern once, plus the rules that compare routes (spec 4.1). */
import type { ParamNames } from './check-param-names.ts';
import { finding, type LintFinding, type LintRoute } from './lint-finding.ts';
import { type LintOptions, resolveLintOptions } from './lint-options.ts';
import { lintPattern } from './lint-path.ts';

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

/**
 * A deprecated route with no successor named leaves its clients nowhere to go (spec 9.6, 9.8);
 * a newer version with no older sibling is fine. The fix names the next major version's path
 * when the table declares it.
 */
function deprecatedWithoutSuccessor(
  routes: readonly (LintRoute | string)[],
  declared: ReadonlyMap<string, boolean>,
): LintFinding[] {
  const found: LintFinding[] = [];
  const reported = new Set<string>();
  for (const route of routes) {
    if (typeof route === 'string' || route.deprecated === undefined) continue;
    if (route.deprecated.successor !== undefined || reported.has(route.path)) continue;
    reported.add(route.path);
    const next = /^\/v(\d+)(?=\/|$)/.exec(route.path);
    const candidate = next && route.path.replace(next[0], `/v${Number(next[1]) + 1}`);
    const fix = candidate && declared.has(candidate) ? candidate : undefined;
    const message =
      '`' +
      route.path +
      '` is deprecated without a successor; name the route that replaces it ' +
      (fix ? `(successor: '${fix}')` : "(successor: '/v2/…')") +
      ', or successor: null when nothing does';
    found.push(finding('deprecated-successor', route.path, message));
  }
  return found;
}

/**
 * Lints every route of a service: each distinct pattern once, in the order given, with POST
 * targets checked as collections and item parameters compared across routes.
 *
 * @example
 * ```ts
 * import { lintRoutes } from 'api-conventions/lint';
 *
 * lintRoutes([
 *   { method: 'GET', path: '/v1/books/:id' },
 *   { method: 'GET', path: '/v1/books/:bookId/reviews' },
 * ]);
 * // [{ rule: 'uniform-structure', path: '/v1/books/:bookId/reviews',
 * //    fix: '/v1/books/:id/reviews', … }]
 * ```
 *
 * @category Lint
 */
export function lintRoutes(
  routes: readonly (LintRoute | string)[],
  options?: LintOptions,
): LintFinding[] {
  const resolved = resolveLintOptions('lintRoutes', options);
  if (!Array.isArray(routes)) {
    throw new TypeError(
      `lintRoutes: routes must be an array of patterns or { method, path }; got ${describe(routes)}.`,
    );
  }
  // Several methods on one path share one pattern: lint it once, remembering any POST.
  const postTargets = new Map<string, boolean>();
  routes.forEach((route: unknown, i) => {
    const entry = route as Partial<LintRoute> | null;
    const path = typeof route === 'string' ? route : entry?.path;
    const method = typeof route === 'string' ? 'GET' : entry?.method;
    if (typeof path !== 'string' || typeof method !== 'string') {
      throw new TypeError(
        `lintRoutes: routes[${i}] must be a pattern string or { method: string, path: string }; ` +
          `got ${describe(route)}.`,
      );
    }
    postTargets.set(path, (postTargets.get(path) ?? false) || method.toUpperCase() === 'POST');
  });
  const names: ParamNames = new Map();
  const findings: LintFinding[] = [];
  for (const [path, postTarget] of postTargets) {
    findings.push(...lintPattern(path, resolved, { postTarget, names }));
  }
  findings.push(...deprecatedWithoutSuccessor(routes, postTargets));
  return findings;
}
