/**
 * `api-conventions/lint`: the conventions checked where no request runs, for a test or a build
 * step: route patterns against the path rules (spec 4.1) and the version prefix (9.1) with
 * {@link lintRoutes}, one pattern with {@link lintPath}, and a response value against the payload
 * rules (spec 2.3–2.6) with {@link checkPayload}. `conventions()` already lints its own table at
 * start-up; this is for patterns and payloads you check yourself. The guide:
 * [Route lint](../docs/route-lint.md).
 *
 * @module api-conventions/lint
 */
// Pure functions of the one shared core (`#core`, package.json "imports").
export {
  checkPayload,
  formatFindings,
  hasErrors,
  type LintFinding,
  type LintOptions,
  type LintRoute,
  type LintRule,
  type LintSeverity,
  lintPath,
  lintRoutes,
} from '#core';
