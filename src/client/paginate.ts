/**
 * Every item of a list, page after page, in any of the three paging styles (spec 2.8, 4.4):
 * the `next` link when the service sends one (RFC 8288), else the envelope's `hasNext` with the
 * next page number, offset or last id. A link to another origin is refused, or followed without
 * credentials where `followOrigins` lists it.
 */
import { linkOf } from './headers.ts';
import type { ClientState } from './options.ts';
import { reachOf } from './origins.ts';
import { type Call, send } from './send.ts';
import { withQuery } from './url.ts';

/**
 * How {@link Client.paginate} walks a list.
 *
 * @category Client
 */
export interface PagingOptions {
  /**
   * `page` (`page` and `per_page`), `offset` (`limit` and `offset`) or `cursor` (`after`,
   * starting with an empty one). @default the service's default style
   */
  style?: 'page' | 'offset' | 'cursor';
  /** Items per page (`per_page`, or `limit`). @default the service's default */
  size?: number;
  /** Pages fetched at most. @default 1000 */
  maxPages?: number;
  /** Items yielded at most. @default no cap */
  maxItems?: number;
  /** The envelope's member that holds the items. @default its one array member */
  items?: string;
  /** Follow the `next` link of `Link` when sent. @default true */
  links?: boolean;
}

/** The items of one page: the named member, else the envelope's first array, else the body itself. */
function itemsOf(body: unknown, name: string | undefined): unknown[] {
  if (Array.isArray(body)) return body;
  if (typeof body !== 'object' || body === null) return [];
  const record = body as Record<string, unknown>;
  if (name !== undefined) return Array.isArray(record[name]) ? (record[name] as unknown[]) : [];
  for (const value of Object.values(record)) if (Array.isArray(value)) return value;
  return [];
}

/** The query of the first page in a style. */
function firstPage(style: PagingOptions['style'], size: number | undefined) {
  const query: Record<string, string | number> = {};
  if (style === 'page') {
    query.page = 1;
    if (size !== undefined) query.per_page = size;
  } else if (style === 'offset') {
    query.offset = 0;
    if (size !== undefined) query.limit = size;
  } else if (style === 'cursor') {
    // An empty `after` asks for the first page in the cursor style.
    query.after = '';
    if (size !== undefined) query.limit = size;
  } else if (size !== undefined) query.per_page = size;
  return query;
}

/** The URL of the next page without a link: from `hasNext` and the style's parameter. */
function nextByEnvelope(
  url: string,
  body: unknown,
  items: unknown[],
  style: PagingOptions['style'],
): string | undefined {
  const envelope = (typeof body === 'object' && body !== null ? body : {}) as Record<
    string,
    unknown
  >;
  if (envelope.hasNext === false || items.length === 0) return undefined;
  const next = new URL(url);
  const query = next.searchParams;
  const cursor = envelope.next ?? envelope.nextCursor ?? envelope.cursor;
  if (typeof cursor === 'string' && cursor !== '') {
    query.delete('before');
    query.set('after', cursor);
  } else if (style === 'cursor' || query.has('after')) {
    const last = items.at(-1) as { id?: unknown } | undefined;
    if (last?.id === undefined) return undefined;
    query.set('after', String(last.id));
  } else if (style === 'offset' || query.has('offset')) {
    query.set('offset', String(Number(query.get('offset') ?? 0) + items.length));
  } else {
    query.set('page', String(Number(query.get('page') ?? 1) + 1));
  }
  // Without `hasNext`, a page is the last when the service says nothing more.
  if (envelope.hasNext !== true && typeof cursor !== 'string') return undefined;
  return next.href;
}

/** Walks the list at `call.url`, yielding each item once, up to the caps. */
export async function* paginate(
  state: ClientState,
  call: Call,
  options: PagingOptions,
): AsyncGenerator<unknown, void, undefined> {
  const maxPages = options.maxPages ?? 1000;
  const maxItems = options.maxItems ?? Number.POSITIVE_INFINITY;
  let url: string | undefined = withQuery(
    call.url,
    firstPage(options.style, options.size),
    undefined,
    undefined,
  );
  let pages = 0;
  let yielded = 0;
  while (url !== undefined && pages < maxPages && yielded < maxItems) {
    const res = await send(state, { ...call, method: 'GET', url });
    pages++;
    const items = itemsOf(res.body, options.items);
    for (const item of items) {
      if (yielded >= maxItems) return;
      yielded++;
      yield item;
    }
    const linked: string | undefined =
      options.links === false ? undefined : linkOf(res.headers, 'next', url);
    // A link elsewhere is refused here, before a byte is sent (or followed bare when listed).
    if (linked !== undefined) reachOf(state.origins, linked, `GET ${url}`, 'its Link rel="next"');
    url = linked ?? nextByEnvelope(url, res.body, items, options.style);
  }
}
