/** Content codings (RFC 9110 §8.4): the ones a route can read, and the decoder a host provides. */

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
