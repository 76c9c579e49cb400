/** Route lint: checks route patterns against the path rules (spec 4.1) and version prefix (9.1). */
export { formatFindings } from './format-findings.ts';
export type { LintFinding, LintRoute, LintRule, LintSeverity } from './lint-finding.ts';
export { hasErrors } from './lint-finding.ts';
export type { LintOptions } from './lint-options.ts';
export { lintPath } from './lint-path.ts';
export { lintRoutes } from './lint-routes.ts';
