/** HTTP building blocks: replies by method, body parsing and the plain response shape. */
export {
  type BodyFormat,
  type BodyType,
  bodyFormat,
  mediaTypesOf,
  parseBody,
} from './parse-body.ts';
export { accepted, created, isReply, noContent, ok, type Reply } from './reply.ts';
export {
  type ApiResponse,
  type HeaderReader,
  type OutgoingResponse,
  type ResponseHeaders,
  utf8Length,
} from './response.ts';
