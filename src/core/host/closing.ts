/** The answer to a request that arrives while its server closes, worded once for every host. */
import type { ApiError } from '../errors/api-error.ts';
import { serviceUnavailable } from '../errors/helpers.ts';

/**
 * 503 for a request that arrives while the server closes (RFC 9110 §15.6.4), on a connection
 * that then closes: the client sends it again, to a server that runs.
 */
export function shuttingDown(): ApiError {
  return serviceUnavailable('The server is shutting down; send the request again.', {
    headers: { connection: 'close' },
  });
}
