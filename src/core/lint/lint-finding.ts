/** The shapes the route lint reports in: rule names, findings and routes (spec 4.1, 9.1). */

/**
 * The name of one lint rule; the list is in report order.
 *
 * @category Lint
 */
export type LintRule =
  | 'lower-case'
  | 'trailing-slash'
  | 'plural-collection'
  | 'hyphen-words'
  | 'no-extension'
  | 'no-encoding'
  | 'version-prefix'
  | 'required-in-path'
  | 'uniform-structure'
  | 'invalid-pattern'
  | 'deprecated-successor';

/**
 * How bad a finding is: `'error'` when the route cannot be served as declared (requests for the
 * path get 404), `'warning'` when it is served but breaks a style rule of the spec.
 *
 * @category Lint
 */
export type LintSeverity = 'error' | 'warning';

/**
 * One broken rule in one route pattern, with the corrected pattern when one can be derived.
 *
 * @category Lint
 */
export interface LintFinding {
  /** The rule that is broken. */
  rule: LintRule;
  /** `'error'` when requests for the declared path get 404, else `'warning'`. */
  severity: LintSeverity;
  /** The spec section the rule comes from, e.g. `'4.1.3'`. */
  section: string;
  /** The route pattern as it was given. */
  path: string;
  /** A sentence that says what is wrong and why. */
  message: string;
  /**
   * The whole pattern with this finding's problem corrected, when it can be derived. Each fix
   * corrects its own rule only, so a pattern with several findings is fixed one rule at a time.
   */
  fix?: string;
}

/**
 * One route of a service: its method and its path-to-regexp v8 pattern.
 *
 * @category Lint
 */
export interface LintRoute {
  /** The HTTP method; `POST` marks the last segment of the path as a collection (spec 4.2). */
  method: string;
  /** The path pattern, e.g. `/v1/books/:id`. */
  path: string;
  /**
   * The route's deprecation, when it has one: deprecated without a `successor` is a warning
   * (spec 9.8), unless `successor` is `null` (nothing replaces it).
   */
  deprecated?:
    | {
        /** The route that replaces it; `null` when nothing does. */
        readonly successor?: string | null | undefined;
      }
    | undefined;
}

/**
 * The spec section each rule enforces.
 */
const ruleSections: Readonly<Record<LintRule, string>> = {
  'lower-case': '4.1.3',
  'trailing-slash': '4.1',
  'plural-collection': '4.1.4',
  'hyphen-words': '4.1.6',
  'no-extension': '4.1.2',
  'no-encoding': '4.1.5',
  'version-prefix': '9.1',
  'required-in-path': '4.1.8',
  'uniform-structure': '4.1.7',
  'invalid-pattern': '4.1',
  'deprecated-successor': '9.8',
};

// The declared path answers 404: the path rule rejects any upper-case letter (spec 4.1.3), a
// trailing slash makes `/v1/books` a different path that is never redirected to (spec 4.1), and
// an invalid pattern matches nothing. `no-encoding` is an error only for characters no request
// path carries unencoded; check-text.ts decides that per finding.
const errorRules: ReadonlySet<LintRule> = new Set([
  'lower-case',
  'trailing-slash',
  'invalid-pattern',
]);

/**
 * Builds a finding, leaving `fix` out when there is none so results compare cleanly.
 *
 * @category Lint
 */
export function finding(
  rule: LintRule,
  path: string,
  message: string,
  fix?: string,
  section: string = ruleSections[rule],
  severity: LintSeverity = errorRules.has(rule) ? 'error' : 'warning',
): LintFinding {
  return fix === undefined
    ? { rule, severity, section, path, message }
    : { rule, severity, section, path, message, fix };
}

/**
 * Tells whether any finding is an error: a route whose declared path answers 404.
 *
 * @example
 * ```ts
 * import { hasErrors, lintRoutes } from 'api-conventions/lint';
 *
 * // A route with a trailing slash is never served (spec 4.1.9): an error.
 * if (hasErrors(lintRoutes([{ method: 'GET', path: '/v1/books/' }]))) process.exitCode = 1;
 * ```
 *
 * @category Lint
 */
export function hasErrors(findings: readonly LintFinding[]): boolean {
  return findings.some((found) => found.severity === 'error');
}
