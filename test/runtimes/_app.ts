/**
 * The service each runtime serves: the bookshelf, built at module scope as docs/adapters.md
 * shows for workers (rate limiter, OAuth server and bearer check included), behind the fetch
 * adapter. Bundled by esbuild for Bun, Deno and workerd; it reads no environment.
 */
import { toFetchHandler } from 'api-conventions/fetch';
import { createBookshelf } from '../../examples/bookshelf/app.ts';

// Secrets come from configuration on a Worker (no random values in its global scope); this one
// is a test's.
const csrfSecret = 'a test secret, not random, 32 bytes or more';
const api = createBookshelf({ logger: { error() {}, warn() {} }, security: { csrfSecret } });

/** The bookshelf as a fetch handler. */
export const handle = toFetchHandler(api);
