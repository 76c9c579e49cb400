/** The `Link` header of a page (RFC 8288): `next` and `prev`, built from the request's own URL. */
import { pagingParameters } from './list-options.ts';
import type { ListPage } from './list-query.ts';

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
  if (next !== undefined) links.push(`<${target(path, rawQuery, next)}>; rel="next"`);
  if (prev !== undefined) links.push(`<${target(path, rawQuery, prev)}>; rel="prev"`);
  return links;
}
