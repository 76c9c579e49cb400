/**
 * bookshelf: the reference service itself (examples/bookshelf, every convention on) on the
 * node:http host (or the one `BENCH_HOST` names), started as `npm run example` starts it but with a rate limit that never
 * answers 429 in a run (the counting still happens): what a user of the bookshelf sees on
 * `GET /v1/books`. TypeScript, so the harness runs it through tsx. With `BENCH_REUSE=0` it writes
 * every page's JSON anew (`caching({ reuseText: false })`).
 */
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { loadHost } from '../../examples/bookshelf/hosts/host.ts';
import { HOST, PORT, ready } from './_server.mjs';

// `BENCH_HOST` picks the bookshelf's host (node, express, fastify, fetch); node by default.
const serve = await loadHost(process.env.BENCH_HOST ?? 'node');

const bookshelf = createBookshelf({
  logger: { error: (fields, message) => console.error(message, fields?.err ?? fields), warn() {} },
  rateLimit: { limit: 1_000_000_000, window: 3600 },
  // `BENCH_REUSE=0`: every page written anew, as a service whose data are new objects each time
  // and not equal to the last ones would.
  reuseText: process.env.BENCH_REUSE !== '0',
});
const running = await serve(bookshelf, { port: PORT, host: HOST });
ready(running.port);
