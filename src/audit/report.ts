/** Findings: one per check and request, with the spec rule it tests and how strongly ([The conformance auditor](../../docs/audit.md)). */
import { type Strength, strengthOf } from './strength.ts';

export type { Strength };

/**
 * What one check concluded: `pass`; `fail`, a required rule broken (or, with `strict`, any
 * rule); `warn`, a preferred rule or a pattern of the spec not followed; `skip` when it could
 * not be decided.
 *
 * @category Audit
 */
export type FindingOutcome = 'pass' | 'fail' | 'warn' | 'skip';

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
  /** `pass`, `fail`, `warn`, or `skip` when the check could not be decided. */
  outcome: FindingOutcome;
  /**
   * How strongly the spec words the check ([The conformance auditor](../../docs/audit.md) gives
   * the words).
   */
  strength: Strength;
  /** The request that decided it (`GET /v1/Books`), or the document location of a static check. */
  request: string;
  /** What was seen, in one line. */
  detail: string;
  /** The method the finding is about, when it is about one (`GET`). */
  method?: string;
  /** The path it is about: the document's template when the path is documented (`/v1/books/{id}`). */
  path?: string;
  /** The place in the OpenAPI document that says the same, when the document was checked too. */
  document?: string;
  /** The status of the deciding response, when there was one. */
  status?: number;
  /** The offending header or body excerpt, shown by the text format. */
  evidence?: string;
  /**
   * How to fix a failure or a warning; where the service is built with this library, the
   * plugin or helper that does it.
   */
  fix?: string;
  /** Set by a baseline: the violation was already in it, so it does not fail the run. */
  baselined?: boolean;
}

/**
 * The result of {@link audit}: every finding, and how many requests were sent.
 *
 * @category Audit
 */
export interface AuditReport {
  /** One finding per rule, method and path, in the order the checks ran. */
  findings: Finding[];
  /** Requests sent to the service (never more than `maxRequests`). */
  requests: number;
  /** The audited origin (`https://api.example.com`), which reports resolve requests against. */
  baseUrl?: string;
  /** With a baseline: the violations it holds that this run no longer found. */
  gone?: Finding[];
}

/** Which rules a run reports, and whether every violation fails. */
interface Selection {
  /** Rule prefixes to keep (`4.1` keeps `4.1.3`); none keeps all. */
  only: readonly string[];
  /** Rule prefixes to leave out. */
  skip: readonly string[];
  /** Every violation fails, warnings included. */
  strict: boolean;
}

/** What a finding is about, when its request does not say it plainly. */
export interface Place {
  /** The method, or `null` for a rule about the path itself (its spelling). */
  method?: string | null;
  /** The path (a documented path's template). */
  path?: string;
}

/** Whether `rule` is under one of `prefixes` (`4.1` selects `4.1.3`, never `4.10`). */
function under(rule: string, prefixes: readonly string[]): boolean {
  return prefixes.some((prefix) => rule === prefix || rule.startsWith(`${prefix}.`));
}

/** Whether `rule` is selected by the `only` prefixes (none selects all) and not by `skip`. */
export function isSelected(rule: string, only: readonly string[], skip: readonly string[] = []) {
  return (only.length === 0 || under(rule, only)) && !under(rule, skip);
}

/** The method and path a request names (`GET /v1/books?x=1 (…)` → `GET`, `/v1/books`). */
function placeOf(request: string): { method?: string; path?: string } {
  const m = /^([A-Z]+) (\/[^\s?#]*)/.exec(request);
  return m ? { method: m[1]!, path: m[2]! } : {};
}

/** Collects findings, dropping those `only` and `skip` leave out. */
export class Findings {
  constructor(
    private readonly selection: Selection,
    /** The audited path (its template when documented) the findings are about, if one. */
    private readonly scope?: string,
    readonly list: Finding[] = [],
  ) {}

  /** The same findings, about `path` (a documented path's template). */
  about(path: string): Findings {
    return new Findings(this.selection, path, this.list);
  }

  /** Whether any of `rules` is selected, so a probe for them is worth its requests. */
  wants(...rules: string[]): boolean {
    return rules.some((rule) => isSelected(rule, this.selection.only, this.selection.skip));
  }

  /** Records one finding if its rule is selected, with its method and path. */
  add(finding: Omit<Finding, 'strength'> & { strength?: Strength }, place: Place = {}): void {
    if (!this.wants(finding.rule)) return;
    const parsed = placeOf(finding.request);
    const method = place.method === null ? undefined : (place.method ?? parsed.method);
    const path = place.path ?? this.scope ?? parsed.path;
    this.list.push({
      ...finding,
      strength: finding.strength ?? strengthOf(finding.rule),
      ...(method !== undefined ? { method } : {}),
      ...(path !== undefined ? { path } : {}),
    });
  }

  /** Records a pass. */
  pass(rule: string, request: string, detail: string, status?: number, place?: Place): void {
    this.add({ rule, outcome: 'pass', request, detail, ...(status ? { status } : {}) }, place);
  }

  /**
   * Records a violation with its evidence: a failure when the check is required (or the run
   * strict), else a warning. A request that got no answer (`status` 0: a reset, a timeout)
   * proves nothing, so it is a skip that says it could not be checked, and why.
   */
  fail(
    rule: string,
    request: string,
    detail: string,
    status?: number,
    evidence?: string,
    strength: Strength = strengthOf(rule),
    place?: Place,
  ): void {
    if (status === 0) {
      this.skip(rule, request, `could not check: ${detail}`, place);
      return;
    }
    const outcome = strength === 'required' || this.selection.strict ? 'fail' : 'warn';
    this.add(
      {
        rule,
        outcome,
        strength,
        request,
        detail,
        ...(status ? { status } : {}),
        ...(evidence ? { evidence } : {}),
      },
      place,
    );
  }

  /** Records a check that could not be decided, and why. */
  skip(rule: string, request: string, detail: string, place?: Place): void {
    this.add({ rule, outcome: 'skip', request, detail }, place);
  }

  /** Records a pass or a violation depending on `problem` (a violation's detail, or undefined). */
  decide(
    rule: string,
    request: string,
    problem: string | undefined,
    passDetail: string,
    status?: number,
    evidence?: string,
    strength?: Strength,
    place?: Place,
  ): void {
    if (problem === undefined) this.pass(rule, request, passDetail, status, place);
    else this.fail(rule, request, problem, status, evidence, strength, place);
  }
}

/** Whether a finding is a violation (a failure or a warning). */
export function isViolation(finding: Finding): boolean {
  return finding.outcome === 'fail' || finding.outcome === 'warn';
}

/** The heading a rule is grouped under: `4.1.3` → `4.1`, `7.1.5` → `7.1`, `2.7` → `2`, `8` → `8`. */
export function sectionOf(rule: string): string {
  const parts = rule.split('.');
  if (parts[0] === 'openapi') return 'openapi';
  if (parts[0] === '4' || parts[0] === '7') return parts.slice(0, 2).join('.');
  return parts[0] ?? rule;
}
