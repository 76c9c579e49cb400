/**
 * Conditional requests on the client's side: a GET revalidates what the cache holds
 * (`If-None-Match`, RFC 9110 §13.1.2), a write carries the tag it read (`If-Match`, §13.1.1),
 * and each answer updates both.
 */
import type { CachedResponse } from './cache.ts';
import type { ClientState } from './options.ts';

// Writes that replace or remove what was read: they carry If-Match (RFC 9110 §13.1.1).
const conditionalWrites = new Set(['PUT', 'PATCH', 'DELETE']);

/** The path of a URL (the resource a tag belongs to), without its query. */
export const resourceOf = (url: string) => {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
};

/** What a call revalidates: its cache key and the stored response, when there is one. */
export interface Revalidation {
  readonly cacheKey: string | undefined;
  readonly stored: CachedResponse | undefined;
}

/**
 * Adds `If-None-Match` to a GET the cache holds and `If-Match` to a write of a resource read
 * before, unless the call gave its own.
 */
export function addConditions(
  state: ClientState,
  method: string,
  url: string,
  headers: Headers,
): Revalidation {
  const cacheKey =
    method === 'GET' && state.cache ? `${url} ${headers.get('accept') ?? ''}` : undefined;
  const stored = cacheKey === undefined ? undefined : state.cache?.get(cacheKey);
  if (stored && !headers.has('if-none-match')) headers.set('if-none-match', stored.etag);
  if (conditionalWrites.has(method) && state.validators && !headers.has('if-match')) {
    const tag = state.validators.get(resourceOf(url));
    if (tag !== undefined) headers.set('if-match', tag);
  }
  return { cacheKey, stored };
}

/** The stored response a 304 confirms, its headers updated with the 304's (RFC 9110 §15.4.5). */
export function revalidated(stored: CachedResponse, headers: Headers): CachedResponse {
  const merged = new Headers(stored.headers);
  headers.forEach((value, name) => {
    if (name !== 'content-length') merged.set(name, value);
  });
  return { ...stored, headers: merged };
}

/** Remembers a successful answer: a GET's representation and tag, a write's own tag. */
export function remember(
  state: ClientState,
  method: string,
  url: string,
  cacheKey: string | undefined,
  res: Response,
  body: unknown,
): void {
  const etag = res.headers.get('etag');
  if (method === 'GET') {
    if (cacheKey !== undefined && etag !== null && res.status === 200) {
      state.cache?.set(cacheKey, { etag, status: res.status, headers: res.headers, body });
    }
    state.validators?.set(resourceOf(url), etag);
  } else if (conditionalWrites.has(method)) {
    // The write's own tag, or none: a tag from before our write would refuse our next one.
    state.validators?.set(resourceOf(url), etag);
  }
}

/** Forgets a resource's tag after a 412: the next write goes without it unless read again. */
export function forgetTag(state: ClientState, url: string): void {
  state.validators?.set(resourceOf(url), null);
}
