/** The plain response shapes of the pipeline's phases, and the reader request headers come through. */
import type { HeaderBag, ResponseHeaders } from './headers.ts';

/**
 * A finished response as plain data: the adapter writes `status`, `headers` and `body` as they
 * are. `body` is already serialized; `null` means no body (204, 304, HEAD).
 *
 * @category Replies and HTTP
 */
export interface ApiResponse {
  /** The HTTP status. */
  status: number;
  /** Headers to send as they are, by lower-case name. */
  headers: ResponseHeaders;
  /** The serialized body; `null` for none. */
  body: string | Uint8Array | null;
}

/**
 * The response in the transform phase, before serialization: hooks may change the status, add
 * headers, reshape `body` (select fields, wrap, add links) or choose the media type it is
 * serialized as.
 *
 * @category Replies and HTTP
 */
export interface OutgoingResponse {
  /** The HTTP status. */
  status: number;
  /** The response headers. */
  headers: HeaderBag;
  /** The value to serialize; `undefined` for no body. */
  body: unknown;
  /**
   * The media type the body is serialized as: a key of the serializer registry. `undefined`
   * means JSON, unless the body is already a string or bytes with a `Content-Type` set.
   */
  type?: string | undefined;
}

/**
 * The response in the send phase: its bytes are final and hooks see exactly what goes out, so
 * they may hash them (an ETag), answer 304 instead, or add caching headers.
 *
 * @category Replies and HTTP
 */
export interface SentResponse {
  /** The HTTP status. */
  status: number;
  /** The response headers. */
  headers: HeaderBag;
  /** The serialized body; `null` for none. */
  body: string | Uint8Array | null;
}

/**
 * Reads one request header by its lower-case name. The Fetch `Headers` object fits as it is;
 * the Node adapters wrap `req.headers` in a tiny object.
 *
 * @category Replies and HTTP
 */
export interface HeaderReader {
  /** The header's value, repeated values joined with `, `; `null` or `undefined` when absent. */
  get(name: string): string | null | undefined;
}

/**
 * UTF-8 length of a string without encoding it, for `Content-Length` on HEAD.
 *
 * @category Replies and HTTP
 */
export function utf8Length(text: string): number {
  let length = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) length += 1;
    else if (c >= 0xd800 && c <= 0xdbff && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      // A surrogate pair is 2 UTF-16 units and 4 UTF-8 bytes.
      length += 2;
      i++;
    } else length += 2; // a lone surrogate is sent as U+FFFD, 3 bytes
  }
  return length;
}
