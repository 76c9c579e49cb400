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
export { fromHttpError, type HttpErrorLike, toApiError } from './from-http-error.ts';
export * from './helpers.ts';
export { consoleLogger, type FaultRecord, type Logger, resolveLogger } from './logger.ts';
