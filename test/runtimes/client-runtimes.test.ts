/**
 * api-conventions/client runs unchanged on Bun, Deno and workerd: each runtime, a real binary
 * from its npm package, runs the same bundled client against the bookshelf served by Node on a
 * port of its own, and against a hostile service of the tests' own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { loadHost, type Running } from '../../examples/bookshelf/hosts/host.ts';
import { json, type Recorder, startRecorder } from '../client/_hostile.ts';
import { type RuntimeServer, runtimes, startRuntime } from './_runtimes.ts';

let bookshelf: Running | undefined;
/** A hostile service, and the other origin it points the client to. */
let hostile: Recorder | undefined;
let collector: Recorder | undefined;
beforeAll(async () => {
  collector = await startRecorder((_req, res) => json(res, { books: [], hasNext: false }));
  const elsewhere = collector.origin;
  hostile = await startRecorder((req, res) => {
    if (req.target.startsWith('/v1/books')) {
      return json(
        res,
        { books: [{ id: 'emma' }], hasNext: true },
        {
          link: `<${elsewhere}/v1/books?page=2>; rel="next"`,
        },
      );
    }
    if (req.target === '/v1/away') {
      return res.writeHead(302, { location: `${elsewhere}/v1/books` }).end();
    }
    if (req.target.startsWith('/.well-known/')) {
      return json(res, { issuer: hostile!.origin, token_endpoint: `${elsewhere}/token` });
    }
    json(res, {}, { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '99999999999999' });
  });
  const serve = await loadHost('node');
  bookshelf = await serve(createBookshelf({ logger: { error() {}, warn() {} } }), {
    port: 0,
    host: '127.0.0.1',
  });
});
afterAll(async () => {
  await bookshelf?.close();
  await hostile?.close();
  await collector?.close();
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

  it('sends nothing to another origin a hostile service names, and waits no longer than maxWait (RFC 6454; RFC 8414 §3.3)', async () => {
    const from = collector!.received.length;
    const res = await fetch(`${server!.url}/run?hostile=${encodeURIComponent(hostile!.origin)}`);
    expect(await res.json()).toEqual({
      link: 'origin',
      redirect: 'origin',
      metadata: 'origin',
      wait: 'wait',
    });
    expect(collector!.received.slice(from)).toEqual([]);
  });
});
