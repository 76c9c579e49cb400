/** Turns anything thrown during a request into the status, headers and body the client gets. */
import type { ApiResponse, OutgoingResponse } from '../http/response.ts';
import { ApiError, isApiError } from './api-error.ts';
import { ErrorCode } from './catalogue.ts';

/** Where the library reports faults that become a 5xx; the default writes to `console.error`. */
export interface Logger {
  /** Called with a one-line summary and the thrown value for every 5xx the library produces. */
  error(message: string, details: { error: unknown; method?: string; path?: string }): void;
  /** Called with warnings found at start-up, such as route-lint findings. @default console.warn */
  warn?(message: string): void;
}

/** The default {@link Logger}: one `console.error` line per fault. */
export const consoleLogger: Required<Logger> = {
  error(message, details) {
    console.error(`[api-conventions] ${message}`, details.error);
  },
  warn(message) {
    console.warn(`[api-conventions] ${message}`);
  },
};

/** Where a failure happened, for the log line. */
export interface FailurePlace {
  /** The request method. */
  method?: string;
  /** The request path. */
  path?: string;
}

/** Converts a thrown value to an {@link ApiError}; anything else becomes a generic 500. */
export function toApiError(error: unknown): ApiError {
  if (isApiError(error)) return error;
  return new ApiError(
    500,
    ErrorCode.Internal,
    'Something went wrong on our side; it has been logged.',
    {
      cause: error,
    },
  );
}

/**
 * The error response for a thrown value, before serialization. An {@link ApiError} keeps its
 * status, headers and entries; anything else becomes a 500 with a generic message. Every 5xx is
 * reported to `logger`, and no stack trace or internal message reaches the body (STYLE.md rule 7).
 */
export function errorToOutgoing(
  error: unknown,
  logger: Logger,
  where: FailurePlace = {},
): OutgoingResponse {
  const apiError = toApiError(error);
  if (apiError.status >= 500) {
    const summary = where.method ? `${where.method} ${where.path ?? ''} failed` : 'request failed';
    logger.error(summary, { error, ...where });
  }
  return {
    status: apiError.status,
    headers: apiError.headers ? { ...apiError.headers } : {},
    body: apiError.toJSON(),
  };
}

/**
 * The serialized error response for a thrown value, for hosts that answer errors themselves:
 * JSON body, `Content-Type: application/json` and `nosniff` (spec 4.8).
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
      ...out.headers,
      'content-type': 'application/json',
      'x-content-type-options': 'nosniff',
    },
    body: JSON.stringify(out.body),
  };
}
