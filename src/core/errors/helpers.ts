/** Small constructors for the error statuses of the spec's table that a service raises (spec 7.2). */
import { ApiError, type ApiErrorOptions, type ErrorEntry } from './api-error.ts';
import { ErrorCode } from './catalogue.ts';

/**
 * 400 for a client error that fits no other code, such as wrong parameters (spec 7.1.4).
 *
 * @category Errors
 */
export function badRequest(
  message = 'The request is not valid.',
  options?: ApiErrorOptions,
): ApiError {
  return new ApiError(400, ErrorCode.BadRequest, message, options);
}

/**
 * One problem with one field or parameter, for {@link invalidRequest}.
 *
 * @category Errors
 */
export interface FieldProblem {
  /** The sentence naming the field and what is wrong with it. */
  message: string;
  /** @default ErrorCode.InvalidField (40002) */
  code?: number;
}

/**
 * 400 that lists every problem at once, one entry each (each invalid field), so a client can fix
 * them all in one round trip (spec 2.11). Past `maxErrorEntries` problems the body keeps the
 * first ones and one `ErrorCode.MoreErrors` entry that counts the rest, so its size is bounded.
 *
 * @category Errors
 */
export function invalidRequest(problems: readonly FieldProblem[]): ApiError {
  if (problems.length === 0) throw new TypeError('invalidRequest needs at least one problem.');
  const errors: ErrorEntry[] = problems.map((p) => ({
    message: p.message,
    code: p.code ?? ErrorCode.InvalidField,
  }));
  const first = errors[0]!;
  return new ApiError(400, first.code, first.message, { errors });
}

/**
 * 401: the caller is not identified (spec 5.8). Sends `WWW-Authenticate: Bearer` by default.
 *
 * @category Errors
 */
export function unauthorized(
  message = 'Authentication is required.',
  options: ApiErrorOptions = {},
): ApiError {
  return new ApiError(401, ErrorCode.Unauthorized, message, {
    ...options,
    headers: { 'www-authenticate': 'Bearer', ...options.headers },
  });
}

/**
 * 403: the caller is identified but not allowed (spec 5.8).
 *
 * @category Errors
 */
export function forbidden(
  message = 'You are not allowed to do this.',
  options?: ApiErrorOptions,
): ApiError {
  return new ApiError(403, ErrorCode.Forbidden, message, options);
}

/**
 * 404 whose message states what was not found (spec 7.1.3).
 *
 * @example
 * ```ts
 * throw notFound(`No book with id "${id}".`);
 * ```
 *
 * @category Start here
 */
export function notFound(message: string, options?: ApiErrorOptions): ApiError {
  return new ApiError(404, ErrorCode.NotFound, message, options);
}

/**
 * 405 with the `Allow` header listing the methods the path does support (RFC 9110 §15.5.6).
 *
 * @category Errors
 */
export function methodNotAllowed(method: string, path: string, allow: readonly string[]): ApiError {
  return new ApiError(
    405,
    ErrorCode.MethodNotAllowed,
    `${method} is not allowed on ${path}; allowed: ${allow.join(', ')}.`,
    { headers: { allow: allow.join(', ') } },
  );
}

/**
 * 406: the requested format is not supported (spec 4.5).
 *
 * @category Errors
 */
export function notAcceptable(message = 'None of the accepted formats can be produced.'): ApiError {
  return new ApiError(406, ErrorCode.NotAcceptable, message);
}

/**
 * 408: the request took too long to arrive. Sends `Connection: close`.
 *
 * @category Errors
 */
export function requestTimeout(message = 'The request took too long to arrive.'): ApiError {
  return new ApiError(408, ErrorCode.RequestTimeout, message, {
    headers: { connection: 'close' },
  });
}

/**
 * 409: the request conflicts with the resource, e.g. a duplicate identifier.
 *
 * @category Errors
 */
export function conflict(message: string, options?: ApiErrorOptions): ApiError {
  return new ApiError(409, ErrorCode.Conflict, message, options);
}

/**
 * 410: the resource existed and is gone.
 *
 * @category Errors
 */
export function gone(message: string, options?: ApiErrorOptions): ApiError {
  return new ApiError(410, ErrorCode.Gone, message, options);
}

/**
 * 412: a precondition such as `If-Match` failed.
 *
 * @category Errors
 */
export function preconditionFailed(
  message = 'The resource has changed since you read it.',
  options?: ApiErrorOptions,
): ApiError {
  return new ApiError(412, ErrorCode.PreconditionFailed, message, options);
}

/**
 * 413: the body is larger than `limit` bytes.
 *
 * @category Errors
 */
export function payloadTooLarge(limit: number): ApiError {
  return new ApiError(
    413,
    ErrorCode.PayloadTooLarge,
    `The request body is larger than the limit of ${limit} bytes.`,
    { headers: { connection: 'close' } },
  );
}

/**
 * 414: the URI is longer than `limit` characters.
 *
 * @category Errors
 */
export function uriTooLong(limit: number): ApiError {
  return new ApiError(
    414,
    ErrorCode.UriTooLong,
    `The request URI is longer than the limit of ${limit} characters.`,
  );
}

/**
 * 415: the body's media type is not one the endpoint reads (spec 4.6).
 *
 * @category Errors
 */
export function unsupportedMediaType(
  contentType: string | undefined,
  supported: readonly string[],
): ApiError {
  const got = contentType
    ? `Content-Type "${contentType}" is not supported`
    : 'A body needs a Content-Type';
  return new ApiError(
    415,
    ErrorCode.UnsupportedMediaType,
    `${got}; send one of: ${supported.join(', ')}.`,
  );
}

/**
 * 429: the rate limit is exceeded (spec 8.2); `retryAfter` is whole seconds.
 *
 * @category Errors
 */
export function tooManyRequests(retryAfter?: number, options: ApiErrorOptions = {}): ApiError {
  const headers =
    retryAfter === undefined || !Number.isFinite(retryAfter)
      ? options.headers
      : { 'retry-after': String(Math.max(0, Math.ceil(retryAfter))), ...options.headers };
  return new ApiError(429, ErrorCode.TooManyRequests, 'Too many requests; slow down.', {
    ...options,
    headers,
  });
}

/**
 * 503: the service, or a store it needs, is temporarily unavailable.
 *
 * @category Errors
 */
export function serviceUnavailable(
  message = 'The service is temporarily unavailable; try again shortly.',
  options?: ApiErrorOptions,
): ApiError {
  return new ApiError(503, ErrorCode.Unavailable, message, options);
}

/**
 * 400: the body is not valid JSON; `detail` is the parser's own message, when there is one.
 *
 * @category Errors
 */
export function malformedJson(detail?: string): ApiError {
  const suffix = detail ? `: ${detail.replace(/\.$/, '')}` : '';
  return new ApiError(400, ErrorCode.MalformedBody, `The request body is not valid JSON${suffix}.`);
}
