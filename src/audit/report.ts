/** Findings: one per check and request, with the spec rule it tests ([The conformance auditor](../../docs/audit.md)). */

/**
 * What one check concluded.
 *
 * @category Audit
 */
export type FindingOutcome = 'pass' | 'fail' | 'skip';

/**
 * One check on one request (or one place of an OpenAPI document).
 *
 * @category Audit
 */
export interface Finding {
  /**
   * The spec's rule (`4.1.3`) or, where the spec does not number its rules, its section (`4.7`);
   * for a check of the OpenAPI contract, `openapi.<check>` (`openapi.schema`).
   */
  rule: string;
  /** `pass`, `fail`, or `skip` when the check could not be decided. */
  outcome: FindingOutcome;
  /** The request that decided it (`GET /v1/Books`), or the document location of a static check. */
  request: string;
  /** What was seen, in one line. */
  detail: string;
  /** The status of the deciding response, when there was one. */
  status?: number;
  /** The offending header or body excerpt, shown by the text format. */
  evidence?: string;
  /**
   * How to fix a failure (failures only); where the service is built with this library, the
   * plugin or helper that does it.
   */
  fix?: string;
}

/**
 * The result of {@link audit}: every finding, and how many requests were sent.
 *
 * @category Audit
 */
export interface AuditReport {
  /** One finding per check and path, in the order the checks ran. */
  findings: Finding[];
  /** Requests sent to the service (never more than `maxRequests`). */
  requests: number;
  /** The audited origin (`https://api.example.com`), which reports resolve requests against. */
  baseUrl?: string;
}

/** Whether `rule` is selected by the `only` prefixes (`4.1` selects `4.1.3`; none selects all). */
export function isSelected(rule: string, only: readonly string[]): boolean {
  if (only.length === 0) return true;
  return only.some((prefix) => rule === prefix || rule.startsWith(`${prefix}.`));
}

/** Collects findings, dropping those `--only` leaves out. */
export class Findings {
  readonly list: Finding[] = [];
  constructor(private readonly only: readonly string[]) {}

  /** Whether any of `rules` is selected, so a probe for them is worth its requests. */
  wants(...rules: string[]): boolean {
    return rules.some((rule) => isSelected(rule, this.only));
  }

  /** Records one finding if its rule is selected. */
  add(finding: Finding): void {
    if (isSelected(finding.rule, this.only)) this.list.push(finding);
  }

  /** Records a pass. */
  pass(rule: string, request: string, detail: string, status?: number): void {
    this.add({ rule, outcome: 'pass', request, detail, ...(status ? { status } : {}) });
  }

  /** Records a failure with its evidence. */
  fail(rule: string, request: string, detail: string, status?: number, evidence?: string): void {
    this.add({
      rule,
      outcome: 'fail',
      request,
      detail,
      ...(status ? { status } : {}),
      ...(evidence ? { evidence } : {}),
    });
  }

  /** Records a check that could not be decided, and why. */
  skip(rule: string, request: string, detail: string): void {
    this.add({ rule, outcome: 'skip', request, detail });
  }

  /** Records a pass or a failure depending on `problem` (a failure's detail, or undefined). */
  decide(
    rule: string,
    request: string,
    problem: string | undefined,
    passDetail: string,
    status?: number,
    evidence?: string,
  ): void {
    if (problem === undefined) this.pass(rule, request, passDetail, status);
    else this.fail(rule, request, problem, status, evidence);
  }
}

/** The heading a rule is grouped under: `4.1.3` → `4.1`, `7.1.5` → `7.1`, `2.7` → `2`, `8` → `8`. */
export function sectionOf(rule: string): string {
  const parts = rule.split('.');
  if (parts[0] === 'openapi') return 'openapi';
  if (parts[0] === '4' || parts[0] === '7') return parts.slice(0, 2).join('.');
  return parts[0] ?? rule;
}
