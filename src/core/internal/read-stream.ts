/** Reading a Web stream whole, up to a bound on its bytes. */

/** What is read of a stream: its chunks, and how to stop it. */
export interface ChunkReader {
  /** The next chunk, or the end. */
  read(): Promise<ReadableStreamReadResult<Uint8Array>>;
  /** Stops the stream: the rest is never pulled. */
  cancel(): Promise<void>;
}

/**
 * The bytes `reader` yields, chunk by chunk, in time and memory linear in what it yields. At the
 * first chunk that passes `maxBytes` the stream is cancelled and `over` is true; `bytes` then
 * holds what was read, that chunk included.
 */
export async function readAtMost(
  reader: ChunkReader,
  maxBytes: number,
): Promise<{ bytes: Uint8Array; over: boolean }> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let over = false;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    size += value.byteLength;
    if (size > maxBytes) {
      over = true;
      reader.cancel().catch(() => {});
      break;
    }
  }
  if (chunks.length === 1) return { bytes: chunks[0]!, over };
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.byteLength;
  }
  return { bytes, over };
}
