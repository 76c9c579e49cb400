/** HTTP building blocks: replies, headers, body parsing, dates, codings and the response shapes. */
export {
  type BodyStructure,
  defaultBodyStructure,
  type StructureLimits,
} from './body-structure.ts';
export { type BodyDecoder, type ContentCoding, contentCodings } from './content-coding.ts';
export { errorToOutgoing, errorToResponse, type FailurePlace } from './error-response.ts';
export {
  HeaderBag,
  type HeaderInit,
  type HeaderValue,
  type ResponseHeaders,
} from './headers.ts';
export { currentDate, httpDate, parseHttpDate } from './http-date.ts';
export { stringifyJson } from './json.ts';
export {
  type BodyFormat,
  type BodyType,
  bodyFormat,
  mediaTypesOf,
  parseBody,
  parseBodyAs,
} from './parse-body.ts';
export { accepted, created, isReply, noContent, ok, type Reply } from './reply.ts';
export {
  type ApiResponse,
  type HeaderReader,
  type OutgoingResponse,
  type SentResponse,
  utf8Length,
} from './response.ts';
