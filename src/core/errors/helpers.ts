/**
 * Small constructors for the errors of the spec's table (spec 7.2): those a handler throws, which
 * the package root exports, and those the library answers with itself (405, 408, 413, 414, 415,
 * malformed JSON), which stay inside the core, the body readers' 408 and 413 on the host binding.
 */
import { ApiError, type ApiErrorOptions, type ErrorEntry } from './api-error.ts';
import { ErrorCode } from './catalogue.ts';

/**
 * 400 for a client error that fits no other code, such as wrong parameters (spec 7.1.4).
 *
 * @example
 * ```ts
 * import { badRequest, type RequestContext } from 'api-conventions';
 *
 * const search = (ctx: RequestContext) => {
 *   const q = ctx.query.get('q') ?? '';
 *   if (q.length < 3) throw badRequest('The parameter "q" needs at least 3 characters.'); // 40000
 *   return { books: [], hasNext: false };
 * };
 * ```
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
 * @example
 * ```ts
 * import { ErrorCode, invalidRequest } from 'api-conventions';
 *
 * // 400 with two entries: 40003 for the title, 40002 (the default) for the year.
 * throw invalidRequest([
 *   { message: 'The field "title" is required.', code: ErrorCode.MissingField },
 *   { message: 'The field "year" must be an integer.' },
 * ]);
 * ```
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
 * @example
 * ```ts
 * import { type RequestContext, unauthorized } from 'api-conventions';
 *
 * const me = (ctx: RequestContext) => {
 *   if (ctx.identity === undefined) throw unauthorized(); // 401 with WWW-Authenticate: Bearer
 *   return { subject: ctx.identity.subject };
 * };
 * ```
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
 * @example
 * ```ts
 * import { forbidden, hasScopes, type RequestContext } from 'api-conventions';
 *
 * const deleteBook = (ctx: RequestContext) => {
 *   if (!hasScopes(ctx.identity, 'books:write')) throw forbidden('You may not delete books.');
 * };
 * ```
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
 * import { notFound } from 'api-conventions';
 *
 * const books = new Map([['emma', { id: 'emma', title: 'Emma' }]]);
 * export function getBook(id: string) {
 *   const book = books.get(id);
 *   if (book === undefined) throw notFound(`No book with id "${id}".`); // 404, code 40400
 *   return book;
 * }
 * ```
 *
 * @category Start here
 */
export function notFound(message: string, options?: ApiErrorOptions): ApiError {
  return new ApiError(404, ErrorCode.NotFound, message, options);
}

/**
 * 405 with the `Allow` header listing the methods the path does support (RFC 9110 §15.5.6): the
 * router's answer.
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
 * 408: the request took too long to arrive. Sends `Connection: close`. The answer of a body
 * reader past its time (the core's, or a host's that reads the body itself).
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
 * @example
 * ```ts
 * import { conflict, created, type RequestContext } from 'api-conventions';
 *
 * const ids = new Set(['emma']);
 * const createBook = (ctx: RequestContext) => {
 *   const { id } = ctx.body as { id: string };
 *   if (ids.has(id)) throw conflict(`A book with id "${id}" already exists.`); // 409, 40900
 *   ids.add(id);
 *   return created(`/v1/books/${id}`, { id });
 * };
 * ```
 *
 * @category Errors
 */
export function conflict(message: string, options?: ApiErrorOptions): ApiError {
  return new ApiError(409, ErrorCode.Conflict, message, options);
}

/**
 * 413: the body is larger than `limit` bytes. Sends `Connection: close`. The answer of a body
 * reader past the route's limit (the core's, or a host's that reads the body itself).
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

/** 414: the URI is longer than `limit` characters: the answer of the `uriLimit` option. */
export function uriTooLong(limit: number): ApiError {
  return new ApiError(
    414,
    ErrorCode.UriTooLong,
    `The request URI is longer than the limit of ${limit} characters.`,
  );
}

/** 415: the body's media type is not one the endpoint reads (spec 4.6): body parsing's answer. */
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
 * @example
 * ```ts
 * import { type RequestContext, tooManyRequests } from 'api-conventions';
 *
 * const exportsToday = new Map<string, number>();
 * const exportBooks = (ctx: RequestContext) => {
 *   const who = ctx.identity?.subject ?? 'anonymous';
 *   const count = (exportsToday.get(who) ?? 0) + 1;
 *   exportsToday.set(who, count);
 *   if (count > 3) throw tooManyRequests(3600); // 429 with Retry-After: 3600
 *   return { books: [], hasNext: false };
 * };
 * ```
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
 * 400: the body is not valid JSON; `detail` is the parser's own message, when there is one. Body
 * parsing's answer.
 */
export function malformedJson(detail?: string): ApiError {
  const suffix = detail ? `: ${detail.replace(/\.$/, '')}` : '';
  return new ApiError(400, ErrorCode.MalformedBody, `The request body is not valid JSON${suffix}.`);
}
