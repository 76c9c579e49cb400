/** Turns anything thrown during a request into the status, headers and body the client gets. */
import type { ApiError } from '../errors/api-error.ts';
import { originalError, toApiError } from '../errors/from-http-error.ts';
import { callLogger, consoleLogger, type FaultRecord, type Logger } from '../errors/logger.ts';
import { HeaderBag } from './headers.ts';
import type { ApiResponse, OutgoingResponse } from './response.ts';

/**
 * Where a failure happened, for the log line.
 *
 * @category Errors
 */
export interface FailurePlace {
  /** The request method. */
  method?: string;
  /** The request path. */
  path?: string;
}

/**
 * The error response for a thrown value, before serialization. An {@link ApiError} keeps its
 * status, headers and entries; another library's HTTP error keeps its status and headers;
 * anything else becomes a 500 with a generic message. Every 5xx is reported to `logger`, and no
 * stack trace or internal message reaches the body of a 5xx.
 *
 * @category Errors
 */
export function errorToOutgoing(
  error: unknown,
  logger: Logger,
  where: FailurePlace = {},
): OutgoingResponse {
  let apiError = toApiError(error);
  let fault = originalError(error);
  let headers: HeaderBag;
  try {
    headers = new HeaderBag(apiError.headers);
  } catch (refused) {
    // An ApiError built with a header that cannot be sent (a line break, say) is a fault of the
    // code that built it: a logged 500, never a response split or a crash.
    fault = refused;
    apiError = toApiError(refused);
    headers = new HeaderBag();
  }
  if (apiError.status >= 500) {
    const summary = where.method ? `${where.method} ${where.path ?? ''} failed` : 'request failed';
    const record: FaultRecord = { err: fault, ...where };
    callLogger(() => logger.error(record, summary));
  }
  return { status: apiError.status, headers, body: apiError.toJSON() };
}

/**
 * The serialized error response for a thrown value, for hosts that answer errors themselves:
 * JSON body, `Content-Type: application/json` and `nosniff` (spec 4.8).
 *
 * @category Errors
 */
export function errorToResponse(
  error: unknown,
  logger: Logger = consoleLogger,
  where: FailurePlace = {},
): ApiResponse {
  const out = errorToOutgoing(error, logger, where);
  return {
    status: out.status,
    headers: {
      ...out.headers.record,
      'content-type': 'application/json',
      'x-content-type-options': 'nosniff',
    },
    body: JSON.stringify(out.body),
  };
}
