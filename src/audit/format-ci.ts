/**
 * The reports CI systems read: JUnit XML (one test case per finding, grouped by section), SARIF
 * 2.1.0 (one result per failure, each rule with the help that says how to fix it) and GitHub
 * Actions workflow commands (one annotation per failure). The server's text is escaped in each
 * ([The conformance auditor](../../docs/audit.md) "Safe by default").
 */
import { XMLBuilder } from 'fast-xml-parser';
import { escapeControls } from './escape.ts';
import { summaryOf } from './format.ts';
import { type AuditReport, type Finding, isViolation, sectionOf } from './report.ts';
import { fixFor, helpFor } from './rules.ts';

/** The page that documents every check, for SARIF's `helpUri` and `informationUri`. */
const guide = 'https://github.com/api-conventions/api-conventions/blob/main/docs/audit.md';

/** Text for XML: escaped controls (XML 1.0 forbids most of them anyway); the builder escapes the rest. */
const xml = (text: string) =>
  escapeControls(text).replace(/[\uD800-\uDFFF\uFFFE\uFFFF]/g, '\uFFFD');

const junitXml = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true,
});

/** A suite's or the whole report's counts, as JUnit's attributes. */
const counts = (findings: Finding[]) => ({
  '@tests': findings.length,
  '@failures': findings.filter((f) => f.outcome === 'fail').length,
  '@skipped': findings.filter((f) => f.outcome === 'skip').length,
  '@errors': 0,
  '@time': 0,
});

/** A finding as a `<testcase>`, with what JUnit has for its outcome. */
function testcase(section: string, f: Finding): Record<string, unknown> {
  const head = {
    '@classname': `api-conventions.${xml(section)}`,
    '@name': xml(`${f.rule} ${f.request}`),
    '@time': 0,
  };
  const fix = `Fix: ${f.fix ?? fixFor(f.rule, false)}`;
  switch (f.outcome) {
    case 'pass':
      return head;
    case 'warn':
      // JUnit has no warning: a test case that passed, with the warning in its output.
      return {
        ...head,
        'system-out': xml(
          `warning (${f.strength}): ${f.detail}${f.evidence ? ` (${f.evidence})` : ''}. ${fix}`,
        ),
      };
    case 'skip':
      return { ...head, skipped: { '@message': xml(f.detail) } };
    default:
      return {
        ...head,
        failure: {
          '@message': xml(f.detail),
          '@type': xml(f.rule),
          '#text': [f.detail, f.evidence, fix]
            .filter((t): t is string => t !== undefined)
            .map(xml)
            .join('\n'),
        },
      };
  }
}

/**
 * The report as JUnit XML: a test suite per section of the spec, a test case per finding (its
 * rule and request), a `<failure>` with the detail, evidence and fix, a `<skipped>` with why.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs';
 * import { audit, formatJunit } from 'api-conventions/audit';
 *
 * const report = await audit({ baseUrl: 'https://staging.example.com', paths: ['/v1/books'] });
 * writeFileSync('audit-junit.xml', formatJunit(report)); // for the CI's test report
 * ```
 *
 * @category Audit
 */
export function formatJunit(report: AuditReport): string {
  const sections = new Map<string, Finding[]>();
  for (const finding of report.findings) {
    const section = sectionOf(finding.rule);
    sections.set(section, [...(sections.get(section) ?? []), finding]);
  }
  const testsuite = [...sections].map(([section, findings]) => ({
    '@name': xml(`${section} ${helpFor(section).title}`),
    ...counts(findings),
    testcase: findings.map((f) => testcase(section, f)),
  }));
  return junitXml.build({
    '?xml': { '@version': '1.0', '@encoding': 'UTF-8' },
    testsuites: { '@name': 'api-conventions audit', ...counts(report.findings), testsuite },
  }) as string;
}

/** Where a finding is: the OpenAPI document for a static check, else the URL it requested. */
function locationOf(finding: Finding, base: string | undefined): Record<string, unknown> {
  const hash = finding.request.indexOf('#/');
  if (hash > 0 && !/\s/.test(finding.request.slice(0, hash))) {
    const source = finding.request.slice(0, hash);
    return {
      physicalLocation: { artifactLocation: { uri: encodeURI(source) } },
      logicalLocations: [{ fullyQualifiedName: finding.request.slice(hash), kind: 'object' }],
    };
  }
  const target = /^[A-Z]+ (\/\S*)/.exec(finding.request)?.[1];
  let uri: string | undefined;
  try {
    uri = target && base ? new URL(`${base}${target}`).href : undefined;
  } catch {
    uri = undefined;
  }
  return {
    ...(uri ? { physicalLocation: { artifactLocation: { uri } } } : {}),
    logicalLocations: [{ name: escapeControls(finding.request), kind: 'resource' }],
  };
}

/**
 * The report as SARIF 2.1.0 (OASIS): one run of the tool `api-conventions audit`, each rule that
 * failed described with the help that says how to fix it, and one result per failure.
 *
 * @example
 * ```ts
 * import { writeFileSync } from 'node:fs';
 * import { audit, formatSarif } from 'api-conventions/audit';
 *
 * const report = await audit({ baseUrl: 'https://staging.example.com', paths: ['/v1/books'] });
 * writeFileSync('audit.sarif', formatSarif(report)); // for code scanning (GitHub, GitLab)
 * ```
 *
 * @category Audit
 */
export function formatSarif(report: AuditReport): string {
  const failures = report.findings.filter(isViolation);
  const ids = [...new Set(failures.map((f) => f.rule))];
  const rules = ids.map((id) => {
    const help = helpFor(id);
    return {
      id,
      name: help.title.replace(/[^A-Za-z0-9]+(.)?/g, (_, c: string | undefined) =>
        (c ?? '').toUpperCase(),
      ),
      shortDescription: { text: `${id} ${help.title}` },
      help: { text: help.library ? `${help.fix} With api-conventions: ${help.library}` : help.fix },
      helpUri: guide,
      defaultConfiguration: {
        level: failures.find((f) => f.rule === id)?.strength === 'required' ? 'error' : 'warning',
      },
    };
  });
  const results = failures.map((f) => ({
    ruleId: f.rule,
    ruleIndex: ids.indexOf(f.rule),
    level: f.outcome === 'fail' ? 'error' : 'warning',
    // With a baseline, code scanning tells new results from known ones.
    ...(report.gone !== undefined ? { baselineState: f.baselined ? 'unchanged' : 'new' } : {}),
    properties: { strength: f.strength },
    message: {
      text: escapeControls(
        `${f.request}: ${f.detail}${f.evidence ? ` (${f.evidence})` : ''}. Fix: ${f.fix ?? fixFor(f.rule, false)}`,
      ),
    },
    locations: [locationOf(f, report.baseUrl)],
  }));
  return JSON.stringify({
    $schema:
      'https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json',
    version: '2.1.0',
    runs: [
      {
        tool: { driver: { name: 'api-conventions audit', informationUri: guide, rules } },
        results,
      },
    ],
  });
}

/** A workflow command's message: `%`, CR and LF escaped as GitHub's toolkit does. */
function commandData(text: string): string {
  return escapeControls(text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A'));
}

/** A workflow command's property value: `:` and `,` escaped too. */
function commandProperty(text: string): string {
  return commandData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/**
 * The report as GitHub Actions workflow commands: an `::error` annotation per failure (on the
 * OpenAPI document's file for a static check), then a `::notice` with the summary.
 *
 * @example
 * ```ts
 * import { audit, formatGithub } from 'api-conventions/audit';
 *
 * const report = await audit({ baseUrl: 'https://staging.example.com', paths: ['/v1/books'] });
 * console.log(formatGithub(report)); // in a GitHub Actions step: annotations and a summary
 * ```
 *
 * @category Audit
 */
export function formatGithub(report: AuditReport): string {
  const lines = report.findings.filter(isViolation).map((f) => {
    const hash = f.request.indexOf('#/');
    const file =
      hash > 0 && !/^https?:/i.test(f.request) && !/\s/.test(f.request.slice(0, hash))
        ? `file=${commandProperty(f.request.slice(0, hash))},`
        : '';
    const title = commandProperty(`api-conventions ${f.rule} ${helpFor(f.rule).title}`);
    const text = `${f.request}: ${f.detail}${f.evidence ? ` (${f.evidence})` : ''}. Fix: ${f.fix ?? fixFor(f.rule, false)}`;
    const level = f.outcome === 'fail' && !f.baselined ? 'error' : 'warning';
    return `::${level} ${file}title=${title}::${commandData(text)}`;
  });
  lines.push(`::notice title=api-conventions audit::${commandData(summaryOf(report))}`);
  return `${lines.join('\n')}\n`;
}
