/**
 * api-conventions/client is bounded against a hostile service of the tests' own: no
 * wait past `retry.maxWait` (a rate limit reset far ahead, a long `Retry-After`), no timer past
 * 2^31 − 1 ms, no body read past `maxBodySize`.
 */
import { gzipSync } from 'node:zlib';
import { createClient, isClientRefusedError } from 'api-conventions/client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Handler, json, type Recorder, startRecorder } from './_hostile.ts';

let behave: Handler = (_req, res) => json(res, {});
let hostile: Recorder;
/** Bytes the service wrote of its last body before the client hung up. */
let written = 0;

beforeAll(async () => {
  hostile = await startRecorder((req, res) => behave(req, res));
});
afterAll(async () => {
  await hostile.close();
});
afterEach(() => {
  hostile.received.length = 0;
});

/** Settles `p` within `ms`, else reports that it hung. */
const within = (p: Promise<unknown>, ms: number) =>
  Promise.race([
    p.then(
      (value) => ({ resolved: value }),
      (error: unknown) => error,
    ),
    new Promise((resolve) => setTimeout(() => resolve('still pending'), ms)),
  ]);

/** The `TimeoutOverflowWarning`s Node printed while `run` ran. */
async function overflowsDuring(run: () => Promise<unknown>): Promise<number> {
  let count = 0;
  const onWarning = (warning: Error) => {
    if (warning.name === 'TimeoutOverflowWarning') count++;
  };
  process.on('warning', onWarning);
  try {
    await run();
    // Warnings are emitted on the next tick.
    await new Promise((resolve) => setTimeout(resolve, 200));
  } finally {
    process.off('warning', onWarning);
  }
  return count;
}

describe('every wait is capped by retry.maxWait', () => {
  it('rejects at once, naming the wait, when X-RateLimit-Reset is far ahead; no timer overflows (spec 8.3)', async () => {
    behave = (_req, res) =>
      json(
        res,
        { ok: true },
        { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '99999999999999' },
      );
    const client = createClient({ baseUrl: hostile.origin });
    let second: unknown;
    const overflows = await overflowsDuring(async () => {
      expect(await client.get('/v1/books')).toEqual({ ok: true });
      second = await within(client.get('/v1/books'), 2000);
    });
    expect(isClientRefusedError(second)).toBe(true);
    expect(second).toMatchObject({ reason: 'wait' });
    expect((second as { wait: number }).wait).toBeGreaterThan(1e12);
    expect((second as Error).message).toMatch(/rate limit.*retry\.maxWait \(60 s\)/);
    expect(hostile.received).toHaveLength(1);
    expect(overflows).toBe(0);
  });

  it('still waits out a reset within maxWait, then sends (spec 8.3)', async () => {
    let calls = 0;
    behave = (_req, res) =>
      json(
        res,
        { call: ++calls },
        calls === 1 ? { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': '1' } : {},
      );
    const client = createClient({ baseUrl: hostile.origin, retry: { maxWait: 5000 } });
    await client.get('/v1/books');
    const started = Date.now();
    expect(await client.get('/v1/books')).toEqual({ call: 2 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
  });

  it('rejects a 429 whose Retry-After is longer than maxWait, naming the wait, the 429 as its cause (RFC 9110 §10.2.3)', async () => {
    behave = (_req, res) => {
      res.writeHead(429, { 'retry-after': '120', 'content-type': 'application/json' });
      res.end(JSON.stringify({ errors: [{ message: 'Too many requests.', code: 42900 }] }));
    };
    const client = createClient({ baseUrl: hostile.origin, retry: { maxWait: 1000 } });
    const error = await within(client.get('/v1/books'), 2000);
    expect(error).toMatchObject({ reason: 'wait', wait: 120_000 });
    expect((error as Error).message).toMatch(/Retry-After.*2 min.*retry\.maxWait \(1 s\)/);
    expect((error as Error).cause).toMatchObject({ status: 429, code: 42900 });
    expect(hostile.received).toHaveLength(1);
  });

  it('rejects a Retry-After date in the year 9999 at once, with no timer overflow', async () => {
    behave = (_req, res) =>
      res.writeHead(503, { 'retry-after': 'Fri, 31 Dec 9999 23:59:59 GMT' }).end();
    const client = createClient({ baseUrl: hostile.origin, retry: { maxWait: 2_147_483_647 } });
    let error: unknown;
    const overflows = await overflowsDuring(async () => {
      error = await within(client.get('/v1/books'), 2000);
    });
    expect(error).toMatchObject({ reason: 'wait' });
    expect(overflows).toBe(0);
  });

  it('refuses a maxWait past the longest timer when the client is made', () => {
    expect(() => createClient({ baseUrl: hostile.origin, retry: { maxWait: 2 ** 31 } })).toThrow(
      /maxWait.*2147483647/,
    );
    expect(() =>
      createClient({ baseUrl: hostile.origin, retry: { maxWait: Number.POSITIVE_INFINITY } }),
    ).toThrow(TypeError);
  });
});

describe('every body is capped by maxBodySize', () => {
  /** Streams `chunks` of 1 MiB, counting what it wrote, until done or the client hangs up. */
  const stream = (chunks: number, head: Record<string, string>) => {
    written = 0;
    behave = async (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', ...head });
      const chunk = Buffer.alloc(1 << 20, 0x20);
      for (let i = 0; i < chunks && !res.destroyed; i++) {
        const ok = res.write(chunk);
        written += chunk.length;
        if (!ok) await new Promise((resolve) => res.once('drain', resolve).once('close', resolve));
      }
      res.end();
    };
  };

  it('refuses a Content-Length over the cap before reading the body', async () => {
    stream(64, { 'content-length': String(64 << 20) });
    const client = createClient({ baseUrl: hostile.origin, maxBodySize: 1 << 20 });
    const error = await within(client.get('/v1/books'), 5000);
    expect(error).toMatchObject({ reason: 'size' });
    expect((error as Error).message).toContain('67108864 bytes');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(written).toBeLessThan(32 << 20);
  });

  it('stops reading a chunked body once it passes the default cap of 10 MiB', async () => {
    stream(200, {});
    const client = createClient({ baseUrl: hostile.origin });
    const error = await within(client.get('/v1/books'), 5000);
    expect(error).toMatchObject({ reason: 'size' });
    expect((error as Error).message).toContain('10485760 bytes');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(written).toBeLessThan(100 << 20);
  });

  it('counts the decoded bytes of a compressed body (a 100 MiB gzip bomb)', async () => {
    const bomb = gzipSync(Buffer.alloc(100 << 20, 0x20));
    behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
      res.end(bomb);
    };
    const client = createClient({ baseUrl: hostile.origin, maxBodySize: 1 << 20 });
    const error = await within(client.get('/v1/books'), 5000);
    expect(error).toMatchObject({ reason: 'size' });
  });

  it('reads a body within the cap as before', async () => {
    behave = (_req, res) => json(res, { books: [{ id: 'emma' }] });
    const client = createClient({ baseUrl: hostile.origin, maxBodySize: 100 });
    expect(await client.get('/v1/books')).toEqual({ books: [{ id: 'emma' }] });
  });

  it('caps the token endpoint’s answer too', async () => {
    stream(50, {});
    const client = createClient({
      baseUrl: hostile.origin,
      maxBodySize: 1 << 20,
      oauth: { clientId: 'demo', tokenUrl: '/token' },
    });
    const error = await within(client.get('/v1/books'), 5000);
    expect(error).toMatchObject({ reason: 'size', url: `${hostile.origin}/token` });
  });
});
