/** Security headers (spec 4.8): the set with their values, HSTS over HTTPS, a CORS preflight with --origin. */
import type { Exchange } from '../client.ts';
import { budgetSpent, type PathAudit, probe } from '../context.ts';
import { answered } from '../inspect.ts';

// The spec's header set and the values it allows (docs/security.md).
const expected: readonly [name: string, pattern: RegExp, wanted: string][] = [
  ['x-content-type-options', /^nosniff$/i, 'nosniff'],
  ['x-frame-options', /^(deny|sameorigin)$/i, 'deny'],
  ['x-xss-protection', /^(1;\s*mode=block|0)$/i, '1; mode=block'],
  [
    'content-security-policy',
    /(default-src|frame-ancestors)/i,
    "default-src 'none'; frame-ancestors 'none'",
  ],
];

/** The path's GET carries the spec's security headers with allowed values. */
export function checkSecurityHeaders(audit: PathAudit) {
  const { findings } = audit.ctx;
  const get: Exchange | undefined = audit.get;
  if (!get || get.status === 0)
    return findings.skip('4.8', `GET ${audit.path}`, 'no answer to look at');
  const wrong = expected.flatMap(([name, pattern, wanted]) => {
    const value = get.headers.get(name);
    if (value === null) return [`${name} missing (want ${wanted})`];
    return pattern.test(value.trim()) ? [] : [`${name}: ${value} (want ${wanted})`];
  });
  // Spec 4.8 gives these headers as a table of value patterns; only nosniff on JSON is stated
  // as always sent (checked over every response).
  findings.decide(
    '4.8',
    get.request,
    wrong.length ? `security headers: ${wrong.join('; ')}` : undefined,
    "the security header set, with the spec's values",
    get.status,
    undefined,
    'pattern',
  );
  if (audit.ctx.options.base.protocol !== 'https:') {
    findings.skip('4.8', get.request, 'HSTS: the base URL is not HTTPS');
  } else {
    const hsts = get.headers.get('strict-transport-security');
    const ok = hsts !== null && /(^|;)\s*max-age=\d+/i.test(hsts) && !/max-age=0\b/i.test(hsts);
    findings.decide(
      '4.8',
      get.request,
      ok ? undefined : `HSTS over HTTPS: ${hsts ?? 'Strict-Transport-Security missing'}`,
      `HSTS: ${hsts}`,
      get.status,
      undefined,
      'pattern',
    );
  }
}

/** With --origin, a preflight for GET with Authorization is answered with what it asked for. */
export async function checkPreflight(audit: PathAudit): Promise<void> {
  const { findings, options } = audit.ctx;
  const origin = options.origin;
  const request = `OPTIONS ${audit.path} (CORS preflight)`;
  if (!origin) return findings.skip('4.8', request, 'no --origin given');
  const ex = await probe(audit, 'OPTIONS', audit.path, {
    credentials: false,
    headers: {
      origin,
      'access-control-request-method': 'GET',
      'access-control-request-headers': 'authorization',
    },
  });
  if (!ex) return findings.skip('4.8', request, budgetSpent);
  const allowOrigin = ex.headers.get('access-control-allow-origin');
  const methods = (ex.headers.get('access-control-allow-methods') ?? '').toUpperCase();
  const headers = (ex.headers.get('access-control-allow-headers') ?? '').toLowerCase();
  const problems: string[] = [];
  if (ex.status < 200 || ex.status >= 300) problems.push(answered(ex));
  if (allowOrigin !== origin && allowOrigin !== '*')
    problems.push(`Access-Control-Allow-Origin: ${allowOrigin ?? '(absent)'}`);
  if (!/\bGET\b|\*/.test(methods))
    problems.push(`Access-Control-Allow-Methods: ${methods || '(absent)'}`);
  if (!/\bauthorization\b|\*/.test(headers))
    problems.push(`Access-Control-Allow-Headers: ${headers || '(absent)'}`);
  findings.decide(
    '4.8',
    `${request} from ${origin}`,
    problems.length ? `preflight: ${problems.join('; ')}` : undefined,
    'the preflight allows the origin, GET and Authorization',
    ex.status,
  );
}
