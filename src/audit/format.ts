/** The two output formats: JSON exactly as [The conformance auditor](../../docs/audit.md) gives it, and text grouped by section. */
import { escapeControls, escapeJsonControls } from './escape.ts';
import { type AuditReport, type Finding, sectionOf } from './report.ts';

/**
 * How {@link formatText} writes.
 *
 * @category Audit
 */
export interface TextFormatOptions {
  /** ANSI colours (the command turns them on only on a terminal). @default false */
  color?: boolean;
  /** List passes too, not only failures and skips. @default false */
  all?: boolean;
}

const titles: Record<string, string> = {
  '2': 'Fields and payloads',
  '4.1': 'Paths',
  '4.2': 'Methods',
  '4.3': 'Success statuses',
  '4.4': 'Query parameters',
  '4.5': 'Choosing the format',
  '4.6': 'Media types',
  '4.7': 'Caching',
  '4.8': 'Security headers',
  '4.9': 'Token endpoint',
  '5': 'Authentication',
  '7.1': 'Errors',
  '7.2': 'Status codes',
  '8': 'Limits',
  '9': 'Versioning',
  openapi: 'The OpenAPI contract',
};

/** Compares section numbers numerically (`4.2` before `4.10`), named sections last. */
function bySection(a: string, b: string): number {
  const number = (part: string) => (/^\d+$/.test(part) ? Number(part) : Number.MAX_SAFE_INTEGER);
  const x = a.split('.').map(number);
  const y = b.split('.').map(number);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? -1) - (y[i] ?? -1);
    if (d !== 0) return d;
  }
  return 0;
}

/** A finding as the JSON report and the baseline file write it. */
export function findingJson(f: Finding): Record<string, unknown> {
  return {
    rule: f.rule,
    outcome: f.outcome,
    strength: f.strength,
    request: f.request,
    detail: f.detail,
    ...(f.method !== undefined ? { method: f.method } : {}),
    ...(f.path !== undefined ? { path: f.path } : {}),
    ...(f.document !== undefined ? { document: f.document } : {}),
    ...(f.fix !== undefined ? { fix: f.fix } : {}),
    ...(f.baselined ? { baselined: true } : {}),
  };
}

/**
 * The report as one JSON object: `{"findings":[{"rule","outcome","strength","request","detail"},
 * …]}` (a violation with its `fix` too; with a baseline, `gone` lists the violations it held that
 * this run did not find), with control characters escaped (the JSON value is unchanged).
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs';
 * import { audit, formatJson } from 'api-conventions/audit';
 *
 * const report = await audit({ baseUrl: 'https://staging.example.com', paths: ['/v1/books'] });
 * writeFileSync('audit.json', formatJson(report)); // {"findings":[{"rule","outcome",…}]}
 * ```
 *
 * @category Audit
 */
export function formatJson(report: AuditReport): string {
  const findings = report.findings.map(findingJson);
  const gone = report.gone ? { gone: report.gone.map(findingJson) } : {};
  return escapeJsonControls(JSON.stringify({ findings, ...gone }));
}

/** The summary line: `64 passed, 0 failed, 3 warnings, 9 skipped (27 requests)`. */
export function summaryOf(report: AuditReport): string {
  const count = (outcome: Finding['outcome']) =>
    report.findings.filter((f) => f.outcome === outcome).length;
  const known = report.findings.filter((f) => f.baselined).length;
  const baseline =
    report.gone !== undefined ? `; baseline: ${known} known, ${report.gone.length} gone` : '';
  return `${count('pass')} passed, ${count('fail')} failed, ${count('warn')} warnings, ${count('skip')} skipped (${report.requests} requests${baseline})`;
}

/**
 * The report as text: findings grouped by section (failures and skips, or all), each with its
 * request, status and evidence, then a summary line. Control characters from the server are
 * escaped (`\x1b`), never written raw.
 *
 * @example
 * ```ts
 * import { audit, formatText } from 'api-conventions/audit';
 *
 * const report = await audit({ baseUrl: 'https://staging.example.com', paths: ['/v1/books'] });
 * console.log(formatText(report, { color: process.stdout.isTTY }));
 * ```
 *
 * @category Audit
 */
export function formatText(report: AuditReport, options: TextFormatOptions = {}): string {
  const paint = (code: number, text: string) =>
    options.color ? `\u001b[${code}m${text}\u001b[0m` : text;
  const label = {
    pass: paint(32, 'PASS'),
    fail: paint(31, 'FAIL'),
    warn: paint(35, 'WARN'),
    skip: paint(33, 'SKIP'),
  };
  const groups = new Map<string, Finding[]>();
  for (const finding of report.findings) {
    if (finding.outcome === 'pass' && !options.all) continue;
    const section = sectionOf(finding.rule);
    groups.set(section, [...(groups.get(section) ?? []), finding]);
  }
  const lines: string[] = [];
  for (const section of [...groups.keys()].sort(bySection)) {
    lines.push(paint(1, `${section} ${titles[section] ?? ''}`.trim()));
    for (const f of groups.get(section) ?? []) {
      // Requests, details and evidence carry the server's text: never raw on a terminal.
      const status = f.status ? ` → ${f.status}` : '';
      const graded =
        f.outcome === 'fail' || f.outcome === 'warn'
          ? ` (${f.strength}${f.baselined ? ', in the baseline' : ''})`
          : '';
      lines.push(
        `  ${label[f.outcome]} ${escapeControls(f.rule).padEnd(6)} ${escapeControls(f.request)}${status}${graded}`,
      );
      lines.push(`              ${escapeControls(f.detail)}`);
      if (f.document) lines.push(`              document: ${escapeControls(f.document)}`);
      if (f.evidence) lines.push(`              ${paint(2, escapeControls(f.evidence))}`);
      if (f.fix) lines.push(`              fix: ${f.fix}`);
    }
    lines.push('');
  }
  if (report.gone && report.gone.length > 0) {
    lines.push(paint(1, 'Gone since the baseline'));
    for (const f of report.gone) {
      lines.push(`  ${escapeControls(f.rule).padEnd(6)} ${escapeControls(f.request)}`);
    }
    lines.push('');
  }
  const failed = report.findings.some((f) => f.outcome === 'fail' && !f.baselined);
  const summary = summaryOf(report);
  lines.push(failed ? paint(31, summary) : paint(32, summary));
  return `${lines.join('\n')}\n`;
}
