/** Checks of a request's head that hold before routing: URI length, `Expect`, `Host` (spec 7.2). */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { uriTooLong } from '../errors/helpers.ts';
import type { HeaderReader } from '../http/response.ts';

/**
 * The parts of a request its head checks read.
 *
 * @category Limits
 */
export interface RequestHead {
  /** The request target as received. */
  url: string;
  /** The request headers. */
  headers: HeaderReader;
  /** The HTTP version (`1.1`, `1.0`, `2.0`) when the host knows it. */
  httpVersion?: string | undefined;
}

/** 417: RFC 9110 §10.1.1 lets a server refuse an expectation it does not know. */
function expectationFailed(): ApiError {
  return new ApiError(
    417,
    ErrorCode.ExpectationFailed,
    'The Expect header can only ask for 100-continue.',
  );
}

/**
 * 400 for an HTTP/1.1 request without a `Host` header, which RFC 9112 §3.2 requires.
 *
 * @category Limits
 */
export function missingHost(): ApiError {
  return new ApiError(
    400,
    ErrorCode.InvalidHost,
    'An HTTP/1.1 request needs one Host header naming the server (RFC 9112 §3.2).',
    { headers: { connection: 'close' } },
  );
}

/**
 * Why a request must be refused from its head alone, before routing, or `undefined`: a target
 * longer than `uriLimit` characters is 414, an `Expect` other than `100-continue` 417
 * (RFC 9110 §10.1.1), an HTTP/1.1 request without `Host` 400 (RFC 9112 §3.2).
 *
 * @category Limits
 */
export function checkRequestHead(head: RequestHead, uriLimit: number): ApiError | undefined {
  if (head.url.length > uriLimit) return uriTooLong(uriLimit);
  const expect = head.headers.get('expect');
  if (expect != null && expect.trim().toLowerCase() !== '100-continue') return expectationFailed();
  if (head.httpVersion === '1.1' && !head.headers.get('host')) return missingHost();
  return undefined;
}
