/** Errors: the {@link ApiError} type, its code catalogue and constructors (spec 7). */
export {
  ApiError,
  type ApiErrorOptions,
  type ErrorBody,
  type ErrorEntry,
  isApiError,
  maxErrorEntries,
} from './api-error.ts';
export { ErrorCode, type ErrorCodeValue, statusText } from './catalogue.ts';
export { fromHttpError, type HttpErrorLike } from './from-http-error.ts';
export * from './helpers.ts';
export {
  consoleLogger,
  errorToOutgoing,
  errorToResponse,
  type FailurePlace,
  type FaultRecord,
  type Logger,
  resolveLogger,
  toApiError,
} from './to-response.ts';
