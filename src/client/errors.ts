/** What a failed call rejects with: the status, the error body's entries and the headers (spec 7.1.5). */
// The catalogue, as a type only: the client loads nothing of the service side.
import type { ErrorCodeValue } from '#core';

/**
 * The code of an error entry: one of the library's catalogue ([Errors](../../docs/errors.md)), or one of the
 * service's own in the same scheme (status × 100 + n). Not narrowed per route: plugins the
 * route's settings do not show (rate limits, caching, HTTPS, CSRF, stores) and handlers that
 * throw answer with codes of their own on any route, so a closed union would reject codes the
 * service really sends. The catalogue's codes stay in the type for completion and `switch`.
 *
 * @category Client
 */
export type ClientErrorCode = ErrorCodeValue | (number & {}); // `& {}`: not absorbed into number

/**
 * One entry of an error body: a message for the developer and a stable integer code (spec 7.1.5).
 *
 * @category Client
 */
export interface ClientErrorEntry<Code extends number = ClientErrorCode> {
  /** What went wrong, for a person. */
  readonly message: string;
  /** Which problem, for a program: the status × 100 + n. */
  readonly code: Code;
}

const brand = Symbol.for('api-conventions.ApiResponseError');

/**
 * A response that was not a success: its status, the entries of its error body with their
 * integer codes, and its headers. A 412 says that the resource changed since it was read
 * (`changed`).
 *
 * @example
 * ```ts
 * import { ApiResponseError, createClient } from 'api-conventions/client';
 *
 * const client = createClient({ baseUrl: 'https://books.example.com' });
 * try {
 *   await client.get('/v1/books/:id', { params: { id: 'nope' } });
 * } catch (error) {
 *   // isApiResponseError(error) also knows one made by another copy of the package.
 *   if (error instanceof ApiResponseError && error.status === 404) console.log(error.code); // 40400
 * }
 * ```
 *
 * @category Client
 */
export class ApiResponseError<Code extends number = ClientErrorCode> extends Error {
  /** The HTTP status. */
  readonly status: number;
  /** The entries of the error body (one made from the status when the body has none). */
  readonly errors: readonly ClientErrorEntry<Code>[];
  /** The response's headers. */
  readonly headers: Headers;
  /** The response body as read (JSON, text, or `undefined`). */
  readonly body: unknown;
  /** The method of the request. */
  readonly method: string;
  /** The URL of the request. */
  readonly url: string;
  /** `true` on a 412: the resource changed since the `If-Match` tag was read (RFC 9110 §13.1.1). */
  readonly changed: boolean;

  /** Makes the error of one response; `body` is what it carried, read already. */
  constructor(method: string, url: string, status: number, headers: Headers, body: unknown) {
    const errors = entriesOf(status, body) as ClientErrorEntry<Code>[];
    const changed = status === 412;
    const first = errors[0]?.message ?? `HTTP ${status}`;
    super(
      changed
        ? `${method} ${url}: the resource changed since it was read (412): ${first}`
        : `${method} ${url}: ${status}: ${first}`,
    );
    this.name = 'ApiResponseError';
    this.status = status;
    this.errors = errors;
    this.headers = headers;
    this.body = body;
    this.method = method;
    this.url = url;
    this.changed = changed;
    Object.defineProperty(this, brand, { value: true });
  }

  /** The code of the first entry. */
  get code(): Code {
    return (this.errors[0] as ClientErrorEntry<Code>).code;
  }
}

/**
 * Whether `value` is an {@link ApiResponseError}, also one made by another copy of the client.
 *
 * @example
 * ```ts
 * import { createClient, isApiResponseError } from 'api-conventions/client';
 *
 * const client = createClient({ baseUrl: 'https://books.example.com' });
 * try {
 *   await client.delete('/v1/books/:id', { params: { id: 'emma' } });
 * } catch (error) {
 *   if (isApiResponseError(error) && error.status === 412) {
 *     console.log('Changed since it was read; read it again.'); // error.changed is true
 *   } else throw error;
 * }
 * ```
 *
 * @category Client
 */
export function isApiResponseError(value: unknown): value is ApiResponseError {
  return typeof value === 'object' && value !== null && brand in value;
}

/**
 * The entries of an error body: `{ errors: [{ message, code }] }` as sent, an OAuth error
 * (RFC 6749 §5.2) or anything else as one entry whose code is the status × 100.
 */
function entriesOf(status: number, body: unknown): ClientErrorEntry[] {
  const list = (body as { errors?: unknown } | null)?.errors;
  if (Array.isArray(list)) {
    const entries = list
      .filter(
        (e): e is ClientErrorEntry =>
          typeof e === 'object' &&
          e !== null &&
          typeof (e as ClientErrorEntry).message === 'string' &&
          Number.isInteger((e as ClientErrorEntry).code),
      )
      .map((e) => ({ message: e.message, code: e.code }));
    if (entries.length > 0) return entries;
  }
  const oauth = body as { error?: unknown; error_description?: unknown } | null;
  const message =
    typeof oauth?.error_description === 'string'
      ? oauth.error_description
      : typeof oauth?.error === 'string'
        ? oauth.error
        : `The service answered ${status}.`;
  return [{ message, code: status * 100 }];
}
