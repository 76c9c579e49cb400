/** The plain response the core hands to an adapter, and the reader it takes request headers through. */

/** Response headers: lower-case names; an array value is sent as repeated header lines. */
export type ResponseHeaders = Record<string, string | string[]>;

/**
 * A finished response as plain data: the adapter writes `status`, `headers` and `body` as they
 * are. `body` is already serialized; `null` means no body (204, 304, HEAD).
 */
export interface ApiResponse {
  /** The HTTP status. */
  status: number;
  /** Headers to send as they are. */
  headers: ResponseHeaders;
  /** The serialized body; `null` for none. */
  body: string | Uint8Array | null;
}

/**
 * The response on its way out, before serialization: plugins may change the status, add
 * headers, or reshape `body` (select fields, wrap, choose a format).
 */
export interface OutgoingResponse {
  /** The HTTP status. */
  status: number;
  /** Lower-case names. */
  headers: Record<string, string | string[]>;
  /** The value to serialize; `undefined` for no body. */
  body: unknown;
}

/**
 * Reads one request header by its lower-case name. The Fetch `Headers` object fits as it is;
 * the Node adapters wrap `req.headers` in a tiny object.
 */
export interface HeaderReader {
  /** The header's value, repeated values joined with `, `; `null` or `undefined` when absent. */
  get(name: string): string | null | undefined;
}

/** UTF-8 length of a string without encoding it, for `Content-Length` on HEAD. */
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
