/** Checks made once per service: a missing path's 404 (spec 7.1.3, 7.1.5) and a very long URI's 414 (7.2). */
import type { AuditContext } from '../context.ts';
import { budgetSpent } from '../context.ts';
import { answered, errorBodyProblem, errorText, excerpt, isLibrary404 } from '../inspect.ts';

/** A path nothing serves, under the version segment of `sample` when it has one. */
function missingPath(sample: string): string {
  const version = /^\/v\d+(?=\/|$)/.exec(sample)?.[0] ?? '';
  return `${version}/api-conventions-audit-missing`;
}

/** A path nothing serves answers 404 with the error body, naming what was not found. */
export async function checkMissing(ctx: AuditContext, sample: string): Promise<void> {
  const { findings, client } = ctx;
  if (!findings.wants('7.1.3', '7.1.5')) return;
  const path = missingPath(sample);
  const ex = await client.send('GET', path);
  if (!ex) {
    findings.skip('7.1.3', `GET ${path}`, budgetSpent);
    return findings.skip('7.1.5', `GET ${path}`, budgetSpent);
  }
  if (ex.status !== 404) {
    const detail = `${answered(ex)} for a path nothing serves; expected 404`;
    findings.fail('7.1.3', ex.request, detail, ex.status, excerpt(ex.body));
    return findings.skip('7.1.5', ex.request, 'no 404 to look at');
  }
  const problem = errorBodyProblem(ex);
  findings.decide(
    '7.1.5',
    ex.request,
    problem && `404: ${problem}`,
    '404 with {"errors":[{"message","code"}]}',
    404,
    excerpt(ex.body) || '(empty body)',
  );
  ctx.usesLibrary = isLibrary404(ex);
  // Read from the usual shapes (errors[].message, message, detail, a text body) before saying
  // the 404 names nothing; 7.1.5 above judges the shape itself.
  const message = errorText(ex);
  const named = message?.toLowerCase().includes('api-conventions-audit-missing');
  findings.decide(
    '7.1.3',
    ex.request,
    named
      ? undefined
      : `the 404 does not name what was not found${message ? `: "${excerpt(message, 100)}"` : ''}`,
    `the 404 names it: "${excerpt(message ?? '', 100)}"`,
    404,
    excerpt(ex.body),
  );
}

/** A URI of 12 000 characters (beyond the 8 000 RFC 9112 §3 asks every server to take) gets 414. */
export async function checkLongUri(ctx: AuditContext, sample: string): Promise<void> {
  const { findings, client } = ctx;
  if (!findings.wants('7.2')) return;
  const target = `${sample}${sample.includes('?') ? '&' : '?'}api-conventions-audit=${'a'.repeat(12_000)}`;
  const ex = await client.send('GET', target);
  const request = `GET ${sample}?api-conventions-audit=aaa… (12 000 characters)`;
  if (!ex) return findings.skip('7.2', request, budgetSpent);
  if (ex.status === 414) {
    const problem = errorBodyProblem(ex);
    return findings.decide(
      '7.2',
      request,
      problem && `414: ${problem}`,
      '414 with the error body',
      414,
      excerpt(ex.body),
      'pattern',
    );
  }
  if (ex.status >= 200 && ex.status < 500 && ex.status !== 431) {
    return findings.skip(
      '7.2',
      request,
      `${answered(ex)}: the service takes URIs this long, so no 414 to check`,
    );
  }
  findings.fail(
    '7.2',
    request,
    `${answered(ex)} for a long URI; expected 414 with the error body`,
    ex.status,
    excerpt(ex.body),
  );
}
