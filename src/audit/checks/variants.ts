/** Path variants: an upper-case one is 404, never a redirect (spec 4.1.3); a trailing slash is not served (4.1.9). */
import { budgetSpent, type PathAudit, probe } from '../context.ts';
import { answered, redirectText } from '../inspect.ts';

const isRedirect = (status: number) => status >= 300 && status < 400 && status !== 304;

/** Requests the upper-case variant of the path. */
export async function checkUpperCase(audit: PathAudit): Promise<void> {
  const { findings } = audit.ctx;
  if (!findings.wants('4.1.3')) return;
  const [pathname, query] = splitQuery(audit.path);
  const upper = pathname.toUpperCase();
  if (upper === pathname) {
    findings.skip('4.1.3', `GET ${audit.path}`, 'the path has no letters to change the case of');
    return;
  }
  const target = `${upper}${query}`;
  const ex = await probe(audit, 'GET', target);
  if (!ex) return findings.skip('4.1.3', `GET ${target}`, budgetSpent);
  if (ex.status === 404) {
    findings.pass('4.1.3', ex.request, 'an upper-case variant of the path is 404', 404);
  } else if (isRedirect(ex.status)) {
    findings.fail(
      '4.1.3',
      ex.request,
      redirectText(ex),
      ex.status,
      `Location: ${ex.headers.get('location')}`,
    );
  } else {
    findings.fail(
      '4.1.3',
      ex.request,
      `${answered(ex)} for an upper-case variant; expected 404`,
      ex.status,
    );
  }
}

/** Requests the path with a trailing slash added (or removed). */
export async function checkTrailingSlash(audit: PathAudit): Promise<void> {
  const { findings } = audit.ctx;
  if (!findings.wants('4.1.9')) return;
  const [pathname, query] = splitQuery(audit.path);
  if (pathname === '/') return;
  const variant = pathname.endsWith('/') ? pathname.slice(0, -1) : `${pathname}/`;
  const ex = await probe(audit, 'GET', `${variant}${query}`);
  if (!ex) return findings.skip('4.1.9', `GET ${variant}`, budgetSpent);
  if (isRedirect(ex.status)) {
    // Spec 4.1.9: "Redirects for moved resources are avoided" (recommended); one "where a
    // redirect is used" carries Location (required).
    const location = ex.headers.has('location');
    findings.fail(
      '4.1.9',
      ex.request,
      `${redirectText(ex)}: a trailing-slash variant redirects`,
      ex.status,
      undefined,
      location ? 'recommended' : 'required',
    );
  } else if (ex.status >= 200 && ex.status < 300) {
    // Spec 4.1.7: "Path structure follows one uniform rule across the API"; no rule forbids
    // serving both spellings, so a second URI for a resource is a warning.
    findings.fail(
      '4.1.9',
      ex.request,
      `the trailing-slash variant is served (${ex.status}); it is a different path`,
      ex.status,
    );
  } else if (ex.status === 0) {
    findings.fail('4.1.9', ex.request, answered(ex), 0);
  } else {
    findings.pass(
      '4.1.9',
      ex.request,
      `the trailing-slash variant is not served (${ex.status})`,
      ex.status,
    );
  }
}

/** Splits `/a/b?x=1` into `/a/b` and `?x=1`. */
function splitQuery(path: string): [string, string] {
  const at = path.indexOf('?');
  return at === -1 ? [path, ''] : [path.slice(0, at), path.slice(at)];
}
