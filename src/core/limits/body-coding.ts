/** A body's codings, decided before a byte is read: transfer codings (501), content codings (415). */
import { ApiError } from '../errors/api-error.ts';
import { ErrorCode } from '../errors/catalogue.ts';
import type { HeaderReader } from '../http/response.ts';

/**
 * The content codings a route can read (RFC 9110 §8.4.1): gzip (`x-gzip` too), br and deflate.
 *
 * @category Limits
 */
export type ContentCoding = 'gzip' | 'br' | 'deflate';

/**
 * Every {@link ContentCoding}, for the start-up check of a route's `encodings`.
 *
 * @category Limits
 */
export const contentCodings: readonly ContentCoding[] = ['gzip', 'br', 'deflate'];

/**
 * Decodes a request body in one content coding, provided by the host (the core has no
 * decompressor of its own): resolves to the decoded bytes, stopping once more than `maxLength`
 * came out (the core then answers 413), and rejects when the bytes are not valid in that coding.
 * Returns `undefined` for a coding the host cannot decode.
 *
 * @category Limits
 */
export type BodyDecoder = (
  coding: ContentCoding,
  bytes: Uint8Array,
  maxLength: number,
) => Promise<Uint8Array> | undefined;

/**
 * The most content codings undone for one body. Each is a pass over the whole body, so without a
 * cap a body gzipped thousands of times, named in a long `Content-Encoding`, costs passes
 * quadratic in the header's length.
 */
const maxContentCodings = 3;

/** Splits a list header into lower-case members (RFC 9110 §5.6.1), empty members dropped. */
// Cost: linear in the value (one split, one trim per member).
function members(value: string): string[] {
  const out: string[] = [];
  for (const part of value.split(',')) {
    const member = part.trim().toLowerCase();
    if (member !== '') out.push(member);
  }
  return out;
}

/**
 * Refuses a body framed with a transfer coding other than chunked, whose end the core cannot
 * find: 400 when chunked is not the last coding (RFC 9112 §6.3), else 501 for the other coding
 * (RFC 9112 §6.1). Either way the connection closes.
 *
 * @category Limits
 */
export function checkTransferCoding(headers: HeaderReader): void {
  const value = headers.get('transfer-encoding');
  if (value == null) return;
  const codings = members(value);
  if (codings.at(-1) !== 'chunked') {
    throw new ApiError(
      400,
      ErrorCode.MalformedFraming,
      'Transfer-Encoding must end with chunked (RFC 9112 §6.3); send the body with Content-Length or Transfer-Encoding: chunked.',
      { headers: { connection: 'close' } },
    );
  }
  for (const coding of codings) {
    if (coding !== 'chunked') {
      throw new ApiError(
        501,
        ErrorCode.NotImplemented,
        `The transfer coding "${coding.slice(0, 40)}" is not supported; send the body with Content-Length or Transfer-Encoding: chunked alone (RFC 9112 §6.1).`,
        { headers: { connection: 'close' } },
      );
    }
  }
}

function unsupportedEncoding(
  coding: string,
  allowed: readonly ContentCoding[],
  why = `Content-Encoding "${coding.slice(0, 40)}" is not read here`,
): ApiError {
  const list = allowed.length === 0 ? 'identity' : allowed.join(', ');
  const send =
    allowed.length === 0
      ? 'send the body uncompressed'
      : `send it as one of: ${list}, or uncompressed`;
  // RFC 9110 §15.5.16: a 415 caused by a content coding names the acceptable ones in Accept-Encoding.
  return new ApiError(415, ErrorCode.UnsupportedContentEncoding, `${why}; ${send}.`, {
    headers: { 'accept-encoding': list },
  });
}

/**
 * The content codings of a request body, in the order they were applied, each one the route
 * reads (`x-gzip` read as gzip, `identity` dropped); any other is 415 with `Accept-Encoding`, and
 * so are more than three codings (each is a pass over the body).
 *
 * @category Limits
 */
export function contentCodingsOf(
  headers: HeaderReader,
  allowed: readonly ContentCoding[],
): ContentCoding[] | undefined {
  const value = headers.get('content-encoding');
  if (value == null) return undefined;
  let codings: ContentCoding[] | undefined;
  for (const member of members(value)) {
    if (member === 'identity') continue;
    const coding = (member === 'x-gzip' ? 'gzip' : member) as ContentCoding;
    if (!allowed.includes(coding)) throw unsupportedEncoding(member, allowed);
    codings ??= [];
    if (codings.length === maxContentCodings) {
      throw unsupportedEncoding(
        coding,
        allowed,
        `Content-Encoding lists more than ${maxContentCodings} codings; at most ${maxContentCodings} are undone here`,
      );
    }
    codings.push(coding);
  }
  return codings;
}

/**
 * Undoes the content codings of a body with the host's decoder, last applied first, each step
 * bounded by `limit`: past it the answer is 413 (a decompression bomb never fills memory), bytes
 * that do not decode are 400, a coding the host cannot decode is 415.
 *
 * @category Limits
 */
export async function decodeBody(
  bytes: Uint8Array,
  codings: readonly ContentCoding[],
  decoder: BodyDecoder | undefined,
  limit: number,
  allowed: readonly ContentCoding[],
): Promise<Uint8Array> {
  let body = bytes;
  for (let i = codings.length - 1; i >= 0; i--) {
    const coding = codings[i]!;
    const decoding = decoder?.(coding, body, limit);
    if (decoding === undefined)
      throw unsupportedEncoding(
        coding,
        allowed.filter((c) => c !== coding),
      );
    try {
      body = await decoding;
    } catch {
      throw new ApiError(
        400,
        ErrorCode.MalformedEncoding,
        `The request body is not valid ${coding} data.`,
      );
    }
    if (body.byteLength > limit) {
      throw new ApiError(
        413,
        ErrorCode.DecodedBodyTooLarge,
        `The request body is larger than the limit of ${limit} bytes once decoded.`,
      );
    }
  }
  return body;
}
