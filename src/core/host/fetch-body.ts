/**
 * A Web-standard request body under the core's limits, the same on every host that serves with
 * the Fetch API (Hono, Bun, Deno, workers): its size (413), its time to arrive (408), a body that
 * stops short (400), and its content codings undone with the Web `DecompressionStream`.
 */
import { badRequest, payloadTooLarge, requestTimeout } from '../errors/helpers.ts';
import { readAtMost } from '../internal/read-stream.ts';
import type { BodyDecoder } from '../limits/body-coding.ts';
import type { ReadBodyOptions } from '../pipeline/input.ts';

/**
 * Reads the whole body of `request`, rejecting with 413 as soon as it is known to pass `limit`
 * bytes: at once from `Content-Length`, or at the chunk that passes it (the rest is never
 * pulled); with 408 when it takes longer than `options.timeoutMs` to arrive.
 *
 * @category Host binding
 */
export async function readWebBody(
  request: Request,
  limit: number,
  options: ReadBodyOptions,
): Promise<Uint8Array> {
  if (Number(request.headers.get('content-length')) > limit) throw payloadTooLarge(limit);
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    reader.cancel().catch(() => {});
  }, options.timeoutMs);
  const chunks = {
    read: () =>
      reader.read().then(
        (chunk) => {
          if (timedOut) throw requestTimeout();
          return chunk;
        },
        () => {
          throw badRequest('The request body was not received completely.');
        },
      ),
    cancel: () => reader.cancel(),
  };
  try {
    const { bytes, over } = await readAtMost(chunks, limit);
    if (over) throw payloadTooLarge(limit);
    return bytes;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Decodes gzip and deflate bodies with the Web `DecompressionStream`, stopping once more than
 * `maxLength` bytes came out (the core then answers 413); br and runtimes without the stream
 * give `undefined` (the core answers 415).
 *
 * @category Host binding
 */
export const decodeWebBody: BodyDecoder = (coding, bytes, maxLength) => {
  if (coding === 'br' || typeof DecompressionStream === 'undefined') return undefined;
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream(coding));
  return readAtMost(stream.getReader(), maxLength).then(({ bytes }) => bytes);
};
