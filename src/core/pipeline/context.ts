/** The per-request context handed to plugins and handlers. */
import type { HeaderReader, ResponseHeaders } from '../http/response.ts';
import type { RouteSettings } from '../routing/types.ts';

/**
 * Per-request data that plugins and handlers share, e.g. the verified caller. Features add
 * their own fields by declaration merging.
 *
 * @example
 * ```ts
 * declare module 'api-conventions' {
 *   interface RequestState { tenant?: string }
 * }
 * ```
 */
// biome-ignore lint/suspicious/noEmptyInterface: extended by declaration merging
export interface RequestState {}

/** A body the host framework has already parsed. */
export interface ParsedBody {
  /** The parsed value; `undefined` when the request had no body. */
  value: unknown;
}

/** What an adapter hands the core for one request: plain values only. */
export interface RequestInput {
  /** The method, upper-case. */
  method: string;
  /** The request target in origin form: path and query as received (`/v1/books?page=2`). */
  url: string;
  /** Request headers by lower-case name. */
  headers: HeaderReader;
  /**
   * Reads the raw body, rejecting with a 413 {@link ApiError} once more than `limit` bytes
   * arrive. Absent when the request has no body.
   */
  readBody?: ((limit: number) => Promise<Uint8Array>) | undefined;
  /**
   * The body as the host framework already parsed it, when it did (`{ value }`); the core then
   * skips `readBody` but still checks the media type.
   */
  parsedBody?: ParsedBody | undefined;
  /** The peer address of the connection, when the host knows it. */
  remoteAddress?: string | undefined;
  /** The host's own request object, for handlers that need it. Never read by the core. */
  native?: unknown;
}

/** One request as the core sees it: plain values, parsed lazily. */
export class RequestContext {
  /** The method, upper-case. */
  readonly method: string;
  /** The path, percent-encoded as received, without the query. */
  readonly path: string;
  /** The query string without `?`. */
  readonly rawQuery: string;
  /** Request headers. */
  readonly headers: HeaderReader;
  /** The peer address, when known. */
  readonly remoteAddress: string | undefined;
  /** The host's own request object. */
  readonly native: unknown;
  /** The matched route; `undefined` before routing or when nothing matched. */
  route: RouteSettings | undefined = undefined;
  /** Decoded path parameters of the matched route. */
  params: Readonly<Record<string, string>> = {};
  /** The parsed body, once read; `undefined` when there is none. */
  body: unknown = undefined;
  /** Data shared between plugins and the handler. */
  readonly state: RequestState = {};
  /** Headers that plugins add to whatever response this request gets. */
  responseHeaders: ResponseHeaders | undefined = undefined;
  private parsedQuery: URLSearchParams | undefined;

  constructor(input: RequestInput, path: string, rawQuery: string) {
    this.method = input.method;
    this.path = path;
    this.rawQuery = rawQuery;
    this.headers = input.headers;
    this.remoteAddress = input.remoteAddress;
    this.native = input.native;
  }

  /** The query parameters, parsed on first use. */
  get query(): URLSearchParams {
    this.parsedQuery ??= new URLSearchParams(this.rawQuery);
    return this.parsedQuery;
  }

  /** A path parameter of the matched route; a programming error when the route has none by that name. */
  param(name: string): string {
    const value = this.params[name];
    if (value === undefined) {
      throw new TypeError(`Route ${this.route?.pattern ?? '(none)'} has no parameter "${name}".`);
    }
    return value;
  }

  /** Adds a header to this request's response, whatever its outcome (e.g. rate-limit counters). */
  setResponseHeader(name: string, value: string | string[]): void {
    this.responseHeaders ??= {};
    this.responseHeaders[name.toLowerCase()] = value;
  }
}
