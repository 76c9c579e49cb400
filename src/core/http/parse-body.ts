/** Turns the raw bytes of a request body into a value, by its Content-Type (spec 4.6). */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import { malformedJson, unsupportedMediaType } from '../errors/helpers.ts';
import { defaultBodyStructure, type StructureLimits } from './body-structure.ts';
import { parseForm } from './parse-form.ts';
import { checkJsonStructure } from './structure-scan.ts';

/**
 * The body media types a route can read. `json` also covers `+json` vendor types (spec 4.6).
 *
 * @category Replies and HTTP
 */
export type BodyFormat = 'json' | 'form';

const mediaTypes: Record<BodyFormat, string> = {
  json: 'application/json',
  form: 'application/x-www-form-urlencoded',
};

/**
 * The media type names of the given formats, for the 415 message.
 *
 * @category Replies and HTTP
 */
export function mediaTypesOf(formats: readonly BodyFormat[]): string[] {
  return formats.map((f) => mediaTypes[f]);
}

const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

// RFC 9110 §5.6.2 token, §5.6.4 quoted-string (qdtext and quoted-pair), §5.6.3 OWS.
const token = "[!#$%&'*+.^_`|~0-9A-Za-z-]+";
const quoted =
  '"(?:[\\t \\x21\\x23-\\x5b\\x5d-\\x7e\\x80-\\xff]|\\\\[\\t \\x21-\\x7e\\x80-\\xff])*"';
const mediaTypePattern = new RegExp(`^[ \\t]*(${token}/${token})`, 'y');
// RFC 9110 §5.6.6: parameters = *( OWS ";" OWS [ parameter ] ), so `type/sub;` and `;;` are
// well-formed. OWS around "=" is not in the grammar; it is tolerated, as the parser used before.
const parameterPattern = new RegExp(
  `[ \\t]*;[ \\t]*(?:(${token})[ \\t]*=[ \\t]*(${token}|${quoted}))?`,
  'y',
);
const trailingSpace = /[ \t]*$/y;

/** The one 400 for a Content-Type that does not parse, including two joined by a comma. */
function malformedContentType(): ApiError {
  // A repeated header reaches fetch hosts joined by ", " (RFC 9110 §5.3), which no media type
  // grammar allows; the message names both causes and never repeats the client's value.
  return new ApiError(
    400,
    ErrorCode.MalformedHeader,
    'The Content-Type header is malformed or was sent more than once; send one media type, such as application/json.',
  );
}

/** RFC 9110 §8.3.1: the lower-case `type/subtype` and the `charset` parameter of a header. */
// Cost: linear in the value (sticky patterns that never rescan; one set look-up per parameter).
function parseMediaType(header: string): { type: string; charset: string | undefined } {
  mediaTypePattern.lastIndex = 0;
  const head = mediaTypePattern.exec(header);
  if (!head) throw malformedContentType();
  let at = mediaTypePattern.lastIndex;
  const seen = new Set<string>();
  let charset: string | undefined;
  for (;;) {
    parameterPattern.lastIndex = at;
    const m = parameterPattern.exec(header);
    if (!m) break;
    at = parameterPattern.lastIndex;
    if (m[1] === undefined) continue;
    const name = m[1].toLowerCase();
    // A parameter given twice has no one meaning (`charset=utf-8; charset=latin1`).
    if (seen.has(name)) throw malformedContentType();
    seen.add(name);
    if (name === 'charset') {
      const raw = m[2]!;
      charset = raw.startsWith('"') ? raw.slice(1, -1).replace(/\\(.)/g, '$1') : raw;
    }
  }
  trailingSpace.lastIndex = at;
  trailingSpace.exec(header);
  if (trailingSpace.lastIndex !== header.length) throw malformedContentType();
  return { type: head[1]!.toLowerCase(), charset };
}

// RFC 8259 §8.1: JSON is UTF-8. `utf8` is the WHATWG Encoding label clients also send.
const utf8Labels = new Set(['utf-8', 'utf8']);

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
  if (charset !== undefined && !utf8Labels.has(charset.toLowerCase())) {
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

/**
 * What {@link bodyFormat} read from a Content-Type header.
 *
 * @category Replies and HTTP
 */
export interface BodyType {
  /** The body format the media type stands for. */
  format: BodyFormat;
  /** The `charset` parameter, when given. */
  charset: string | undefined;
}

/**
 * The format of a request body from its `Content-Type`: a media type not in `accepts` is 415, a
 * malformed header, or one sent twice, is 400 (`ErrorCode.MalformedHeader`). Also used when the
 * host framework has already parsed the body.
 *
 * @category Replies and HTTP
 */
export function bodyFormat(
  contentTypeHeader: string | null | undefined,
  accepts: readonly BodyFormat[],
): BodyType {
  if (!contentTypeHeader) throw unsupportedMediaType(undefined, mediaTypesOf(accepts));
  const { type, charset } = parseMediaType(contentTypeHeader);
  const format = formatOf(type, accepts);
  if (format === undefined) throw unsupportedMediaType(type, mediaTypesOf(accepts));
  return { format, charset };
}

/**
 * Parses a request body. An empty body gives `undefined`; a media type not in `accepts` gives
 * 415; a body that does not parse gives 400 with a message that says where it broke; a body
 * whose structure goes past `limits` gives 413 naming the bound, before it is parsed.
 *
 * @param bytes - the raw body, already limited in size by the adapter
 * @param contentTypeHeader - the request's `Content-Type` header, if any
 * @param accepts - the formats the route reads
 * @param limits - the bounds on the body's structure ([Request limits](../../../docs/limits.md))
 *
 * @category Replies and HTTP
 */
export function parseBody(
  bytes: Uint8Array,
  contentTypeHeader: string | null | undefined,
  accepts: readonly BodyFormat[],
  limits: StructureLimits = defaultBodyStructure,
): unknown {
  if (bytes.byteLength === 0) return undefined;
  return parseBodyAs(bytes, bodyFormat(contentTypeHeader, accepts), limits);
}

/**
 * Parses a request body whose format {@link bodyFormat} has already read from its Content-Type:
 * an empty body gives `undefined`, one that does not parse 400, one whose structure goes past
 * `limits` 413.
 *
 * @category Replies and HTTP
 */
export function parseBodyAs(
  bytes: Uint8Array,
  { format, charset }: BodyType,
  limits: StructureLimits = defaultBodyStructure,
): unknown {
  if (bytes.byteLength === 0) return undefined;
  const text = decodeText(bytes, charset);
  if (format === 'form') return parseForm(text, limits);
  // JSON.parse has no hook for depth or size: the text is scanned first, in linear time, so no
  // schema, field rule or handler ever sees a structure past the bounds.
  checkJsonStructure(text, limits);
  try {
    return JSON.parse(text);
  } catch (error) {
    throw malformedJson(error instanceof SyntaxError ? error.message : undefined);
  }
}
