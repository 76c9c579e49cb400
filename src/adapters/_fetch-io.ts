/** Web-standard request in, core response out: body reading with limits, `Response` building. */
import { badRequest, type Logger } from 'api-conventions';
import {
  type ApiResponse,
  type BodyDecoder,
  errorToResponse,
  payloadTooLarge,
  type ReadBodyOptions,
  type RequestInput,
  requestTimeout,
} from 'api-conventions/host';

/** Reads the client address from the host, which a `Request` does not carry. */
export type RemoteAddress<Context> = (request: Request, context: Context) => string | undefined;

/** What the fetch adapter's handler and middleware read from the host, beside the `Request`. */
export interface FetchHostOptions<Context = unknown> {
  /**
   * Reads the client address, which a `Request` does not carry, from the host: e.g.
   * `(_, info) => info.remoteAddr.hostname` on Deno,
   * `(req, server) => server.requestIP(req)?.address` on Bun,
   * `(_, c) => getConnInfo(c).remote.address` on Hono.
   * @default undefined (no address: rate limits fall back to other identities)
   */
  remoteAddress?: RemoteAddress<Context> | undefined;
  /**
   * Called once the core decides to read a request's body, before its first byte is pulled. A
   * Node host that hands `Expect: 100-continue` requests over without answering them sends
   * `100 Continue` here (`(_, c) => sendContinue(c.env.incoming)` on Hono's node server, with
   * `sendContinue` from `api-conventions/node`), so a request that will be refused never gets it.
   * @default none
   */
  readingBody?: ((request: Request, context: Context) => void) | undefined;
  /**
   * Decodes request bodies for routes that list `encodings`. The default uses the Web
   * `DecompressionStream` (gzip and deflate); on Node, `decodeNodeBody` from
   * `api-conventions/node` adds br. @default gzip and deflate through `DecompressionStream`
   */
  decodeBody?: BodyDecoder | undefined;
}

/** The path and query of an absolute URL as serialized (case and percent-encoding kept). */
export function originForm(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  const hash = url.indexOf('#', start);
  return hash === -1 ? url.slice(start) : url.slice(start, hash);
}

/**
 * Reads the whole body, rejecting with 413 as soon as it is known to pass `limit` bytes: at once
 * from `Content-Length`, or at the chunk that passes it (the rest is never pulled).
 */
export async function readBody(
  request: Request,
  limit: number,
  options: ReadBodyOptions,
): Promise<Uint8Array> {
  if (Number(request.headers.get('content-length')) > limit) throw payloadTooLarge(limit);
  if (request.body === null) return new Uint8Array(0);
  const reader = request.body.getReader();
  const timer = setTimeout(() => {
    timedOut = true;
    reader.cancel().catch(() => {});
  }, options.timeoutMs);
  let timedOut = false;
  try {
    return await readAll(reader, limit, () => timedOut);
  } finally {
    clearTimeout(timer);
  }
}

async function readAll(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  limit: number,
  timedOut: () => boolean,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let received = 0;
  for (;;) {
    const chunk = await reader.read().catch(() => {
      throw badRequest('The request body was not received completely.');
    });
    if (timedOut()) throw requestTimeout();
    if (chunk.done) break;
    received += chunk.value.byteLength;
    if (received > limit) {
      reader.cancel().catch(() => {});
      throw payloadTooLarge(limit);
    }
    chunks.push(chunk.value);
  }
  if (chunks.length === 1) return chunks[0]!;
  const bytes = new Uint8Array(received);
  received = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, received);
    received += chunk.byteLength;
  }
  return bytes;
}

/**
 * A core response as a Fetch `Response`; an array value becomes repeated header lines. The core
 * has already refused header names and values a host cannot send; should the runtime still
 * refuse the response, that becomes a logged 500.
 */
export function toResponse({ status, headers, body }: ApiResponse, logger: Logger): Response {
  let lists = false;
  for (const name in headers) if (typeof headers[name] !== 'string') lists = true;
  let init = headers as Record<string, string> | Headers;
  if (lists) {
    init = new Headers();
    for (const [name, value] of Object.entries(headers)) {
      for (const item of typeof value === 'string' ? [value] : value) init.append(name, item);
    }
  }
  try {
    return new Response(body as BodyInit | null, { status, headers: init });
  } catch (error) {
    return failed(error, logger);
  }
}

/** The spec's 500 for a response that could not be built; the fault is logged. */
function failed(error: unknown, logger: Logger): Response {
  const { status, headers, body } = errorToResponse(error, logger);
  return new Response(body as string, { status, headers: headers as Record<string, string> });
}

/**
 * Decodes gzip and deflate bodies with the Web `DecompressionStream`, stopping once more than
 * `maxLength` bytes came out; br and runtimes without the stream are left to a `decodeBody`
 * option (`undefined`: the core answers 415).
 */
export const decodeWebBody: BodyDecoder = (coding, bytes, maxLength) => {
  if (coding === 'br' || typeof DecompressionStream === 'undefined') return undefined;
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream(coding));
  return collect(stream.getReader(), maxLength);
};

async function collect(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  maxLength: number,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    length += value.byteLength;
    if (length > maxLength) {
      reader.cancel().catch(() => {});
      break;
    }
  }
  const out = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}

/** The core's input for a Web-standard request. */
export function inputOf<Context>(
  request: Request,
  context: Context,
  remoteAddress: RemoteAddress<Context> | undefined,
  readingBody?: ((request: Request, context: Context) => void) | undefined,
  decode: BodyDecoder = decodeWebBody,
): RequestInput {
  const { method, url } = request;
  return {
    method,
    url: originForm(url),
    scheme: url.startsWith('https:') ? 'https' : 'http',
    // Read on demand: on Node, Hono builds `request.headers` from the raw headers on first use.
    headers: { get: (name) => request.headers.get(name) },
    // Fetch §5.4: GET and HEAD have no body. Not touching `body` keeps them cheap (on Node, Hono
    // builds a whole second Request the first time `body` is read).
    readBody:
      method === 'GET' || method === 'HEAD'
        ? undefined
        : (limit, options) => {
            if (Number(request.headers.get('content-length')) > limit) {
              return Promise.reject(payloadTooLarge(limit));
            }
            readingBody?.(request, context);
            return readBody(request, limit, options);
          },
    decodeBody: decode,
    remoteAddress: remoteAddress?.(request, context),
    native: request,
  };
}
