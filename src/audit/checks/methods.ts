/** Methods (spec 4.2, RFC 9110 §15.5.6): OPTIONS names them in Allow, others get 405, HEAD is GET without a body. */
import { budgetSpent, type PathAudit, probe } from '../context.ts';
import { answered, headerLine, mediaType } from '../inspect.ts';

/** Parses an `Allow` value into upper-case method names. */
function parseAllow(value: string | null): string[] | undefined {
  if (value === null) return undefined;
  return value
    .split(',')
    .map((m) => m.trim().toUpperCase())
    .filter(Boolean);
}

/** OPTIONS on the path answers 2xx with `Allow`. */
export async function checkOptions(audit: PathAudit): Promise<void> {
  const { findings } = audit.ctx;
  const ex = await probe(audit, 'OPTIONS', audit.path);
  if (!ex) return findings.skip('4.2', `OPTIONS ${audit.path}`, budgetSpent);
  const allow = parseAllow(ex.headers.get('allow'));
  if (allow) audit.allow = allow;
  if (ex.status >= 200 && ex.status < 300 && allow) {
    findings.pass(
      '4.2',
      ex.request,
      `OPTIONS answers ${ex.status} with Allow: ${allow.join(', ')}`,
      ex.status,
    );
  } else {
    // RFC 9110 §9.3.7: a server SHOULD send the headers that name its optional features
    // (Allow among them); spec 4.2 does not list OPTIONS.
    findings.fail(
      '4.2',
      ex.request,
      `OPTIONS ${answered(ex)}${allow ? '' : ' without Allow'}`,
      ex.status,
      headerLine(ex, 'allow'),
      'recommended',
    );
  }
}

/**
 * The method to send that the path must refuse: the first write method its `Allow` (or the
 * document) leaves out, so the server refuses it and nothing changes; with no list at all,
 * TRACE, a safe method (RFC 9110 §9.3.8) that no API path serves.
 */
function refusedMethod(audit: PathAudit): string | undefined {
  const known = audit.allow ?? audit.declared?.map((m) => m.toUpperCase());
  if (!known) return 'TRACE';
  return ['PATCH', 'PUT', 'DELETE', 'POST'].find((m) => !known.includes(m));
}

/** A method the path does not have gets 405 with `Allow` (RFC 9110 §15.5.6). */
export async function checkUnsupportedMethod(audit: PathAudit): Promise<void> {
  const { findings } = audit.ctx;
  const method = refusedMethod(audit);
  if (!method) {
    return findings.skip(
      '4.2',
      `${audit.path}`,
      'no method to try: the path has every write method',
    );
  }
  const ex = await probe(audit, method, audit.path);
  if (!ex) return findings.skip('4.2', `${method} ${audit.path}`, budgetSpent);
  const allow = parseAllow(ex.headers.get('allow'));
  if (ex.status === 405 && allow) {
    findings.pass('4.2', ex.request, `405 with Allow: ${allow.join(', ')}`, 405);
  } else if (ex.status === 405) {
    findings.fail('4.2', ex.request, '405 without Allow', 405, headerLine(ex, 'allow'));
  } else if (method === 'TRACE' && ex.status === 501) {
    // RFC 9110 §15.6.2: a server that does not implement a method at all may say 501.
    findings.skip(
      '4.2',
      ex.request,
      '501: the server does not implement TRACE, so no 405 to check',
    );
  } else {
    findings.fail(
      '4.2',
      ex.request,
      `${answered(ex)} for a method the path does not have; expected 405 with Allow`,
      ex.status,
    );
  }
}

/** HEAD answers as GET does, with the same status and type and no body. */
export async function checkHead(audit: PathAudit): Promise<void> {
  const { findings } = audit.ctx;
  const get = audit.get;
  if (!get || get.status === 0)
    return findings.skip('4.2', `HEAD ${audit.path}`, 'no GET to compare with');
  const ex = await probe(audit, 'HEAD', audit.path);
  if (!ex) return findings.skip('4.2', `HEAD ${audit.path}`, budgetSpent);
  let problem: string | undefined;
  if (ex.status !== get.status)
    problem = `HEAD answered ${ex.status} where GET answered ${get.status}`;
  else if (mediaType(ex) !== mediaType(get)) {
    problem = `HEAD's Content-Type "${mediaType(ex)}" differs from GET's "${mediaType(get)}"`;
  } else if (ex.body !== '') problem = 'HEAD sent a body';
  findings.decide(
    '4.2',
    ex.request,
    problem,
    `HEAD answers ${ex.status} like GET, without a body`,
    ex.status,
  );
}
