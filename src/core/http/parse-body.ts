/** Turns the raw bytes of a request body into a value, by its Content-Type (spec 4.6). */
import contentType from 'content-type';
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { badRequest, malformedJson, unsupportedMediaType } from '../errors/helpers.ts';

/** The body media types a route can read. `json` also covers `+json` vendor types (spec 4.6). */
export type BodyFormat = 'json' | 'form';

const mediaTypes: Record<BodyFormat, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
};

/** The media type names of the given formats, for the 415 message. */
export function mediaTypesOf(formats: readonly BodyFormat[]): string[] {
  return formats.map((f) => mediaTypes[f]);
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

function formatOf(type: string, accepts: readonly BodyFormat[]): BodyFormat | undefined {
  for (const format of accepts) {
    if (type === mediaTypes[format]) return format;
    // RFC 6839 §3.1: a +json suffix means the body is JSON, e.g. application/vnd.acme.book+json.
    if (format === 'json' && type.endsWith('+json')) return format;
  }
  return undefined;
}

function decodeText(bytes: Uint8Array, charset: string | undefined): string {
  // RFC 8259 §8.1: JSON is UTF-8; form bodies are read as UTF-8 as well (WHATWG URL §5.1).
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
    throw new ApiError(
      415,
      ErrorCode.UnsupportedMediaType,
      `Charset "${charset}" is not supported; send the body as UTF-8.`,
    );
  }
  try {
    return decoder.decode(bytes);
  } catch {
    throw new ApiError(400, ErrorCode.MalformedBody, 'The request body is not valid UTF-8.');
  }
}

/** What {@link bodyFormat} read from a Content-Type header. */
export interface BodyType {
  /** The body format the media type stands for. */
  format: BodyFormat;
  /** The `charset` parameter, when given. */
  charset: string | undefined;
}

/**
 * The format of a request body from its `Content-Type`: a media type not in `accepts` is 415, a
 * malformed header is 400. Also used when the host framework has already parsed the body.
 */
export function bodyFormat(
  contentTypeHeader: string | null | undefined,
  accepts: readonly BodyFormat[],
): BodyType {
  if (!contentTypeHeader) throw unsupportedMediaType(undefined, mediaTypesOf(accepts));
  let parsed: contentType.ParsedMediaType;
  try {
    parsed = contentType.parse(contentTypeHeader);
  } catch {
    throw badRequest(`The Content-Type header "${contentTypeHeader}" is malformed.`);
  }
  const format = formatOf(parsed.type, accepts);
  if (format === undefined) throw unsupportedMediaType(parsed.type, mediaTypesOf(accepts));
  return { format, charset: parsed.parameters['charset'] };
}

/**
 * Parses a request body. An empty body gives `undefined`; a media type not in `accepts` gives
 * 415; a body that does not parse gives 400 with a message that says where it broke.
 *
 * @param bytes - the raw body, already limited in size by the adapter
 * @param contentTypeHeader - the request's `Content-Type` header, if any
 * @param accepts - the formats the route reads
 */
export function parseBody(
  bytes: Uint8Array,
  contentTypeHeader: string | null | undefined,
  accepts: readonly BodyFormat[],
): unknown {
  if (bytes.byteLength === 0) return undefined;
  const { format, charset } = bodyFormat(contentTypeHeader, accepts);
  const text = decodeText(bytes, charset);
  if (format === 'form') return Object.fromEntries(new URLSearchParams(text));
  try {
    return JSON.parse(text);
  } catch (error) {
    throw malformedJson(error instanceof SyntaxError ? error.message : undefined);
  }
}
