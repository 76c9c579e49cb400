/** Request bodies in gzip, br or deflate, decoded with node:zlib for the core (bounded in size). */
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { BodyDecoder } from '#core';

const decompressors = {
  gzip: createGunzip,
  br: createBrotliDecompress,
  deflate: createInflate,
};

/**
 * The node:zlib decoder of request bodies the Node adapters give the core, for routes that list
 * `encodings`; a fetch handler on Node may use it for br (`decodeBody` option). It stops as soon
 * as more than `maxLength` bytes came out, so a decompression bomb costs at most the limit in
 * memory.
 */
export const decodeNodeBody: BodyDecoder = (coding, bytes, maxLength) => {
  const make = decompressors[coding];
  if (make === undefined) return undefined;
  return new Promise((resolve, reject) => {
    const stream = make();
    const chunks: Buffer[] = [];
    let length = 0;
    stream.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length > maxLength) {
        stream.destroy();
        resolve(Buffer.concat(chunks, length));
      }
    });
    stream.on('end', () => resolve(Buffer.concat(chunks, length)));
    stream.on('error', reject);
    stream.end(bytes);
  });
};
