/**
 * One finding per rule, method and path: what the OpenAPI document and the live answers say of
 * the same rule on the same operation is one finding that says both, so a defect is counted once.
 */
import type { Finding, FindingOutcome, Strength } from './report.ts';

const rank: Record<FindingOutcome, number> = { fail: 3, warn: 2, pass: 1, skip: 0 };
const weight: Record<Strength, number> = { required: 2, recommended: 1, pattern: 0 };

/** The key findings are merged by: rule, method and path, or rule and request without them. */
export function findingKey(finding: Pick<Finding, 'rule' | 'method' | 'path' | 'request'>) {
  return finding.path === undefined
    ? `${finding.rule} ${finding.request}`
    : `${finding.rule} ${finding.method ?? '*'} ${finding.path}`;
}

/** Whether a finding comes from the document (its request is a place in it: `file#/paths/…`). */
function fromDocument(finding: Finding): boolean {
  const hash = finding.request.indexOf('#/');
  return hash > 0 && !/\s/.test(finding.request.slice(0, hash));
}

const unique = (texts: string[]) => [...new Set(texts)];

/** Merges one group of findings with the same key into one. */
function mergeGroup(group: Finding[]): Finding {
  if (group.length === 1) return group[0]!;
  const top = Math.max(...group.map((f) => rank[f.outcome]));
  // A violation's finding says every violation seen under its key, failures and warnings.
  const deciding = group.filter((f) =>
    top >= rank.warn ? rank[f.outcome] >= rank.warn : rank[f.outcome] === top,
  );
  const outcome = group.find((f) => rank[f.outcome] === top)!.outcome;
  const strongest = deciding.reduce((a, b) => (weight[b.strength] > weight[a.strength] ? b : a));
  const documented = deciding.filter(fromDocument);
  const live = deciding.filter((f) => !fromDocument(f));
  // Said by both: the finding says what each saw, once when they saw the same.
  const saidByDocument = unique(documented.map((f) => f.detail));
  const saidLive = unique(live.map((f) => f.detail));
  const same = saidByDocument.join('\n') === saidLive.join('\n');
  const detail =
    documented.length === 0 || live.length === 0
      ? unique(deciding.map((f) => f.detail)).join('; ')
      : same
        ? `${saidLive.join('; ')} (document and live)`
        : `document: ${saidByDocument.join('; ')}; live: ${saidLive.join('; ')}`;
  const skipped =
    top === rank.pass ? unique(group.filter((f) => f.outcome === 'skip').map((f) => f.detail)) : [];
  const first = live[0] ?? deciding[0]!;
  const withEvidence = deciding.find((f) => f.evidence !== undefined);
  const withStatus = deciding.find((f) => f.status !== undefined);
  const document = group.find(fromDocument)?.request;
  const merged: Finding = {
    ...first,
    outcome,
    strength: strongest.strength,
    detail: skipped.length > 0 ? `${detail} (not checked: ${skipped.join('; ')})` : detail,
  };
  if (withStatus) merged.status = withStatus.status!;
  if (withEvidence) merged.evidence = withEvidence.evidence!;
  if (document !== undefined && document !== merged.request) merged.document = document;
  return merged;
}

/** The findings with one per rule, method and path, in the order each key first appeared. */
export function mergeFindings(findings: readonly Finding[]): Finding[] {
  const groups = new Map<string, Finding[]>();
  for (const finding of findings) {
    const key = findingKey(finding);
    const group = groups.get(key);
    if (group) group.push(finding);
    else groups.set(key, [finding]);
  }
  return [...groups.values()].map(mergeGroup);
}
