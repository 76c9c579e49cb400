/** The answers a host gives before the library runs (a parser error, a timeout), built by the core. */

import { ApiError } from '../errors/api-error.ts';
import { ErrorCode, statusText } from '../errors/catalogue.ts';
import { uriTooLong } from '../errors/helpers.ts';
import type { ResponseHeaders } from '../http/headers.ts';
import { currentDate } from '../http/http-date.ts';
import type { ApiResponse } from '../http/response.ts';
import { utf8Length } from '../http/response.ts';
import { missingHost } from './request-head.ts';

/**
 * What went wrong before the library saw a request, as a host reports it: a request line, header
 * line, target or body framing its HTTP parser refused, a header section over its size limit, a request
 * that did not arrive in time, an unreadable `Host`, a `CONNECT`, or anything else the host
 * refused as malformed (`badRequest`).
 *
 * @category Limits
 */
export type Refusal =
  | 'requestLine'
  | 'target'
  | 'headerLine'
  | 'framing'
  | 'headersTooLarge'
  | 'uriTooLong'
  | 'timeout'
  | 'host'
  | 'connect'
  | 'badRequest';

/** Every {@link Refusal}, for hosts and tests that go through them all. */
export const refusals: readonly Refusal[] = [
  'requestLine',
  'target',
  'headerLine',
  'framing',
  'headersTooLarge',
  'uriTooLong',
  'timeout',
  'host',
  'connect',
  'badRequest',
];

/**
 * The error a refusal answers with (spec 7.2): 400 for what does not parse, 431 for a header
 * section too large, 408 for a request too slow, 501 for `CONNECT`.
 *
 * @category Limits
 */
export function refusalError(kind: Refusal, uriLimit = 8192): ApiError {
  switch (kind) {
    case 'requestLine':
      return new ApiError(
        400,
        ErrorCode.MalformedRequestLine,
        'The request line is not valid HTTP/1.1: send an upper-case method, a target starting with "/" and no control characters, then HTTP/1.1.',
      );
    case 'target':
      return new ApiError(
        400,
        ErrorCode.MalformedRequestLine,
        'The request target, or the Host header it is read with, is not one this server reads: send a path that starts with "/" without a backslash, and a Host of a name and an optional port.',
      );
    case 'headerLine':
      return new ApiError(
        400,
        ErrorCode.MalformedHeaderLine,
        'A header line is not valid HTTP/1.1: names are tokens without spaces, values have no control characters, and lines are not folded.',
      );
    case 'framing':
      return new ApiError(
        400,
        ErrorCode.MalformedFraming,
        'The body framing is not valid: send one numeric Content-Length, or Transfer-Encoding: chunked with well-formed chunks, never both.',
      );
    case 'headersTooLarge':
      return new ApiError(
        431,
        ErrorCode.HeadersTooLarge,
        'The request line and headers are larger than this server reads.',
      );
    case 'uriTooLong':
      return uriTooLong(uriLimit);
    case 'timeout':
      return new ApiError(
        408,
        ErrorCode.SlowRequest,
        'The request did not arrive in time; the connection is closed.',
      );
    case 'host':
      return missingHost();
    case 'connect':
      return new ApiError(501, ErrorCode.NotImplemented, 'CONNECT is not supported here.');
    default:
      return new ApiError(400, ErrorCode.BadRequest, 'The request is not valid HTTP.');
  }
}

/**
 * A host's own answer, as plain data and as the HTTP/1.1 text to write on a socket.
 *
 * @category Limits
 */
export interface RefusalResponse extends ApiResponse {
  /** The error body, as JSON. */
  body: string;
  /** The whole response as HTTP/1.1 text, for hosts that have only the socket left. */
  readonly raw: string;
}

/**
 * Builds a refusal response: the error body as JSON, the always-on headers, and `Connection: close`,
 * since after a request the host could not read the connection cannot carry another.
 *
 * @category Limits
 */
export function toRefusalResponse(
  error: ApiError,
  alwaysOn: Readonly<ResponseHeaders>,
): RefusalResponse {
  const body = JSON.stringify(error.toJSON());
  const headers: ResponseHeaders = { ...alwaysOn };
  for (const [name, value] of Object.entries(error.headers ?? {})) headers[name] = value;
  headers['content-type'] = 'application/json';
  headers['content-length'] = String(utf8Length(body));
  headers.connection = 'close';
  let raw = `HTTP/1.1 ${error.status} ${statusText[error.status] ?? 'Error'}\r\n`;
  for (const [name, value] of Object.entries(headers)) {
    for (const line of typeof value === 'string' ? [value] : value) raw += `${name}: ${line}\r\n`;
  }
  raw += `\r\n${body}`;
  return { status: error.status, headers, body, raw };
}

/**
 * A refusal response's HTTP/1.1 text with the `Date` header an origin server sends on every response
 * (RFC 9110 §6.6.1), for the moment it is written; the date is formatted at most once a second.
 *
 * @category Limits
 */
export function stampDate(answer: RefusalResponse, now: number = Date.now()): string {
  const line = answer.raw.indexOf('\r\n') + 2;
  return `${answer.raw.slice(0, line)}date: ${currentDate(now)}\r\n${answer.raw.slice(line)}`;
}
