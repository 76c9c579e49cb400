/** Authentication (spec 5.8, 5.6): an unknown caller gets 401 with a Bearer challenge; a malformed token 401 invalid_token. */
import type { Exchange } from '../client.ts';
import { budgetSpent, type PathAudit, probe } from '../context.ts';
import { answered, headerLine } from '../inspect.ts';
import { isApiKeyHeader } from './auth-scheme.ts';

/**
 * The API-key schemes of the path's GET when the document says it takes no bearer token (spec
 * 5.1 reports them): a Bearer challenge and `invalid_token` are then not what to look for.
 */
function apiKeysOnly(audit: PathAudit): string | undefined {
  const schemes = audit.documented?.security ?? [];
  if (schemes.length === 0) {
    // Undocumented: the credentials the caller gave say how the service authenticates.
    const headers = audit.ctx.options.headers.map(([name]) => name);
    const key = headers.find((name) => isApiKeyHeader(name));
    return key && !headers.includes('authorization') ? `an API key in ${key}` : undefined;
  }
  const bearer = schemes.some(
    (s) =>
      s.type === 'oauth2' ||
      s.type === 'openIdConnect' ||
      (s.type === 'http' && s.scheme === 'bearer'),
  );
  return bearer ? undefined : schemes.map((s) => s.name).join(', ');
}

/** The anonymous answer of a path, decided once per path and shared with the token check. */
export async function checkAnonymous(audit: PathAudit): Promise<Exchange | undefined> {
  const { findings, options } = audit.ctx;
  const request = `GET ${audit.path} (no credentials)`;
  // Without --header the plain GET was already anonymous.
  const ex =
    options.headers.length === 0
      ? audit.get
      : await probe(audit, 'GET', audit.path, { credentials: false });
  if (!ex) {
    findings.skip('5.8', request, budgetSpent);
    return undefined;
  }
  if (ex.status >= 200 && ex.status < 400) {
    findings.skip('5.8', request, `public: ${answered(ex)} without credentials`);
    return undefined;
  }
  const challenge = ex.headers.get('www-authenticate') ?? '';
  let problem: string | undefined;
  if (ex.status === 403) problem = '403 to an unknown caller; 401 says who you are is unknown';
  else if (ex.status !== 401) {
    findings.skip('5.8', request, `${answered(ex)} without credentials; not a protected resource`);
    return undefined;
  } else if (apiKeysOnly(audit)) {
    findings.pass(
      '5.8',
      request,
      `401 (the document secures it with ${apiKeysOnly(audit)}; see 5.1)`,
      401,
    );
    return ex;
  } else if (!/^\s*Bearer\b/i.test(challenge)) problem = '401 without a Bearer challenge';
  findings.decide(
    '5.8',
    request,
    problem,
    '401 with a Bearer challenge',
    ex.status,
    headerLine(ex, 'www-authenticate'),
  );
  return ex.status === 401 ? ex : undefined;
}

/** A malformed bearer token on a protected path gets 401 with `error="invalid_token"`. */
export async function checkMalformedToken(audit: PathAudit): Promise<void> {
  const { findings } = audit.ctx;
  const request = `GET ${audit.path} (Authorization: Bearer malformed)`;
  const keys = apiKeysOnly(audit);
  if (keys) {
    return findings.skip(
      '5.6',
      request,
      `the document secures it with ${keys}, not a bearer token (5.1)`,
    );
  }
  const ex = await probe(audit, 'GET', audit.path, {
    credentials: false,
    headers: { authorization: 'Bearer api-conventions-audit.malformed.token' },
  });
  if (!ex) return findings.skip('5.6', request, budgetSpent);
  const challenge = ex.headers.get('www-authenticate') ?? '';
  let problem: string | undefined;
  if (ex.status !== 401) problem = `${answered(ex)} to a malformed token; expected 401`;
  else if (!/error\s*=\s*"?invalid_token"?/i.test(challenge))
    problem = '401 without error="invalid_token" in WWW-Authenticate';
  findings.decide(
    '5.6',
    request,
    problem,
    '401 with error="invalid_token"',
    ex.status,
    headerLine(ex, 'www-authenticate'),
  );
}
