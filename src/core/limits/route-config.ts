/** The content codings a route decodes, added to `RouteConfig` (read by the pipeline's body step). */
import type { ContentCoding } from '../http/content-coding.ts';

declare module '../kernel/route-types.ts' {
  interface RouteConfig {
    /**
     * The content codings this route decodes (`gzip`, `br`, `deflate`), with `bodyLimit` applied to
     * the decoded size; a body in any other `Content-Encoding` is 415 with `Accept-Encoding`.
     * Decoding is the host's (`RequestInput.decodeBody`): the Node adapters use node:zlib, the
     * fetch adapter `DecompressionStream` or its `decodeBody` option. @default [] (none)
     */
    encodings?: readonly ContentCoding[];
  }
}
