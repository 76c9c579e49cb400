/** Ending a version (spec 9.8): Deprecation (RFC 9745) and Sunset (RFC 8594) agree, six months apart at least. */
import type { PathAudit } from '../context.ts';
import { headerLine } from '../inspect.ts';

/** The time of a Deprecation value: `@<unix seconds>`, or an HTTP-date of earlier drafts. */
function deprecationTime(value: string): number | undefined {
  const at = /^@(-?\d+)$/.exec(value.trim());
  if (at) return Number(at[1]) * 1000;
  const date = Date.parse(value);
  return /GMT$/.test(value.trim()) && !Number.isNaN(date) ? date : undefined;
}

/** Six calendar months after `time`. */
function sixMonthsAfter(time: number): number {
  const date = new Date(time);
  date.setUTCMonth(date.getUTCMonth() + 6);
  return date.getTime();
}

/** Any Deprecation and Sunset the path sends are well-formed and at least six months apart. */
export function checkDeprecation(audit: PathAudit) {
  const { findings } = audit.ctx;
  const ex = audit.exchanges.find((e) => e.headers.has('deprecation') || e.headers.has('sunset'));
  if (!ex) return findings.skip('9.8', `GET ${audit.path}`, 'no Deprecation or Sunset header');
  const deprecation = ex.headers.get('deprecation');
  const sunset = ex.headers.get('sunset');
  const evidence = `${headerLine(ex, 'deprecation')}, ${headerLine(ex, 'sunset')}`;
  const announced = deprecation === null ? undefined : deprecationTime(deprecation);
  const ends = sunset === null ? undefined : Date.parse(sunset);
  let problem: string | undefined;
  if (deprecation !== null && announced === undefined)
    problem = `Deprecation "${deprecation}" is neither @<seconds> (RFC 9745) nor an HTTP-date`;
  else if (sunset !== null && (ends === undefined || Number.isNaN(ends)))
    problem = `Sunset "${sunset}" is not an HTTP-date`;
  else if (announced !== undefined && ends !== undefined && ends < sixMonthsAfter(announced)) {
    problem = 'Sunset comes less than six months after the Deprecation date';
  }
  const pass =
    announced !== undefined && ends !== undefined
      ? 'Sunset at least six months after Deprecation'
      : 'Deprecation/Sunset well-formed';
  findings.decide('9.8', ex.request, problem, pass, ex.status, problem ? evidence : undefined);
}
