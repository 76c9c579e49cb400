/** Caching (spec 4.7): only the spec's Cache-Control directives; a validator yields 304 with no body. */
import { budgetSpent, type PathAudit, probe } from '../context.ts';
import { answered, headerLine } from '../inspect.ts';

// The directives of spec 4.7 (docs/caching.md); anything else is not the spec's.
const directives = new Set([
  'public',
  'private',
  'no-cache',
  'no-store',
  'no-transform',
  'must-revalidate',
  'proxy-revalidate',
  'max-age',
  's-maxage',
]);

/** Every Cache-Control the path sent uses only the spec's directives. */
export function checkCacheControl(audit: PathAudit) {
  const { findings } = audit.ctx;
  const get = audit.get;
  // Spec 4.7: responses say how they may be cached. A 2xx GET that says nothing leaves it to
  // each cache's heuristics (RFC 9111 §4.2.2).
  if (
    get &&
    get.status >= 200 &&
    get.status < 300 &&
    !get.headers.has('cache-control') &&
    !get.headers.has('expires')
  ) {
    // A pattern: spec 4.7 lists the caching headers and their directives, and requires none
    // but Date on every answer.
    return findings.fail(
      '4.7',
      get.request,
      `a ${get.status} GET without Cache-Control: it does not say how it may be cached`,
      get.status,
      headerLine(get, 'cache-control'),
      'pattern',
    );
  }
  const sent = audit.exchanges.filter((ex) => ex.headers.has('cache-control'));
  if (sent.length === 0) return findings.skip('4.7', `GET ${audit.path}`, 'no Cache-Control seen');
  for (const ex of sent) {
    const value = ex.headers.get('cache-control') ?? '';
    const unknown = value
      .split(',')
      .map((d) => d.trim().split('=')[0]!.toLowerCase())
      .filter((d) => d !== '' && !directives.has(d));
    if (unknown.length > 0) {
      return findings.fail(
        '4.7',
        ex.request,
        `Cache-Control uses ${unknown.join(', ')}, outside the spec's directives`,
        ex.status,
        `Cache-Control: ${value}`,
        'pattern',
      );
    }
  }
  findings.pass(
    '4.7',
    `${audit.path} (${sent.length} responses)`,
    "Cache-Control uses only the spec's directives",
  );
}

/** A GET that sent ETag or Last-Modified, asked again conditionally, gets 304 with no body. */
export async function checkConditional(audit: PathAudit): Promise<void> {
  const { findings } = audit.ctx;
  const get = audit.get;
  const etag = get?.status === 200 ? get.headers.get('etag') : null;
  const modified = get?.status === 200 ? get.headers.get('last-modified') : null;
  if (!etag && !modified) {
    return findings.skip(
      '4.7',
      `GET ${audit.path} (conditional)`,
      'no ETag or Last-Modified on a 200 GET',
    );
  }
  const headers: Record<string, string> = etag
    ? { 'if-none-match': etag }
    : { 'if-modified-since': modified! };
  const shown = etag ? `If-None-Match: ${etag}` : `If-Modified-Since: ${modified}`;
  const request = `GET ${audit.path} (${shown})`;
  const ex = await probe(audit, 'GET', audit.path, { headers });
  if (!ex) return findings.skip('4.7', request, budgetSpent);
  let problem: string | undefined;
  if (ex.status !== 304) problem = `${answered(ex)} to its own validator; expected 304`;
  else if (ex.body !== '') problem = '304 with a body';
  findings.decide(
    '4.7',
    request,
    problem,
    '304 with no body for its own validator',
    ex.status,
    etag ? `ETag: ${etag}` : headerLine(get!, 'last-modified'),
  );
}
