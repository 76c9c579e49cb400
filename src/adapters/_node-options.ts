/** The node:http server settings the bookshelf uses and docs/limits.md explains. */

/**
 * Server options for `http.createServer` that suit an API: a header section up to 64 KiB, so that
 * a URI over the core's `uriLimit` (8 KiB) reaches the library and gets 414 rather than Node's
 * 431; headers within 20 s and a whole request within 60 s (else 408, checked every second);
 * idle keep-alive connections closed after 5 s; and `Host` checked by the core, which answers
 * its absence with the error body.
 */
export const serverOptions: {
  /** The largest header section read, request line included, in bytes. */
  readonly maxHeaderSize: 65536;
  /** Milliseconds the header section may take to arrive. */
  readonly headersTimeout: 20000;
  /** Milliseconds the whole request, body included, may take to arrive. */
  readonly requestTimeout: 60000;
  /** Milliseconds an idle keep-alive connection is kept open. */
  readonly keepAliveTimeout: 5000;
  /** How often, in milliseconds, Node checks the two timeouts above. */
  readonly connectionsCheckingInterval: 1000;
  /** Left to the core, which answers a missing `Host` with the error body. */
  readonly requireHostHeader: false;
} = {
  maxHeaderSize: 65536,
  headersTimeout: 20000,
  requestTimeout: 60000,
  keepAliveTimeout: 5000,
  connectionsCheckingInterval: 1000,
  requireHostHeader: false,
};
