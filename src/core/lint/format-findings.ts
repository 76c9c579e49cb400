/** Prints lint findings for a console or a thrown error, one line each. */
import type { LintFinding } from './lint-finding.ts';

/**
 * Formats findings as one line each: severity, spec section, rule, pattern, what is wrong, and
 * the corrected pattern when there is one, e.g. `error 4.1.3 lower-case /v1/userProfiles: …
 * Fix: declare it as /v1/user-profiles`.
 *
 * @example
 * ```ts
 * import { formatFindings, lintRoutes } from 'api-conventions/lint';
 *
 * const findings = lintRoutes([{ method: 'GET', path: '/v1/userProfiles' }]);
 * if (findings.length > 0) console.warn(formatFindings(findings));
 * // error 4.1.3 lower-case /v1/userProfiles: … Fix: declare it as /v1/user-profiles
 * ```
 *
 * @category Lint
 */
export function formatFindings(findings: readonly LintFinding[]): string {
  return findings
    .map(
      ({ severity, section, rule, path, message, fix }) =>
        `${severity} ${section} ${rule} ${path}: ${message}.` +
        (fix === undefined ? '' : ` Fix: declare it as ${fix}`),
    )
    .join('\n');
}
