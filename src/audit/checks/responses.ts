/**
 * Checks over every response a path gave: the error body on each error (spec 7.1.5), a correct
 * Content-Type on each body (4.6), Date on each non-5xx (4.7), no server error (7.2), nosniff on
 * each JSON answer (4.8).
 */
import type { Exchange } from '../client.ts';
import type { PathAudit } from '../context.ts';
import {
  answered,
  errorBodyProblem,
  excerpt,
  headerLine,
  isJsonType,
  isParsed,
  jsonOf,
  mediaType,
} from '../inspect.ts';
import type { Place } from '../report.ts';

/** Runs `test` on the chosen exchanges and reports the first offender, or a pass. */
function overAll(
  audit: PathAudit,
  rule: string,
  chosen: (ex: Exchange) => boolean,
  test: (ex: Exchange) => { problem: string; evidence: string } | undefined,
  pass: (count: number) => string,
  none: string,
) {
  const { findings } = audit.ctx;
  // About the path, whatever request shows the first offender (their order varies).
  const place: Place = { method: null };
  const seen = audit.exchanges.filter(chosen);
  if (seen.length === 0) return findings.skip(rule, audit.path, none, place);
  const failed = seen.flatMap((ex) => {
    const result = test(ex);
    return result ? [{ ex, ...result }] : [];
  });
  const first = failed[0];
  if (first) {
    const more =
      failed.length > 1 ? ` (and ${failed.length - 1} more of ${seen.length} responses)` : '';
    findings.fail(
      rule,
      first.ex.request,
      `${first.problem}${more}`,
      first.ex.status,
      first.evidence,
      undefined,
      place,
    );
  } else {
    findings.pass(
      rule,
      `${audit.path} (${seen.length} responses)`,
      pass(seen.length),
      undefined,
      place,
    );
  }
}

/** Spec 4.6: a body says its media type, and a JSON body says it is JSON (and is). */
function mediaTypeProblem(ex: Exchange): { problem: string; evidence: string } | undefined {
  const type = mediaType(ex);
  if (type === '')
    return {
      problem: `${ex.status} with a body but no Content-Type`,
      evidence: excerpt(ex.body),
    };
  const json = isParsed(jsonOf(ex)) && /^\s*[[{]/.test(ex.body);
  if (json && !isJsonType(type)) {
    return {
      problem: `${ex.status}: a JSON body labelled ${type}`,
      evidence: headerLine(ex, 'content-type'),
    };
  }
  if (isJsonType(type) && !isParsed(jsonOf(ex))) {
    return {
      problem: `${ex.status}: labelled ${type} but not JSON`,
      evidence: excerpt(ex.body),
    };
  }
  return undefined;
}

/** Spec 7.2: no 5xx but a busy 503 (with Retry-After) or a 501. */
function serverErrorProblem(ex: Exchange): { problem: string; evidence: string } | undefined {
  return (
    // A 503 with Retry-After is the service saying it is busy (RFC 9110 §15.6.4), and a 501
    // a method it does not implement: anything else 5xx is the service failing a request.
    ex.status >= 500 && !(ex.status === 503 && ex.headers.has('retry-after')) && ex.status !== 501
      ? {
          problem: `${answered(ex)}: a server error for a request the service should answer`,
          evidence: excerpt(ex.body) || '(empty body)',
        }
      : undefined
  );
}

/** Runs the checks over all of a path's responses. */
export function checkResponses(audit: PathAudit) {
  overAll(
    audit,
    '7.1.5',
    (ex) => ex.status >= 400 && ex.method !== 'HEAD',
    (ex) => {
      const problem = errorBodyProblem(ex);
      return problem
        ? { problem: `${ex.status}: ${problem}`, evidence: excerpt(ex.body) || '(empty body)' }
        : undefined;
    },
    (n) => `${n} error responses carry {"errors":[{"message","code"}]}`,
    'no error responses seen',
  );
  overAll(
    audit,
    '4.6',
    (ex) => ex.body !== '',
    mediaTypeProblem,
    (n) => `${n} bodies each say their media type`,
    'no bodies seen',
  );
  overAll(
    audit,
    '4.7',
    (ex) => ex.status < 500,
    (ex) =>
      ex.headers.has('date')
        ? undefined
        : { problem: `${ex.status} without Date`, evidence: headerLine(ex, 'date') },
    (n) => `Date on ${n} responses`,
    'no responses seen',
  );
  overAll(
    audit,
    '7.2',
    (ex) => ex.status !== 0,
    serverErrorProblem,
    (n) => `no server error in ${n} responses`,
    'no responses seen',
  );
  overAll(
    audit,
    '4.8',
    (ex) => isJsonType(mediaType(ex)),
    (ex) =>
      ex.headers.get('x-content-type-options')?.trim().toLowerCase() === 'nosniff'
        ? undefined
        : {
            problem: `${ex.status} JSON without X-Content-Type-Options: nosniff`,
            evidence: headerLine(ex, 'x-content-type-options'),
          },
    (n) => `nosniff on ${n} JSON responses`,
    'no JSON responses seen',
  );
}
