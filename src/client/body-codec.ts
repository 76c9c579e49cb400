/** The body of a call as sent (JSON unless it is already bytes or text) and of a response as read. */
import type { ClientState } from './options.ts';
import { readText } from './read-body.ts';

/** The body to send, and its media type when the client chose one. */
export function encodeBody(body: unknown): { body?: BodyInit; type?: string } {
  if (body === undefined) return {};
  if (
    typeof body === 'string' ||
    body instanceof URLSearchParams ||
    body instanceof ArrayBuffer ||
    ArrayBuffer.isView(body) ||
    (typeof Blob !== 'undefined' && body instanceof Blob) ||
    (typeof FormData !== 'undefined' && body instanceof FormData)
  ) {
    return { body: body as BodyInit };
  }
  return { body: JSON.stringify(body), type: 'application/json' };
}

/**
 * The body of a response: JSON parsed, other text as text, nothing for 204, 304 and HEAD; at
 * most `maxBodySize` bytes.
 */
export async function readBody(
  state: ClientState,
  res: Response,
  method: string,
  url: string,
): Promise<unknown> {
  if (method === 'HEAD' || res.status === 204 || res.status === 205 || res.status === 304) {
    await res.body?.cancel();
    return undefined;
  }
  const text = await readText(res, state.maxBodySize, method, url);
  if (text === '') return undefined;
  const type = res.headers.get('content-type') ?? '';
  if (/^application\/(?:[\w.-]+\+)?json\b/i.test(type)) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  return text;
}
