/** Format negotiation (spec 4.5): JSON by default, 406 with the error body for a type nobody offers. */
import { budgetSpent, type PathAudit, probe } from '../context.ts';
import { answered, isJsonType, mediaType } from '../inspect.ts';

/** A media type no API offers, so the server must refuse it. */
export const unacceptable = 'application/x-api-conventions-audit';

/** The path's GET (sent with `Accept: *\/*`) answers JSON. */
export function checkJsonDefault(audit: PathAudit) {
  const { findings } = audit.ctx;
  const get = audit.get;
  const request = `GET ${audit.path}`;
  if (!get || get.status < 200 || get.status >= 300 || get.body === '') {
    return findings.skip('4.5', request, 'no 2xx body to see the default format in');
  }
  const type = mediaType(get);
  findings.decide(
    '4.5',
    get.request,
    isJsonType(type) ? undefined : `the default format is ${type || 'untyped'}, not JSON`,
    `JSON by default (${type})`,
    get.status,
  );
}

/** An unsupported Accept gets 406 (the error body is checked with the path's other errors). */
export async function checkNotAcceptable(audit: PathAudit): Promise<void> {
  const { findings } = audit.ctx;
  const get = audit.get;
  if (!get || get.status < 200 || get.status >= 300) {
    return findings.skip(
      '4.5',
      `GET ${audit.path} (Accept: ${unacceptable})`,
      'the path has no 2xx GET to negotiate',
    );
  }
  const ex = await probe(audit, 'GET', audit.path, { headers: { accept: unacceptable } });
  const request = `GET ${audit.path} (Accept: ${unacceptable})`;
  if (!ex) return findings.skip('4.5', request, budgetSpent);
  const problem =
    ex.status === 406 ? undefined : `${answered(ex)} to an Accept it cannot satisfy; expected 406`;
  findings.decide('4.5', request, problem, '406 for an unsupported Accept', ex.status);
}
