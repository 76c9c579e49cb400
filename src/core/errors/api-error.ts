/** The one error type of the library: an HTTP status, integer codes and messages (spec 7). */
import { ErrorCode } from './catalogue.ts';
import { assertStatusAndCode, restoreStack, skipStack } from './construction.ts';

/**
 * One entry of the error body's `errors` list (spec 7.1.5).
 *
 * @category Errors
 */
export interface ErrorEntry {
  /** A sentence for the developer calling the API; it says what was wrong. */
  message: string;
  /** A stable integer from the catalogue: status × 100 + n. */
  code: number;
}

/**
 * The body every failure answers with: `{ "errors": [ { "message", "code" } ] }`.
 *
 * @category Errors
 */
export interface ErrorBody {
  /** One entry per problem; never empty. */
  errors: ErrorEntry[];
  /** RFC 6749 §5.2 error word, only on OAuth endpoints so standard OAuth clients work. */
  error?: string;
  /** RFC 6749 §5.2 description, only on OAuth endpoints. */
  error_description?: string;
}

/**
 * Options of {@link ApiError} beyond status, code and message.
 *
 * @category Errors
 */
export interface ApiErrorOptions {
  /** Response headers that belong to this error, e.g. `Allow` on 405 or `Retry-After` on 429. */
  headers?: Record<string, string>;
  /**
   * Further entries when several things are wrong at once (each invalid field); past
   * `maxErrorEntries`, the rest is summed up in one closing entry.
   */
  errors?: readonly ErrorEntry[];
  /** The underlying error, kept for logs and never sent to the client. */
  cause?: unknown;
  /** Extra top-level members of the body, e.g. OAuth's `error` and `error_description`. */
  extra?: Readonly<Record<string, string>>;
}

const brand = Symbol.for('api-conventions.ApiError');

/**
 * The most problem entries one error body lists. A longer list keeps its first
 * `maxErrorEntries` entries and ends with one `ErrorCode.MoreErrors` entry about the rest,
 * so a request with thousands of problems cannot make a response, or the work, thousands of
 * entries long.
 *
 * @category Errors
 */
export const maxErrorEntries = 100;

/** `1234567` as `1,234,567`, without depending on the locale data of the runtime. */
function grouped(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * The closing `ErrorCode.MoreErrors` entry of a cut list: it counts the problems left
 * out, or, when the checker stopped without counting them (`undefined`), says more were found.
 *
 * @category Errors
 */
export function moreErrorsEntry(count: number | undefined): ErrorEntry {
  const message =
    count === undefined
      ? 'More problems were found; fix these and send the request again.'
      : `…and ${grouped(count)} more problem${count === 1 ? '' : 's'}.`;
  return { message, code: ErrorCode.MoreErrors };
}

/** `errors` cut to `maxErrorEntries` entries plus one that stands for the rest. */
function capped(errors: readonly ErrorEntry[]): readonly ErrorEntry[] {
  if (errors.length <= maxErrorEntries) return errors;
  const last = errors[maxErrorEntries]!;
  // Already cut by the code that produced it (checkFields stops at the cap): keep its summary.
  if (errors.length === maxErrorEntries + 1 && last.code === ErrorCode.MoreErrors) return errors;
  let uncounted = false;
  for (let i = maxErrorEntries; i < errors.length && !uncounted; i++) {
    uncounted = errors[i]!.code === ErrorCode.MoreErrors;
  }
  const rest = uncounted ? undefined : errors.length - maxErrorEntries;
  return [...errors.slice(0, maxErrorEntries), moreErrorsEntry(rest)];
}

/**
 * An error that becomes an HTTP response: its status states the outcome and its body is the
 * spec's error body. Throw it from handlers and checks; the library turns it into the response.
 *
 * @example
 * ```ts
 * import { ApiError, ErrorCode } from 'api-conventions';
 * throw new ApiError(409, ErrorCode.Conflict, 'A book with id "dune" already exists.');
 * ```
 *
 * @category Start here
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
    this.errors = options.errors?.length ? capped(options.errors) : [{ message, code }];
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
 *
 * @example
 * ```ts
 * import { isApiError } from 'api-conventions';
 *
 * export function describe(error: unknown): string {
 *   // True for an ApiError from another copy of the package too, where instanceof is false.
 *   return isApiError(error) ? `${error.status} ${error.code}: ${error.message}` : String(error);
 * }
 * ```
 *
 * @category Errors
 */
export function isApiError(value: unknown): value is ApiError {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value instanceof ApiError || (value as Record<symbol, unknown>)[brand] === true)
  );
}
