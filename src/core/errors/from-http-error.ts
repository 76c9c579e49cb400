/** The one rule for errors that carry an HTTP status the way http-errors, Koa and Fastify do. */
import { ApiError, isApiError } from './api-error.ts';
import { ErrorCode, statusText } from './catalogue.ts';

/**
 * The fields of another library's HTTP error (http-errors, Koa, Fastify) that the rule reads.
 *
 * @category Errors
 */
export interface HttpErrorLike {
  /** The status, as http-errors and Koa name it. */
  status?: number;
  /** The status, as Node and Fastify name it. */
  statusCode?: number;
  /** The error's message. */
  message?: string;
  /** Whether the message is safe to show the client (http-errors: true for 4xx, false for 5xx). */
  expose?: boolean;
  /** Response headers that belong to the error, e.g. `Retry-After` or `WWW-Authenticate`. */
  headers?: Record<string, string | number>;
}

/**
 * The body of every 5xx whose message is not marked safe to show.
 *
 * @category Errors
 */
export const genericFaultMessage = 'Something went wrong on our side; it has been logged.';

// RFC 9110 §5.1, §5.6.2: a field name is a token.
const token = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
// RFC 9110 §5.5: a field value is visible characters, spaces, tabs and obs-text. CR, LF and NUL
// would split the response, and Node's writeHead and fetch's Headers throw on the rest.
const unsendable = /[^\t\x20-\x7e\x80-\xff]/;
// They describe a body the error does not send: the error body is always JSON.
const bodyHeaders = new Set([
  'content-type',
  'content-length',
  'content-encoding',
  'transfer-encoding',
]);

// The ApiErrors made here: a fault is logged with the error the other library threw.
const converted = new WeakSet<object>();

/**
 * The value to log for a fault: the other library's error behind an ApiError made from it.
 *
 * @category Errors
 */
export function originalError(error: unknown): unknown {
  return isApiError(error) && converted.has(error) ? error.cause : error;
}

function isErrorStatus(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 400 && value <= 599;
}

/** The error's headers that can be sent, by lower-case name; the others are dropped. */
function sendableHeaders(headers: unknown): Record<string, string> | undefined {
  if (typeof headers !== 'object' || headers === null) return undefined;
  const kept: Record<string, string> = {};
  let any = false;
  for (const [name, raw] of Object.entries(headers)) {
    const value = typeof raw === 'number' && Number.isFinite(raw) ? String(raw) : raw;
    const lower = name.toLowerCase();
    if (typeof value !== 'string' || !token.test(name) || unsendable.test(value)) continue;
    if (bodyHeaders.has(lower)) continue;
    kept[lower] = value;
    any = true;
  }
  return any ? kept : undefined;
}

/**
 * Reads another library's HTTP error as an {@link ApiError}, with one rule for every adapter:
 * the status (`status`, else `statusCode`, an integer 400–599) is kept; the code is
 * status × 100, the catalogue's generic code for it; the message is the error's own when
 * `expose` is true (when `expose` is absent, a 4xx is exposed and a 5xx is not), else a generic
 * sentence; its sendable `headers` are kept, lower-cased. `status` is the one the host already
 * gave the error (Fastify's `reply.code(404).send(error)`): it wins over the error's own.
 * Anything else, an `ApiError` included, is returned as it is.
 *
 * @example
 * ```ts
 * import createError from 'http-errors';
 * import { fromHttpError } from 'api-conventions/host';
 * const error = fromHttpError(createError(429, 'Slow down.', { headers: { 'Retry-After': '5' } }));
 * // ApiError 429, code 42900, "Slow down.", headers { 'retry-after': '5' }
 * ```
 *
 * @category Errors
 */
export function fromHttpError(error: unknown, status?: number): unknown {
  if (isApiError(error) || typeof error !== 'object' || error === null) return error;
  const e = error as HttpErrorLike & { response?: unknown };
  // An HTTP client's error (axios, superagent, got, ky) carries the response of another server;
  // its status says how that server answered us, not how we answer our client.
  if (typeof e.response === 'object' && e.response !== null && !isErrorStatus(status)) {
    return error;
  }
  const kept = isErrorStatus(status) ? status : isErrorStatus(e.status) ? e.status : e.statusCode;
  if (!isErrorStatus(kept)) return error;
  const exposed = typeof e.expose === 'boolean' ? e.expose : kept < 500;
  const own = typeof e.message === 'string' && e.message.trim() !== '' ? e.message : undefined;
  const message = exposed && own !== undefined ? own : fallbackMessage(kept);
  const headers = sendableHeaders(e.headers);
  const made = new ApiError(kept, kept * 100, message, {
    cause: error,
    ...(headers && { headers }),
  });
  converted.add(made);
  return made;
}

/** The sentence of an error whose own message is hidden or empty. */
function fallbackMessage(status: number): string {
  if (status >= 500) return genericFaultMessage;
  const text = statusText[status];
  return text ? `The request failed: ${text} (${status}).` : `The request failed (${status}).`;
}

/**
 * Converts a thrown value to an {@link ApiError}. An `ApiError` is returned as it is; an error
 * that carries an HTTP status the way http-errors, Koa and Fastify do keeps it, by the rule of
 * {@link fromHttpError}; anything else becomes a generic 500.
 *
 * @category Errors
 */
export function toApiError(error: unknown): ApiError {
  const mapped = fromHttpError(error);
  if (isApiError(mapped)) return mapped;
  return new ApiError(500, ErrorCode.Internal, genericFaultMessage, { cause: error });
}
