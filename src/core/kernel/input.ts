/** What an adapter hands the core for one request: plain values only. */
import type { BodyDecoder } from '../http/content-coding.ts';
import type { HeaderReader } from '../http/response.ts';

/**
 * A body the host framework has already parsed.
 *
 * @category Plugins and pipeline
 */
export interface ParsedBody {
  /** The parsed value; `undefined` when the request had no body. */
  value: unknown;
}

/**
 * How long and until when the core lets a body arrive, handed to {@link RequestInput.readBody}.
 *
 * @category Plugins and pipeline
 */
export interface ReadBodyOptions {
  /** Milliseconds the whole body may take; past them the read rejects with a 408 `ApiError`. */
  timeoutMs: number;
}

/**
 * What an adapter hands the core for one request: plain values only.
 *
 * @category Plugins and pipeline
 */
export interface RequestInput {
  /** The method, upper-case. */
  method: string;
  /** The request target as received: origin form (`/v1/books?page=2`) or absolute form. */
  url: string;
  /** Request headers by lower-case name. */
  headers: HeaderReader;
  /** The scheme of the connection. @default 'http' */
  scheme?: 'http' | 'https' | undefined;
  /**
   * The HTTP version (`1.1`, `1.0`, `2.0`), when the host knows it: an HTTP/1.1 request without
   * `Host` is then 400 (RFC 9112 §3.2). @default undefined (not checked)
   */
  httpVersion?: string | undefined;
  /**
   * Reads the raw body, rejecting with a 413 `ApiError` once more than `limit` bytes
   * arrive, and with a 408 when it takes longer than `options.timeoutMs`. Absent when the request
   * has no body.
   */
  readBody?: ((limit: number, options: ReadBodyOptions) => Promise<Uint8Array>) | undefined;
  /**
   * Decodes a body sent in a content coding the route reads (`encodings`); the core decides
   * whether to decode and applies the limit to the decoded size. @default none (such a body is 415)
   */
  decodeBody?: BodyDecoder | undefined;
  /**
   * The body as the host framework already parsed it, when it did (`{ value }`); the core then
   * skips `readBody` but still checks the media type.
   */
  parsedBody?: ParsedBody | undefined;
  /** The peer address of the connection, when the host knows it. */
  remoteAddress?: string | undefined;
  /** The peer port of the connection, when the host knows it. */
  remotePort?: number | undefined;
  /** The host's own request object, for handlers that need it. Never read by the core. */
  native?: unknown;
}
