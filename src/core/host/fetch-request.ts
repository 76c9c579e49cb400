/**
 * A Web-standard `Request` as the core's input, the same on every host that serves with the Fetch
 * API (Hono, Bun, Deno, workers): its target, headers read on demand, and its body under the
 * core's limits — its size (413), its time to arrive (408), a body that stops short (400), its
 * content codings undone with the Web `DecompressionStream`. What only the host knows (the
 * client's address, a hook before the body is read) the adapter hands over.
 */
import { badRequest, payloadTooLarge, requestTimeout } from '../errors/helpers.ts';
import type { BodyDecoder } from '../http/content-coding.ts';
import { readAtMost } from '../internal/read-stream.ts';
import type { ReadBodyOptions, RequestInput } from '../kernel/input.ts';
import type { Refusal } from '../limits/refusals.ts';
import { assertHostFunctions } from './host-options.ts';

/**
 * Reads the client address from the host, which a `Request` does not carry.
 *
 * @category Host binding
 */
export type RemoteAddress<Context> = (request: Request, context: Context) => string | undefined;

/**
 * What a fetch host reads from its host beside the `Request`: readers of what only the host
 * knows, each given the request and the host's context (what it passes second: Deno's
 * `ServeHandlerInfo`, Bun's `Server`, Hono's context).
 *
 * @category Host binding
 */
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

/**
 * Throws a `TypeError` at start-up for an option of a fetch host (`where`: the function a user
 * called) that is neither one of {@link FetchHostOptions} nor one of `more` (the adapter's own),
 * naming the closest one, or that is given and not a function.
 *
 * @category Host binding
 */
export function assertFetchHostOptions(
  where: string,
  options: object | undefined,
  more: readonly string[] = [],
): void {
  assertHostFunctions(where, options, ['remoteAddress', 'readingBody', 'decodeBody', ...more]);
}

/**
 * The core's input for a Web-standard request, read with the host's `options` and the `context`
 * it passed.
 *
 * @category Host binding
 */
export function webInput<Context>(
  request: Request,
  options: FetchHostOptions<Context> = {},
  context?: Context,
): RequestInput {
  const { method, url } = request;
  const { readingBody, remoteAddress } = options;
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
            // Refused before the host's hook runs: a request that will be refused never gets,
            // say, its `100 Continue`.
            if (Number(request.headers.get('content-length')) > limit) {
              return Promise.reject(payloadTooLarge(limit));
            }
            readingBody?.(request, context as Context);
            return readWebBody(request, limit, options);
          },
    decodeBody: options.decodeBody ?? decodeWebBody,
    remoteAddress: remoteAddress?.(request, context as Context),
    native: request,
  };
}

/** The path and query of an absolute URL as serialized (case and percent-encoding kept). */
function originForm(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2);
  if (start === -1) return '/';
  const hash = url.indexOf('#', start);
  return hash === -1 ? url.slice(start) : url.slice(start, hash);
}

/**
 * Reads the whole body of `request`, rejecting with 413 as soon as it is known to pass `limit`
 * bytes: at once from `Content-Length`, or at the chunk that passes it (the rest is never
 * pulled); with 408 when it takes longer than `options.timeoutMs` to arrive.
 */
async function readWebBody(
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
 */
const decodeWebBody: BodyDecoder = (coding, bytes, maxLength) => {
  if (coding === 'br' || typeof DecompressionStream === 'undefined') return undefined;
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new DecompressionStream(coding));
  return readAtMost(stream.getReader(), maxLength).then(({ bytes }) => bytes);
};

/**
 * The refusal a Web server's refusal of a request stands for, where it could not make a
 * `Request` of what it received (`@hono/node-server`'s `RequestError`: a missing or unreadable
 * `Host` is `host`, a target it cannot read `target`); `undefined` for any other error.
 *
 * @category Host binding
 */
export function requestFailureOf(error: unknown): Refusal | undefined {
  if (!(error instanceof Error) || error.name !== 'RequestError') return undefined;
  return /missing host/i.test(error.message) ? 'host' : 'target';
}
