/**
 * One request and the redirects it meets, followed by the client itself (`redirect: 'manual'`)
 * so that each target's origin is checked before anything is sent there: credentials stay with
 * the base URL's origin, a bare request goes to a listed one, nothing goes anywhere else.
 */
import type { ClientState } from './options.ts';
import { type Reach, reachOf } from './origins.ts';
import { ClientRefusedError } from './refused.ts';

/** What to send, before the client chooses what may go where. */
interface Outgoing {
  readonly method: string;
  readonly url: string;
  /** The headers for the base URL's origin, credentials included. */
  readonly headers: Headers;
  readonly body?: BodyInit | undefined;
  readonly signal?: AbortSignal | undefined;
}

// RFC 9110 §15.4: the redirects that carry a Location to follow.
const redirects = new Set([301, 302, 303, 307, 308]);
const maxRedirects = 10;

/** The headers a bare request keeps: what it accepts, the body's type, and validators. */
function bare(headers: Headers): Headers {
  const out = new Headers();
  for (const name of ['accept', 'content-type', 'if-none-match']) {
    const value = headers.get(name);
    if (value !== null) out.set(name, value);
  }
  return out;
}

/**
 * Sends `out` to `reach` (what its URL may receive) and follows same-origin redirects (and,
 * bare, those to `followOrigins`); resolves to the final response.
 */
export async function exchange(state: ClientState, out: Outgoing, reach: Reach): Promise<Response> {
  let { method, url, body } = out;
  let current = reach;
  let headers = current === 'own' ? out.headers : bare(out.headers);
  for (let hops = 0; ; hops++) {
    const res = await state.fetch(url, {
      method,
      headers,
      redirect: 'manual',
      ...(body === undefined ? {} : { body }),
      ...(out.signal ? { signal: out.signal } : {}),
    });
    const from = `${method} ${url}`;
    if (res.type === 'opaqueredirect') {
      // A browser's fetch hides where a redirect goes, so its origin cannot be checked.
      throw new ClientRefusedError(
        'redirects',
        url,
        `${from}: the service redirected, and this runtime hides where to; call the final URL instead.`,
      );
    }
    const location = res.headers.get('location');
    if (!redirects.has(res.status) || location === null) return res;
    await res.body?.cancel().catch(() => undefined);
    if (hops === maxRedirects) {
      throw new ClientRefusedError(
        'redirects',
        url,
        `${from}: more than ${maxRedirects} redirects.`,
      );
    }
    const next = new URL(location, url).href;
    const nextReach = reachOf(state.origins, next, from, `a redirect (Location: ${location})`);
    if (nextReach === 'bare' && method !== 'GET' && method !== 'HEAD') {
      throw new ClientRefusedError(
        'origin',
        next,
        `${from}: a redirect leads a ${method} to another origin (${next}); the client does not send it there.`,
      );
    }
    // RFC 9110 §15.4.4 (303), and §15.4.2/3 as every browser reads them for POST: a GET next.
    if (res.status === 303 || ((res.status === 301 || res.status === 302) && method === 'POST')) {
      if (method !== 'HEAD') method = 'GET';
      body = undefined;
      headers = new Headers(headers);
      headers.delete('content-type');
    }
    // Once bare, bare to the end: a foreign origin's redirect gets no credentials back.
    if (current === 'own' && nextReach === 'bare') headers = bare(headers);
    if (current === 'own') current = nextReach;
    url = next;
  }
}
