/**
 * Paging (spec 4.4, 2.8), read the same way from a live body, an OpenAPI schema and a Spectral
 * run: the query parameters a page is asked with, and the flag a list says whether a next page
 * exists with.
 */

/** Spec 4.4's paging parameters. */
const pagingParameters = ['page', 'per_page', 'limit', 'offset'] as const;

// Other names APIs give the same parameters (json-server's `_page`, OData's `$top`), each with
// the spec's name for it.
const synonyms: Readonly<Record<string, string>> = {
  _page: 'page',
  pageNumber: 'page',
  page_number: 'page',
  _per_page: 'per_page',
  perPage: 'per_page',
  'per-page': 'per_page',
  pageSize: 'per_page',
  page_size: 'per_page',
  _limit: 'limit',
  _start: 'offset',
  _offset: 'offset',
  skip: 'offset',
  take: 'limit',
  $top: 'limit',
  $skip: 'offset',
};

/** The spec's name for a query parameter that asks for a page under another name, if it is one. */
function pagingSynonym(name: string): string | undefined {
  return Object.hasOwn(synonyms, name) ? synonyms[name] : undefined;
}

/** What is wrong with a query parameter's name (spec 4.4), or undefined. */
export function pagingNameProblem(name: string): string | undefined {
  const spec = pagingSynonym(name);
  return spec === undefined
    ? undefined
    : `the query parameter ${name} asks for a page: spec 4.4 names it ${spec}`;
}

/** Whether a query parameter asks for a page (the spec's names, their synonyms, a cursor). */
export function isPagingParameter(name: string): boolean {
  return (
    (pagingParameters as readonly string[]).includes(name) ||
    pagingSynonym(name) !== undefined ||
    /^(?:cursor|after|before|page_token|pageToken|since)$/.test(name)
  );
}

// Members that say a page may be followed by more: positions and sizes. A count alone (total,
// total_count) does not: a complete list may carry one.
const signs = new Set([
  'page',
  'per_page',
  'perPage',
  'pageSize',
  'page_size',
  'offset',
  'limit',
  'cursor',
  'pages',
  'total_pages',
  'totalPages',
]);
// Counts a list envelope may hold beside its list.
const counts = new Set(['total', 'total_count', 'totalCount', 'filter_count', 'count']);
// Flags under another name than hasNext: booleans, and links or cursors that are absent or null
// on the last page.
const otherFlags = new Set([
  'has_next',
  'hasMore',
  'has_more',
  'hasNextPage',
  'has_next_page',
  'more',
  'next',
  'nextPage',
  'next_page',
  'nextCursor',
  'next_cursor',
  'nextPageToken',
  'next_page_token',
  'nextLink',
]);
/** Objects a list envelope keeps its paging members in. */
const pagingHolders = new Set([
  'meta',
  'pagination',
  'paging',
  'page_info',
  'pageInfo',
  'links',
  '_links',
]);

/** Whether a member of a list object is one a list envelope holds beside its list. */
export function isListMember(name: string): boolean {
  return (
    name === 'hasNext' ||
    name === 'prev' ||
    name === 'previous' ||
    otherFlags.has(name) ||
    signs.has(name) ||
    counts.has(name) ||
    pagingHolders.has(name)
  );
}

/** What a list says of its pages: its hasNext, a flag of another name, and signs of paging. */
interface PagingSays {
  /** The value of `hasNext`, when it has one. */
  hasNext?: unknown;
  /** Where a flag of another name is (`meta.has_more`, `links.next`). */
  otherFlag?: string;
  /** Where the signs of paging are (`meta.total_count`, `offset`). */
  signs: string[];
}

/**
 * What the members of a list object say of its pages, at the top and in its paging holders
 * (`meta`, `pagination`, `links`…). `members` maps a member's name to its value (a body) or to
 * its schema (a document); `holder` gives a holder's members the same way.
 */
export function readPaging<T>(
  members: Record<string, T>,
  holder: (value: T) => Record<string, T> | undefined,
): PagingSays {
  const says: PagingSays = { signs: [] };
  const look = (object: Record<string, T>, prefix: string) => {
    for (const [name, value] of Object.entries(object)) {
      const at = `${prefix}${name}`;
      if (name === 'hasNext' && says.hasNext === undefined) says.hasNext = value;
      else if (otherFlags.has(name)) says.otherFlag ??= at;
      else if (signs.has(name)) says.signs.push(at);
      else if (prefix === '' && pagingHolders.has(name)) {
        const inner = holder(value);
        if (inner) look(inner, `${at}.`);
      }
    }
  };
  look(members, '');
  return says;
}
