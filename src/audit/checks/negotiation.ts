/** Format negotiation (spec 4.5): JSON by default, 406 with the error body for a type nobody offers. */
import { budgetSpent, type PathAudit, probe } from '../context.ts';
import { answered, isJsonType, mediaType } from '../inspect.ts';

/** A media type no API offers, so the server must refuse it. */
const unacceptable = 'application/x-api-conventions-audit';

// Format suffixes (spec 4.5) and the media types they choose.
const suffixes: Record<string, RegExp> = {
  json: /^application\/(?:[\w.+-]+\+)?json$/,
  xml: /^(?:application|text)\/(?:[\w.+-]+\+)?xml$/,
  csv: /^text\/csv$/,
  yaml: /^(?:application|text)\/(?:x-)?yaml$/,
};

/** The format suffix of a path (`/v1/books.xml` → `xml`), if it has one of spec 4.5's. */
function formatSuffix(path: string): string | undefined {
  const suffix = /\.([a-z]+)$/.exec(path.split('?')[0]!)?.[1];
  return suffix !== undefined && suffix in suffixes ? suffix : undefined;
}

/** Whether a media type is a page or an asset (HTML, CSS, scripts, images, fonts), not API data. */
export function isPageMedia(type: string): boolean {
  return /^(?:text\/(?:html|css|javascript)|application\/(?:javascript|xhtml\+xml)|image\/|font\/)/.test(
    type,
  );
}

/** The path's GET (sent with `Accept: *\/*`) answers JSON. */
export function checkJsonDefault(audit: PathAudit) {
  const { findings } = audit.ctx;
  const get = audit.get;
  const request = `GET ${audit.path}`;
  if (!get || get.status < 200 || get.status >= 300 || get.body === '') {
    return findings.skip('4.5', request, 'no 2xx body to see the default format in');
  }
  const type = mediaType(get);
  const suffix = formatSuffix(audit.path);
  if (suffix) {
    // The suffix chose the format (spec 4.5): the answer must be what it names.
    return findings.decide(
      '4.5',
      get.request,
      suffixes[suffix]!.test(type)
        ? undefined
        : `the .${suffix} suffix answered ${type || 'untyped'}`,
      `the .${suffix} suffix answers ${type}`,
      get.status,
    );
  }
  if (isPageMedia(type)) {
    return findings.skip('4.5', get.request, `a page or asset (${type}), not API data`);
  }
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
  const request = `GET ${audit.path} (Accept: ${unacceptable})`;
  const suffix = formatSuffix(audit.path);
  if (suffix) {
    return findings.skip('4.5', request, `the .${suffix} suffix chooses the format, not Accept`);
  }
  if (isPageMedia(mediaType(get))) {
    return findings.skip('4.5', request, `a page or asset (${mediaType(get)}), not API data`);
  }
  const ex = await probe(audit, 'GET', audit.path, { headers: { accept: unacceptable } });
  if (!ex) return findings.skip('4.5', request, budgetSpent);
  const problem =
    ex.status === 406 ? undefined : `${answered(ex)} to an Accept it cannot satisfy; expected 406`;
  findings.decide('4.5', request, problem, '406 for an unsupported Accept', ex.status);
}
