/** Prints lint findings for a console or a thrown error, one line each. */
import type { LintFinding } from './lint-finding.ts';

/**
 * Formats findings as one line each: `4.1.3 lower-case /v1/userProfiles: … → /v1/user-profiles`.
 * @example
 * const findings = lintRoutes(routes);
 * if (findings.length > 0) console.warn(formatFindings(findings));
 */
export function formatFindings(findings: readonly LintFinding[]): string {
  return findings
    .map(
      ({ section, rule, path, message, fix }) =>
        `${section} ${rule} ${path}: ${message}${fix === undefined ? '' : ` → ${fix}`}`,
    )
    .join('\n');
}
