/** A Web-standard request as the core's input, read through the host's options. */
import { type BodyDecoder, payloadTooLarge } from 'api-conventions';
import { decodeWebBody, type RequestInput, readWebBody } from 'api-conventions/host';

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

/** The core's input for a Web-standard request. */
export function inputOf<Context>(
  request: Request,
  context: Context,
  options: FetchHostOptions<Context>,
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
            if (Number(request.headers.get('content-length')) > limit) {
              return Promise.reject(payloadTooLarge(limit));
            }
            readingBody?.(request, context);
            return readWebBody(request, limit, options);
          },
    decodeBody: options.decodeBody ?? decodeWebBody,
    remoteAddress: remoteAddress?.(request, context),
    native: request,
  };
}
