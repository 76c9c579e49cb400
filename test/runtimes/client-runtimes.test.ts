/**
 * api-conventions/client runs unchanged on Bun, Deno and workerd: each runtime, a real binary
 * from its npm package, runs the same bundled client against the bookshelf served by Node on a
 * port of its own (issue 37).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { loadHost, type Running } from '../../examples/bookshelf/hosts/host.ts';
import { type RuntimeServer, runtimes, startRuntime } from './_runtimes.ts';

let bookshelf: Running | undefined;
beforeAll(async () => {
  const serve = await loadHost('node');
  bookshelf = await serve(createBookshelf({ logger: { error() {}, warn() {} } }), {
    port: 0,
    host: '127.0.0.1',
  });
});
afterAll(async () => {
  await bookshelf?.close();
});

describe.each(runtimes)('the client on %s', (runtime) => {
  let server: RuntimeServer | undefined;
  beforeAll(async () => {
    const entry = `_client-${runtime === 'workerd' ? 'worker' : runtime}.ts`;
    server = await startRuntime(runtime, entry);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('pages every book once, rejects a 404 with its code and answers a 304 from its cache (spec 2.8, 7.1.5; RFC 9110 §13.1.2)', async () => {
    const base = `http://127.0.0.1:${bookshelf!.port}`;
    const res = await fetch(`${server!.url}/run?base=${encodeURIComponent(base)}`);
    const outcome = await res.json();
    expect(outcome).toEqual({
      books: 60,
      unique: 60,
      missing: [404, 40400],
      cached: [true, 'Emma'],
    });
  });
});
