/**
 * Precision on APIs nobody here wrote: two OpenAPI descriptions shipped in npm
 * packages, GitHub's REST API (a subset of @octokit/openapi) and the ReadMe API v2
 * (@readme/oas-examples), each served by a Prism mock and audited as a user would with
 * `--openapi`. Every failure is classified true or false in outside/verdicts.json: the test fails
 * on a failure nobody classified, on a classified one that no longer occurs, on any false one,
 * and on any failure of a rule the spec does not require. docs/audit.md states the counts.
 */
import { readFileSync } from 'node:fs';
import { type AuditReport, audit, type Finding } from 'api-conventions/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type PrismMock, startPrismMock } from './_prism-mock.ts';

interface Verdict {
  rule: string;
  method: string;
  path: string;
  verdict: 'true' | 'false';
  why: string;
}
const verdicts = JSON.parse(
  readFileSync(new URL('./outside/verdicts.json', import.meta.url), 'utf8'),
) as Record<string, { source: string; failures: Verdict[] }>;
const guide = readFileSync(new URL('../../docs/audit.md', import.meta.url), 'utf8');

const keyOf = (f: Pick<Finding, 'rule' | 'method' | 'path'> & { request?: string }) =>
  `${f.rule} ${f.method ?? '*'} ${f.path ?? f.request}`;

describe.each([
  ['github', 'GitHub REST API', {}],
  // Its operations take a bearer token; the mock takes any.
  ['readme', 'ReadMe API', { Authorization: 'Bearer api-conventions-audit' }],
] as const)('%s, served by a Prism mock', (name, title, headers) => {
  let mock: PrismMock;
  let report: AuditReport;
  beforeAll(async () => {
    const document = JSON.parse(
      readFileSync(new URL(`./outside/${name}.openapi.json`, import.meta.url), 'utf8'),
    );
    mock = await startPrismMock(document);
    report = await audit({ baseUrl: mock.url, openapi: mock.document, headers });
  }, 120_000);
  afterAll(() => mock?.close());

  it('fails only what is classified true, and fails no rule the spec does not require', () => {
    const failures = report.findings.filter((f) => f.outcome === 'fail');
    const classified = new Map(verdicts[name]!.failures.map((v) => [keyOf(v), v]));
    const unclassified = failures.map(keyOf).filter((key) => !classified.has(key));
    const gone = [...classified.keys()].filter((key) => !failures.some((f) => keyOf(f) === key));
    expect({ unclassified, gone }).toEqual({ unclassified: [], gone: [] });
    expect(verdicts[name]!.failures.filter((v) => v.verdict !== 'true')).toEqual([]);
    expect(failures.filter((f) => f.strength !== 'required')).toEqual([]);
    expect(failures.length).toBeGreaterThan(20);
  });

  it('has its counts stated in docs/audit.md', () => {
    const failures = report.findings.filter((f) => f.outcome === 'fail').length;
    const warnings = report.findings.filter((f) => f.outcome === 'warn').length;
    expect(guide, `${failures} failures, ${warnings} warnings`).toContain(
      `| ${title} | ${failures} | ${failures} | 0 | ${warnings} |`,
    );
  });
});
