/**
 * Baselines: today's violations written to a file, so that a team adopting the auditor fails
 * only on violations that are new, and sees the ones that are gone. A violation is the same when
 * its rule, method and path are (its detail may change wording between versions).
 */
import { findingJson } from './format.ts';
import { findingKey } from './merge.ts';
import { type AuditReport, type Finding, isViolation } from './report.ts';

/**
 * A baseline file: the violations of one run.
 *
 * @category Audit
 */
export interface Baseline {
  /** The file's format. */
  version: 1;
  /** The violations, as the JSON report writes findings. */
  findings: Finding[];
}

/**
 * The baseline of a report: its violations (failures and warnings).
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs';
 * import { audit, toBaseline } from 'api-conventions/audit';
 *
 * const report = await audit({ baseUrl: 'https://staging.example.com', paths: ['/v1/books'] });
 * writeFileSync('audit-baseline.json', `${JSON.stringify(toBaseline(report), null, 2)}\n`);
 * ```
 *
 * @category Audit
 */
export function toBaseline(report: AuditReport): Baseline {
  return {
    version: 1,
    findings: report.findings.filter(isViolation).map((f) => findingJson(f) as unknown as Finding),
  };
}

/**
 * Reads a baseline from its JSON text; a `TypeError` saying what is wrong when it is not one.
 * `source` names the text in that message.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import { parseBaseline } from 'api-conventions/audit';
 *
 * const file = 'audit-baseline.json';
 * const baseline = parseBaseline(readFileSync(file, 'utf8'), `the baseline ${file}`);
 * console.log(`${baseline.findings.length} known violations`);
 * ```
 *
 * @category Audit
 */
export function parseBaseline(text: string, source = 'the baseline'): Baseline {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new TypeError(`${source} is not JSON; delete it to write a new one.`);
  }
  const findings = (value as { findings?: unknown } | null)?.findings;
  if (
    (value as { version?: unknown } | null)?.version !== 1 ||
    !Array.isArray(findings) ||
    !findings.every((f) => typeof f?.rule === 'string' && typeof f?.request === 'string')
  ) {
    throw new TypeError(
      `${source} is not an api-conventions baseline ({"version":1,"findings":[…]}); delete it to write a new one.`,
    );
  }
  return value as Baseline;
}

/**
 * The report against a baseline: each violation the baseline holds is marked `baselined` (it no
 * longer fails the run), and `gone` lists the baseline's violations this run did not find.
 *
 * @example
 * ```ts
 * import { readFileSync } from 'node:fs';
 * import {
 *   applyBaseline,
 *   audit,
 *   formatText,
 *   hasFailures,
 *   parseBaseline,
 * } from 'api-conventions/audit';
 *
 * const baseline = parseBaseline(readFileSync('audit-baseline.json', 'utf8'));
 * const report = applyBaseline(
 *   await audit({ baseUrl: 'https://staging.example.com', paths: ['/v1/books'] }),
 *   baseline,
 * );
 * console.log(formatText(report)); // the fixed ones under "Gone since the baseline"
 * process.exitCode = hasFailures(report) ? 1 : 0; // only violations the baseline lacks fail
 * ```
 *
 * @category Audit
 */
export function applyBaseline(report: AuditReport, baseline: Baseline): AuditReport {
  const known = new Set(baseline.findings.map(findingKey));
  const seen = new Set(report.findings.filter(isViolation).map(findingKey));
  return {
    ...report,
    findings: report.findings.map((f) =>
      isViolation(f) && known.has(findingKey(f)) ? { ...f, baselined: true } : f,
    ),
    gone: baseline.findings.filter((f) => !seen.has(findingKey(f))),
  };
}

/**
 * Whether a report fails a run: a failure that no baseline holds.
 *
 * @example
 * ```ts
 * import { audit, hasFailures } from 'api-conventions/audit';
 *
 * const report = await audit({ baseUrl: 'https://staging.example.com', paths: ['/v1/books'] });
 * process.exitCode = hasFailures(report) ? 1 : 0; // warnings do not fail, but with `strict: true`
 * ```
 *
 * @category Audit
 */
export function hasFailures(report: AuditReport): boolean {
  return report.findings.some((f) => f.outcome === 'fail' && !f.baselined);
}
