/** The one error type of the library: an HTTP status, integer codes and messages (spec 7). */
import { assertStatusAndCode, restoreStack, skipStack } from './construction.ts';

/** One entry of the error body's `errors` list (spec 7.1.5). */
export interface ErrorEntry {
  /** A sentence for the developer calling the API; it says what was wrong. */
  message: string;
  /** A stable integer from the catalogue: status × 100 + n. */
  code: number;
}

/** The body every failure answers with: `{ "errors": [ { "message", "code" } ] }`. */
export interface ErrorBody {
  /** One entry per problem; never empty. */
  errors: ErrorEntry[];
  /** RFC 6749 §5.2 error word, only on OAuth endpoints so standard OAuth clients work. */
  error?: string;
  /** RFC 6749 §5.2 description, only on OAuth endpoints. */
  error_description?: string;
}

/** Options of {@link ApiError} beyond status, code and message. */
export interface ApiErrorOptions {
  /** Response headers that belong to this error, e.g. `Allow` on 405 or `Retry-After` on 429. */
  headers?: Record<string, string>;
  /** Further entries when several things are wrong at once (each invalid field). */
  errors?: readonly ErrorEntry[];
  /** The underlying error, kept for logs and never sent to the client. */
  cause?: unknown;
  /** Extra top-level members of the body, e.g. OAuth's `error` and `error_description`. */
  extra?: Readonly<Record<string, string>>;
}

const brand = Symbol.for('api-conventions.ApiError');

/**
 * An error that becomes an HTTP response: its status states the outcome and its body is the
 * spec's error body. Throw it from handlers and checks; the library turns it into the response.
 *
 * @example
 * ```ts
 * throw new ApiError(409, ErrorCode.Conflict, 'A book with id "dune" already exists.');
 * ```
 */
export class ApiError extends Error {
  /** The HTTP status, 400–599. */
  readonly status: number;
  /** The code of the first entry. */
  readonly code: number;
  /** Every entry of the body; the first one is `{ message, code }` of this error. */
  readonly errors: readonly ErrorEntry[];
  /** Headers to send with the error response. */
  readonly headers: Readonly<Record<string, string>> | undefined;
  /** Extra top-level body members (OAuth's `error`, `error_description`). */
  readonly extra: Readonly<Record<string, string>> | undefined;

  constructor(status: number, code: number, message: string, options: ApiErrorOptions = {}) {
    assertStatusAndCode(status, code);
    const savedLimit = skipStack(status);
    try {
      super(message, options.cause === undefined ? undefined : { cause: options.cause });
    } finally {
      restoreStack(savedLimit);
    }
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.errors = options.errors?.length ? options.errors : [{ message, code }];
    this.headers = options.headers;
    this.extra = options.extra;
    Object.defineProperty(this, brand, { value: true });
  }

  /** The error body the client receives. */
  toJSON(): ErrorBody {
    const errors = this.errors.map((e) => ({ message: e.message, code: e.code }));
    return this.extra ? { errors, ...this.extra } : { errors };
  }
}

/**
 * Tells whether a value is an {@link ApiError}, also across realms and duplicate copies of the
 * package, where `instanceof` fails.
 */
export function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value instanceof ApiError || (value as Record<symbol, unknown>)[brand] === true)
  );
}
