/** Fastify's own errors (body parsing, schema validation, bad URLs) as the core's errors. */

import {
  ApiError,
  ErrorCode,
  type FieldProblem,
  invalidRequest,
  isApiError,
  malformedJson,
  payloadTooLarge,
} from 'api-conventions';
import { fromHttpError } from 'api-conventions/host';
import type { FastifyError, FastifyRequest, FastifySchemaValidationError } from 'fastify';

const where = {
  body: 'field',
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
};

/** One entry per schema problem (Ajv's shape), each naming its field (spec 2.11). */
function describe(
  problem: FastifySchemaValidationError,
  context: keyof typeof where,
): FieldProblem {
  const inBody = context === 'body';
  const { missingProperty, additionalProperty } = problem.params;
  const path = problem.instancePath.slice(1).replaceAll('/', '.');
  const name = (missing: unknown) =>
    `The ${where[context]} "${[path, missing].filter(Boolean).join('.')}"`;
  if (problem.keyword === 'required') {
    return {
      message: `${name(missingProperty)} is required.`,
      code: inBody ? ErrorCode.MissingField : ErrorCode.InvalidParameter,
    };
  }
  if (problem.keyword === 'additionalProperties') {
    return {
      message: `${name(additionalProperty)} is not known.`,
      code: inBody ? ErrorCode.UnknownField : ErrorCode.InvalidParameter,
    };
  }
  const subject = path ? name('') : inBody ? 'The request body' : `The ${context}`;
  return {
    message: `${subject} ${problem.message ?? 'is not valid'}.`,
    code: inBody ? ErrorCode.InvalidField : ErrorCode.InvalidParameter,
  };
}

/**
 * Fastify's own 4xx errors as the core's errors; anything else goes to the core's one rule for
 * errors that carry a status ({@link fromHttpError}). `replyStatus` is `reply.statusCode` when
 * the error handler runs: Fastify keeps a status set with `reply.code(404).send(error)` over the
 * error's own, and so does this.
 */
export function fromFastify(
  thrown: unknown,
  request: FastifyRequest,
  replyStatus?: number,
): unknown {
  const error = thrown as Partial<FastifyError>;
  const status = error?.statusCode;
  if (isApiError(thrown)) return thrown;
  if (typeof status !== 'number' || status < 400 || status > 499) {
    return fromHttpError(thrown, replyStatus);
  }
  if (error.validation?.length) {
    return invalidRequest(
      error.validation.map((p) => describe(p, error.validationContext ?? 'body')),
    );
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return payloadTooLarge(request.routeOptions.bodyLimit);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE': {
      const type = request.headers['content-type'];
      const got = type
        ? `Content-Type "${type}" is not supported here`
        : 'A body needs a Content-Type';
      return new ApiError(415, ErrorCode.UnsupportedMediaType, `${got}.`);
    }
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError(
        400,
        ErrorCode.MissingBody,
        'The request body is empty but announced as JSON.',
      );
    case 'FST_ERR_BAD_URL':
      return new ApiError(400, ErrorCode.MalformedPath, 'The path has malformed percent-encoding.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return malformedJson();
  }
  return fromHttpError(thrown, replyStatus);
}
