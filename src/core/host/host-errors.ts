/**
 * The errors host frameworks raise on their own (a body parser's, a router's, a schema
 * validator's), as the catalogue's errors: one wording per error, the same on every host. Read
 * from their plain fields (`type`, `code`, `statusCode`, `validation`), so no framework is
 * imported.
 */
import { ApiError, isApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { fromHttpError, type HttpErrorLike } from '../errors/from-http-error.ts';
import {
  type FieldProblem,
  invalidRequest,
  malformedJson,
  payloadTooLarge,
} from '../errors/helpers.ts';
import type { Refusal } from '../limits/refusals.ts';
import { type ChallengedError, withChallenge } from './host-challenge.ts';

/** What a host knows of the request an error belongs to, for the error's sentence. */
export interface HostErrorFacts {
  /** The status the host already gave the response (Fastify's `reply.code(404).send(error)`). */
  readonly status?: number | undefined;
  /** The route's body limit in bytes, for a body-too-large error that does not carry it. */
  readonly bodyLimit?: number | undefined;
  /** The request's `Content-Type`, for an unsupported-media-type error. */
  readonly contentType?: string | undefined;
  /**
   * The `WWW-Authenticate` challenge the host's response already carries (passport sets it before
   * it hands on its 401), kept on the 401 the error becomes; a list of them (as Node's
   * `getHeader` gives one set twice) is joined.
   */
  readonly challenge?: string | readonly string[] | number | undefined;
  /**
   * Whether the app read the request body through the host's own reader (Hono's `c.req.json()`):
   * a `SyntaxError` that escapes the handler is then the body's, a 400.
   */
  readonly bodyRead?: boolean | undefined;
  /**
   * Whether the host's router found no route for the request (Fastify's `request.is404`): a
   * router's error about it is then the route view's 404 or 405.
   */
  readonly unmatched?: boolean | undefined;
}

/** One problem of a JSON Schema validator (Ajv's shape, which Fastify reports). */
interface SchemaProblem {
  readonly keyword: string;
  readonly instancePath: string;
  readonly message?: string | undefined;
  readonly params: { readonly missingProperty?: unknown; readonly additionalProperty?: unknown };
}

/** The fields of a host's error read here, beside those of an `http-errors` error. */
interface HostError extends HttpErrorLike, ChallengedError {
  /** body-parser's (and raw-body's) kind of error. */
  readonly type?: string;
  /** Fastify's (and Node's) error code. */
  readonly code?: string;
  readonly limit?: number;
  readonly charset?: string;
  readonly encoding?: string;
  readonly validation?: readonly SchemaProblem[];
  readonly validationContext?: keyof typeof where;
  /** multer's name for its errors, which carry no status. */
  readonly name?: string;
  /** multer's field of the upload the error is about. */
  readonly field?: string;
  /** NestJS's `HttpException`: its status, and the body it was made with. */
  readonly getStatus?: () => unknown;
  readonly getResponse?: () => unknown;
}

const where = {
  body: 'field',
  querystring: 'query parameter',
  params: 'path parameter',
  headers: 'header',
};

/** One entry per schema problem, each naming its field (spec 2.11). */
function describe(problem: SchemaProblem, context: keyof typeof where): FieldProblem {
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

const inField = (e: HostError) =>
  typeof e.field === 'string' ? ` in the field ${JSON.stringify(e.field)}` : '';

/** 413 for a multipart upload past one of its limits (RFC 9110 §15.5.14); the rest is unread. */
const uploadTooLarge = (message: string) =>
  new ApiError(413, ErrorCode.PayloadTooLarge, message, { headers: { connection: 'close' } });

const malformedPath = () =>
  new ApiError(400, ErrorCode.MalformedPath, 'The request path has malformed percent-encoding.');

const unsupportedType = (type: string | undefined) =>
  new ApiError(
    415,
    ErrorCode.UnsupportedMediaType,
    type ? `Content-Type "${type}" is not supported here.` : 'A body needs a Content-Type.',
  );

// By body-parser's `type` and Fastify's `code`: the same error has one answer on every host.
const known: Record<string, (e: HostError, facts: HostErrorFacts) => ApiError> = {
  'entity.parse.failed': (e) => malformedJson(e.message),
  FST_ERR_CTP_INVALID_JSON_BODY: () => malformedJson(),
  'entity.too.large': (e, facts) => payloadTooLarge(e.limit ?? facts.bodyLimit ?? 0),
  FST_ERR_CTP_BODY_TOO_LARGE: (e, facts) => payloadTooLarge(facts.bodyLimit ?? e.limit ?? 0),
  'charset.unsupported': (e) =>
    new ApiError(
      415,
      ErrorCode.UnsupportedMediaType,
      `Charset "${e.charset}" is not supported; send the body as UTF-8.`,
    ),
  'encoding.unsupported': (e) =>
    new ApiError(
      415,
      ErrorCode.UnsupportedMediaType,
      `Content-Encoding "${e.encoding}" is not supported.`,
    ),
  FST_ERR_CTP_INVALID_MEDIA_TYPE: (_, facts) => unsupportedType(facts.contentType),
  FST_ERR_CTP_EMPTY_JSON_BODY: () =>
    new ApiError(400, ErrorCode.MissingBody, 'The request body is empty but announced as JSON.'),
  FST_ERR_BAD_URL: malformedPath,
  // @fastify/multipart's limits (its own status for each is 413) and its media type check (406).
  FST_REQ_FILE_TOO_LARGE: () => uploadTooLarge('A file of the upload is larger than the limit.'),
  FST_FILES_LIMIT: () => uploadTooLarge('The upload has more files than the limit allows.'),
  FST_FIELDS_LIMIT: () => uploadTooLarge('The upload has more fields than the limit allows.'),
  FST_PARTS_LIMIT: () => uploadTooLarge('The upload has more parts than the limit allows.'),
  FST_INVALID_MULTIPART_CONTENT_TYPE: (_, facts) => unsupportedType(facts.contentType),
};

// multer's errors carry no status, only a `code`: each limit of an upload is 413.
const multerErrors: Record<string, (e: HostError) => ApiError> = {
  LIMIT_FILE_SIZE: (e) => uploadTooLarge(`The file${inField(e)} is larger than the limit.`),
  LIMIT_FILE_COUNT: () => uploadTooLarge('The upload has more files than the limit allows.'),
  LIMIT_FIELD_COUNT: () => uploadTooLarge('The upload has more fields than the limit allows.'),
  LIMIT_PART_COUNT: () => uploadTooLarge('The upload has more parts than the limit allows.'),
  LIMIT_FIELD_KEY: () => uploadTooLarge('A field name of the upload is longer than the limit.'),
  LIMIT_FIELD_VALUE: (e) => uploadTooLarge(`The value${inField(e)} is longer than the limit.`),
  LIMIT_UNEXPECTED_FILE: (e) =>
    new ApiError(
      400,
      ErrorCode.UnknownField,
      `The upload has a file${inField(e)} not expected here.`,
    ),
  MISSING_FIELD_NAME: () =>
    new ApiError(400, ErrorCode.MalformedBody, 'A part of the upload has no field name.'),
};

// The HTTP parser's error codes (llhttp's, as Node reports them), by what the request got wrong.
const parserFailures: Record<string, Refusal> = {
  HPE_HEADER_OVERFLOW: 'headersTooLarge',
  ERR_HTTP_REQUEST_TIMEOUT: 'timeout',
  HPE_INVALID_METHOD: 'requestLine',
  HPE_INVALID_URL: 'requestLine',
  HPE_INVALID_VERSION: 'requestLine',
  HPE_INVALID_CONSTANT: 'requestLine',
  HPE_INVALID_HEADER_TOKEN: 'headerLine',
  HPE_CR_EXPECTED: 'headerLine',
  HPE_LF_EXPECTED: 'headerLine',
  HPE_UNEXPECTED_SPACE: 'headerLine',
  HPE_INVALID_CONTENT_LENGTH: 'framing',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'framing',
  HPE_INVALID_TRANSFER_ENCODING: 'framing',
  HPE_INVALID_CHUNK_SIZE: 'framing',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: 'framing',
  HPE_INVALID_EOF_STATE: 'framing',
};

/**
 * The refusal an HTTP parser's error stands for, by its code (llhttp's `HPE_*`, as Node
 * reports them, and Node's request timeout); any other is a plain bad request.
 *
 * @category Host binding
 */
export function refusalOf(code: string | undefined): Refusal {
  return (code !== undefined && parserFailures[code]) || 'badRequest';
}

/**
 * An error a host framework raised, as the core's error: body parsers' (body-parser's `type`),
 * Fastify's own (`code`, and its schema validation's `validation`, one entry per problem), a
 * router's malformed percent-encoding, the upload limits of multer and @fastify/multipart (413),
 * a `SyntaxError` from a body the app read itself (`facts.bodyRead`: 400); anything else goes to
 * the one rule for errors that carry a status ({@link fromHttpError}). A 401 keeps the challenge
 * its companion gave (passport, hono/jwt), or gets the Bearer scheme's (@fastify/jwt). An
 * `ApiError` is kept as it is.
 *
 * @category Host binding
 */
export function fromHostError(error: unknown, facts: HostErrorFacts = {}): unknown {
  if (isApiError(error) || typeof error !== 'object' || error === null) return error;
  const e = error as HostError;
  // The app parsed the body itself (Hono's c.req.json()), and it was not JSON.
  if (facts.bodyRead && error instanceof SyntaxError) return malformedJson(error.message);
  if (
    e.name === 'MulterError' &&
    typeof e.code === 'string' &&
    Object.hasOwn(multerErrors, e.code)
  ) {
    return multerErrors[e.code]!(e);
  }
  return withChallenge(mapped(e, facts), e, facts);
}

function mapped(e: HostError, facts: HostErrorFacts): unknown {
  const error: unknown = e;
  if (typeof e.getStatus === 'function' && typeof e.getResponse === 'function') {
    return fromNestException(e, e.getStatus(), e.getResponse());
  }
  const status = e.status ?? e.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    if (e.validation?.length) {
      return invalidRequest(e.validation.map((p) => describe(p, e.validationContext ?? 'body')));
    }
    const key = typeof e.type === 'string' ? e.type : e.code;
    if (key !== undefined && Object.hasOwn(known, key)) return known[key]!(e, facts);
    // Express's router throws a URIError-based 400 for a parameter it cannot decode.
    if (error instanceof URIError && status === 400) return malformedPath();
  }
  return fromHttpError(error, facts.status);
}

/**
 * NestJS's `HttpException`: its own status and message; a `ValidationPipe`'s 400, whose body lists
 * one message per problem, as one entry each (spec 2.11). Its `response` is the body it was made
 * with, not another server's answer, so the status it carries is the one to send.
 */
function fromNestException(e: HostError, status: unknown, body: unknown): unknown {
  if (typeof status !== 'number') return e;
  const messages = (body as { message?: unknown } | null)?.message;
  if (status === 400 && Array.isArray(messages) && messages.length > 0) {
    const problems = messages.filter((m): m is string => typeof m === 'string');
    if (problems.length === messages.length) {
      return invalidRequest(problems.map((message) => ({ message: sentence(message) })));
    }
  }
  return fromHttpError(e, status);
}

/** A validator's phrase ("title should not be empty") as the sentence of an error entry. */
function sentence(text: string): string {
  const trimmed = text.trim();
  const upper = trimmed.charAt(0).toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(upper) ? upper : `${upper}.`;
}
