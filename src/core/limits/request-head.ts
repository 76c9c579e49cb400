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

// RFC 9110 §7.2 / RFC 3986 §3.2.2: uri-host [ ":" port ], the host an IP literal or a reg-name
// (unreserved, pct-encoded, sub-delims but the comma, which joins repeated lines); empty is
// allowed (RFC 9112 §3.2).
// Cost: linear in the value (anchored, no nested repetition); `Expect` is one trim and compare.
const hostPattern = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9\-._~!$&'()*+;=%]*)(?::[0-9]*)?$/;

/** 400: RFC 9112 §3.2 refuses more than one Host (hosts join repeated lines with a comma). */
function repeatedHost(): ApiError {
  return new ApiError(
    400,
    ErrorCode.InvalidHost,
    'A request carries one Host header naming the server; this one has several, or a comma in it (RFC 9112 §3.2).',
    { headers: { connection: 'close' } },
  );
}

function invalidHost(): ApiError {
  return new ApiError(
    400,
    ErrorCode.InvalidHost,
    'The Host header is not a host name or address with an optional port (RFC 9112 §3.2).',
    { headers: { connection: 'close' } },
  );
}

/**
 * Why a request must be refused from its head alone, before routing, or `undefined`: a target
 * longer than `uriLimit` characters is 414, an `Expect` other than `100-continue` 417
 * (RFC 9110 §10.1.1), a `Host` that is no host 400, and so are an HTTP/1.1 request without one
 * and a request with more than one (RFC 9112 §3.2): the host's reader joins repeated lines with
 * a comma, which no host name holds.
 *
 * @category Limits
 */
export function checkRequestHead(head: RequestHead, uriLimit: number): ApiError | undefined {
  if (head.url.length > uriLimit) return uriTooLong(uriLimit);
  const { headers } = head;
  const expect = headers.get('expect');
  if (expect != null && expect.trim().toLowerCase() !== '100-continue') return expectationFailed();
  const host = headers.get('host');
  if (host == null) return head.httpVersion === '1.1' ? missingHost() : undefined;
  if (hostPattern.test(host)) return undefined;
  return host.includes(',') ? repeatedHost() : invalidHost();
}
