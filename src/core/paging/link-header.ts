/** The `Link` header of a page (RFC 8288): `next` and `prev`, built from the request's own URL. */
import { pagingParameters } from './list-options.ts';
import type { ListPage } from './list-query.ts';

// Texts that URLSearchParams writes back unchanged: nothing to decode, nothing to encode.
const plainQuery = /^[\w*\-.=&]*$/;
const plainText = /^[\w*\-.]*$/;

/**
 * The request's query without its paging parameters, then the given ones, as `URLSearchParams`
 * writes it (`application/x-www-form-urlencoded`, WHATWG URL §5.2).
 *
 * @internal
 */
export function pageTarget(path: string, rawQuery: string, paging: Record<string, string>): string {
  return plainTarget(path, rawQuery, paging) ?? target(path, rawQuery, paging);
}

/**
 * {@link pageTarget} without parsing, for a query and paging values made only of characters the
 * form encoding keeps as they are (letters, digits, `*-._`, and `=` and `&` between them): each
 * name and value is written back as it came. `undefined` for any other.
 */
function plainTarget(
  path: string,
  rawQuery: string,
  paging: Record<string, string>,
): string | undefined {
  if (!plainQuery.test(rawQuery)) return undefined;
  let text = '';
  // Cost: one pass over the query (a pair ends at `&` or at the end).
  let start = 0;
  let eq = -1;
  for (let i = 0; i <= rawQuery.length; i++) {
    const c = i < rawQuery.length ? rawQuery.charCodeAt(i) : 38;
    if (c === 61) {
      // A second `=` is part of the value, which the encoding writes as %3D.
      if (eq !== -1) return undefined;
      eq = i;
    } else if (c === 38) {
      if (i > start) {
        const name = rawQuery.slice(start, eq === -1 ? i : eq);
        if (!pagingParameters.includes(name)) {
          const pair = eq === -1 ? `${name}=` : rawQuery.slice(start, i);
          text = text === '' ? pair : `${text}&${pair}`;
        }
      }
      start = i + 1;
      eq = -1;
    }
  }
  for (const name in paging) {
    const value = paging[name]!;
    // (Another name would replace its first occurrence in the query, where it stands.)
    if (!pagingParameters.includes(name) || !plainText.test(value)) return undefined;
    text = text === '' ? `${name}=${value}` : `${text}&${name}=${value}`;
  }
  return text === '' ? path : `${path}?${text}`;
}

/** The request's query without its paging parameters, then the given ones. */
function target(path: string, rawQuery: string, paging: Record<string, string>): string {
  const query = new URLSearchParams(rawQuery);
  for (const name of pagingParameters) query.delete(name);
  for (const [name, value] of Object.entries(paging)) query.set(name, value);
  const text = query.toString();
  return text === '' ? path : `${path}?${text}`;
}

/**
 * The `Link` values of a page: `<…>; rel="next"` and `<…>; rel="prev"` where those pages exist,
 * each the request's path and query with only the paging parameters changed. The targets are
 * relative references (RFC 8288 §3.1), resolved against the request's own URL.
 *
 * @category Payloads
 */
export function pageLinks(page: ListPage, path: string, rawQuery: string): string[] {
  const { next, prev } = page.neighbours();
  const links: string[] = [];
  if (next !== undefined) links.push(`<${pageTarget(path, rawQuery, next)}>; rel="next"`);
  if (prev !== undefined) links.push(`<${pageTarget(path, rawQuery, prev)}>; rel="prev"`);
  return links;
}
