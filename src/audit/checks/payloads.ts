/** Payloads of a 2xx GET: lists wrapped (spec 2.7) with hasNext when paged (2.8), RFC 3339 dates (2.6), no error in a 200 (7.1.1). */
import type { Exchange } from '../client.ts';
import type { PathAudit } from '../context.ts';
import { excerpt, isParsed, jsonOf } from '../inspect.ts';
import { findDates } from './dates.ts';
import { isListMember, isPagingParameter, readPaging } from './paging.ts';

const linkKeys = new Set(['links', '_links']);
// The keys an error object is made of; a 200 whose body has only these hides a failure.
const errorKeys = new Set([
  'error',
  'errors',
  'message',
  'code',
  'status',
  'success',
  'ok',
  'detail',
  'details',
  'description',
  'error_description',
  'type',
  'title',
  'reason',
]);

/** Whether a response's `Link` header has a next or previous page. */
function hasPageLinks(ex: Exchange): boolean {
  return /rel="?(?:next|prev|previous)"?/i.test(ex.headers.get('link') ?? '');
}

const asObject = (value: unknown): Record<string, unknown> | undefined =>
  value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;

/**
 * A list says whether a next page exists (spec 2.8: required where more results may follow),
 * by a boolean named hasNext (the spec's pattern). More may follow when the list carries paging
 * members (a total, an offset, `meta.total_count`) or its document declares paging parameters.
 */
function checkHasNext(audit: PathAudit, get: Exchange, object: Record<string, unknown>): void {
  const { findings } = audit.ctx;
  const request = `GET ${audit.path}`;
  const status = get.status;
  const says = readPaging(object, asObject);
  const declared = (audit.documented?.parameters ?? [])
    .filter((p) => p.in === 'query' && typeof p.name === 'string' && isPagingParameter(p.name))
    .map((p) => `?${p.name}`);
  if (says.hasNext !== undefined) {
    findings.decide(
      '2.8',
      request,
      typeof says.hasNext === 'boolean'
        ? undefined
        : `hasNext is ${JSON.stringify(says.hasNext)}, not a boolean`,
      `a list with hasNext: ${says.hasNext}`,
      status,
      undefined,
      'pattern',
    );
  } else if (says.otherFlag !== undefined || hasPageLinks(get)) {
    // "A boolean-style field named hasNext is the pattern": a flag of another name keeps the
    // rule and misses the pattern.
    const flag = says.otherFlag ?? 'a Link to another page';
    findings.fail(
      '2.8',
      request,
      `says whether a next page exists by ${flag}, not by a boolean hasNext`,
      status,
      excerpt(get.body),
      'pattern',
    );
  } else if (says.signs.length > 0 || declared.length > 0) {
    findings.fail(
      '2.8',
      request,
      `a paged list (${[...says.signs, ...declared].join(', ')}) with no flag telling whether a next page exists`,
      status,
      excerpt(get.body),
    );
  } else
    findings.pass(
      '2.8',
      request,
      'an unpaged list (no paging members, links or parameters)',
      status,
    );
}

/** Runs the payload checks on the path's GET, if it answered 2xx JSON. */
export function checkPayloads(audit: PathAudit) {
  const { findings } = audit.ctx;
  const get = audit.get;
  const request = `GET ${audit.path}`;
  const body = get && get.status >= 200 && get.status < 300 ? jsonOf(get) : undefined;
  if (!get || !isParsed(body) || body === undefined) {
    const why = !get
      ? 'no GET'
      : get.status === 0
        ? 'the GET got no answer'
        : `the GET answered ${get.status}, not 2xx JSON`;
    for (const rule of ['2.7', '2.8', '2.6', '7.1.1']) findings.skip(rule, request, why);
    return;
  }
  const status = get.status;
  // 2.7: a list is never the whole body.
  if (Array.isArray(body)) {
    findings.fail(
      '2.7',
      request,
      `the body is a bare array of ${body.length} items, not an object`,
      status,
      excerpt(get.body),
    );
    findings.skip('2.8', request, 'no list object to look for hasNext in');
  } else {
    findings.pass('2.7', request, 'the body is an object', status);
    const object = (typeof body === 'object' && body !== null ? body : {}) as Record<
      string,
      unknown
    >;
    // A list object holds one list beside paging fields and links; a resource holds other fields.
    const lists = Object.keys(object).filter((k) => Array.isArray(object[k]) && !linkKeys.has(k));
    const others = Object.keys(object).filter((k) => !lists.includes(k) && !isListMember(k));
    if (lists.length !== 1 || others.length > 0) findings.skip('2.8', request, 'not a list');
    else checkHasNext(audit, get, object);
  }
  // 2.6: every date-like value is RFC 3339.
  const dates = findDates(body);
  const wrong = dates.filter((d) => !d.ok);
  if (dates.length === 0) findings.skip('2.6', request, 'no date or time values seen');
  else if (wrong.length > 0) {
    const shown = wrong
      .slice(0, 3)
      .map((d) => `${d.where}: ${JSON.stringify(d.value)}`)
      .join(', ');
    findings.fail(
      '2.6',
      request,
      `not RFC 3339: ${shown}${wrong.length > 3 ? ` and ${wrong.length - 3} more` : ''}`,
      status,
    );
  } else findings.pass('2.6', request, `${dates.length} date values, all RFC 3339`, status);
  // 7.1.1: a 200 whose body is an error object hides a failure.
  const object =
    !Array.isArray(body) && typeof body === 'object' && body !== null
      ? (body as Record<string, unknown>)
      : undefined;
  const keys = object ? Object.keys(object) : [];
  const errorLike =
    object !== undefined &&
    keys.length > 0 &&
    keys.every((k) => errorKeys.has(k)) &&
    ('error' in object ||
      'errors' in object ||
      object.success === false ||
      object.ok === false ||
      object.status === 'error' ||
      object.status === 'fail');
  if (errorLike)
    findings.fail(
      '7.1.1',
      request,
      `a ${status} whose body is an error object`,
      status,
      excerpt(get.body),
    );
  else findings.pass('7.1.1', request, `the ${status} body is not an error object`, status);
}
