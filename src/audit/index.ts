/**
 * The conformance auditor: checks a live API, in any language, against the conventions, rule by
 * rule. `api-conventions/audit` and the `api-conventions audit` command; every check and how
 * it is decided: [The conformance auditor](../../docs/audit.md).
 *
 * @module api-conventions/audit
 */

export {
  applyBaseline,
  type Baseline,
  hasFailures,
  parseBaseline,
  toBaseline,
} from './baseline.ts';
export { AuditUnreachableError } from './errors.ts';
export { formatJson, formatText, type TextFormatOptions } from './format.ts';
export { formatGithub, formatJunit, formatSarif } from './format-ci.ts';
export type { AuditOptions } from './options.ts';
export type { AuditReport, Finding, FindingOutcome, Strength } from './report.ts';
export { audit } from './run.ts';
