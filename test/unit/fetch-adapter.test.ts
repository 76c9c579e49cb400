import { readFileSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import { conventions, type Logger, noContent, ok, type RequestContext } from 'api-conventions';
import { toFetchHandler } from 'api-conventions/fetch';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

const quiet: Logger = { error() {} };
const base = 'http://bookshelf.test';

const api = conventions({
  logger: quiet,
  bodyLimit: 256,
  routes: {
    '/v1/books': {
      GET: () => ({ books: [{ id: 'emma' }], hasNext: false }),
      POST: (ctx: RequestContext) => ({ received: ctx.body ?? null }),
    },
    '/v1/books/:id': {
      GET: (ctx: RequestContext) => ({
        id: ctx.param('id'),
        target: `${ctx.path}?${ctx.rawQuery}`,
      }),
      DELETE: () => noContent(),
    },
    '/v1/cookies': {
      GET: (ctx: RequestContext) => {
        ctx.responseHeaders
          .append('set-cookie', 'a=1; Path=/')
          .append('set-cookie', 'b=2; Path=/')
          .set('link', ['</v1/books?page=2>; rel="next"', '</v1/books>; rel="first"']);
        return { ok: true };
      },
    },
    '/v1/bad-header': { GET: () => ok({}, { 'bad name': 'x' }) },
  },
});
const handle = toFetchHandler(api);

/** A request body of `chunks` chunks of `size` bytes that counts how many chunks were pulled. */
function countingBody(chunks: number, size: number) {
  const state = { pulls: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        state.pulls++;
        controller.enqueue(new Uint8Array(size).fill(0x20));
        if (state.pulls === chunks) controller.close();
      },
      cancel() {
        state.cancelled = true;
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, state };
}

function post(path: string, body: BodyInit | null, headers: Record<string, string> = {}): Request {
  return new Request(base + path, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...headers },
    duplex: 'half',
  } as RequestInit);
}

describe('toFetchHandler', () => {
  it('answers a GET with the core response, synchronously when nothing is asynchronous', async () => {
    const res = handle(new Request(`${base}/v1/books`));
    expect(res).toBeInstanceOf(Response);
    const response = await res;
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await response.json()).toEqual({ books: [{ id: 'emma' }], hasNext: false });
  });

  it('returns 413 once a streamed body passes the limit, without pulling the rest (RFC 9110 §15.5.14)', async () => {
    const { stream, state } = countingBody(100, 64);
    const res = await handle(post('/v1/books', stream));
    expect(res.status).toBe(413);
    expect((await res.json()).errors[0].code).toBe(41300);
    // 256 bytes is four chunks of 64; the fifth passes the limit and nothing after it is pulled.
    expect(state.pulls).toBe(5);
    expect(state.cancelled).toBe(true);
  });

  it('returns 413 from Content-Length alone, without reading the body (RFC 9110 §15.5.14)', async () => {
    const { stream, state } = countingBody(100, 64);
    const request = post('/v1/books', stream, { 'content-length': '6400' });
    const res = await handle(request);
    expect(res.status).toBe(413);
    expect(state.pulls).toBe(0);
    expect(request.body?.locked).toBe(false);
  });

  it('reads a body in several chunks up to the limit', async () => {
    const parts = ['{"title":', '"Emma",', '"year":1815}'];
    const stream = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const part of parts) controller.enqueue(new TextEncoder().encode(part));
        controller.close();
      },
    });
    const res = await handle(post('/v1/books', stream));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ received: { title: 'Emma', year: 1815 } });
  });

  it('answers malformed JSON with 400 and code 40001', async () => {
    const res = await handle(post('/v1/books', '{"title": '));
    expect(res.status).toBe(400);
    expect((await res.json()).errors[0].code).toBe(40001);
  });

  it('treats a POST without a body as having none', async () => {
    const res = await handle(post('/v1/books', null));
    expect(await res.json()).toEqual({ received: null });
  });

  it('answers /V1/Books with 404 and no redirect (spec 4.1.3)', async () => {
    const res = await handle(new Request(`${base}/V1/Books`));
    expect(res.status).toBe(404);
    expect(res.headers.get('location')).toBeNull();
    expect((await res.json()).errors[0].code).toBe(40402);
  });

  it('hands the core the path and query as received: case and percent-encoding kept, fragment dropped', async () => {
    const res = await handle(new Request(`${base}/v1/books/a%2Fb%C3%A9?Q=X%2F#top`));
    expect(await res.json()).toEqual({ id: 'a/bé', target: '/v1/books/a%2Fb%C3%A9?Q=X%2F' });
  });

  it('sends an array header value as repeated header lines (RFC 9110 §5.3)', async () => {
    const res = await handle(new Request(`${base}/v1/cookies`));
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
    expect(res.headers.get('link')).toBe(
      '</v1/books?page=2>; rel="next", </v1/books>; rel="first"',
    );
  });

  it('answers HEAD with the headers of GET, Content-Length and no body (RFC 9110 §9.3.2)', async () => {
    const res = await handle(new Request(`${base}/v1/books`, { method: 'HEAD' }));
    expect(res.status).toBe(200);
    expect(res.body).toBeNull();
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('content-length')).toBe(
      String(JSON.stringify({ books: [{ id: 'emma' }], hasNext: false }).length),
    );
  });

  it('answers 204 with a null body (RFC 9110 §15.3.5)', async () => {
    const res = await handle(new Request(`${base}/v1/books/emma`, { method: 'DELETE' }));
    expect(res.status).toBe(204);
    expect(res.body).toBeNull();
  });

  it('answers a response header with a name that is not a token with a logged 500 (RFC 9110 §5.6.2)', async () => {
    const error = vi.fn();
    const strict = toFetchHandler({
      logger: { error },
      routes: { '/v1/broken': { GET: () => noContent({ 'bad name': 'x' }) } },
    });
    const broken = await strict(new Request(`${base}/v1/broken`));
    expect(broken.status).toBe(500);
    expect((await broken.json()).errors[0].code).toBe(50000);
    expect(error).toHaveBeenCalledOnce();
  });

  it('passes the host context to remoteAddress', async () => {
    const remoteAddress = vi.fn((_request: Request, info: { ip: string }) => info.ip);
    const seen: (string | undefined)[] = [];
    const withAddress = toFetchHandler(
      { routes: { '/v1/ip': { GET: (ctx) => seen.push(ctx.remoteAddress) } } },
      { remoteAddress },
    );
    await withAddress(new Request(`${base}/v1/ip`), { ip: '192.0.2.7' });
    expect(seen).toEqual(['192.0.2.7']);
    expect(remoteAddress.mock.calls[0]?.[0]).toBeInstanceOf(Request);
  });

  it('throws a TypeError naming a misspelt option', () => {
    expect(() => toFetchHandler(api, { remoteAdress: () => '' } as never)).toThrow(
      /unknown option `remoteAdress`\. Did you mean `remoteAddress`\?/,
    );
  });

  it('imports nothing but the core: no node:* module and no framework', () => {
    // fetch.ts and the private `_fetch-*.ts` files it is split into, followed from fetch.ts.
    const files = ['fetch.ts'];
    for (const file of files) {
      const source = readFileSync(new URL(`../../src/adapters/${file}`, import.meta.url), 'utf8');
      // Static imports start a line; the `@example` in the doc comment is prefixed with ` * `.
      const specifiers = [...source.matchAll(/^(?:import|export)\b[^;]*?\bfrom\s+'([^']+)'/gm)].map(
        (m) => m[1]!,
      );
      expect(source).not.toMatch(/\bimport\(|\brequire\(/);
      if (file === 'fetch.ts') expect(specifiers.length).toBeGreaterThan(0);
      // The core (`#core` or the root: one shared copy), a pure helper of the core, the
      // core's own pure dependency path-to-regexp, a private part of this adapter, or the
      // adapters' shared helper for a property a host writes (plain JavaScript).
      for (const specifier of specifiers) {
        expect(specifier).toMatch(
          /^(api-conventions|#core|path-to-regexp|\.\.\/core\/internal\/[a-z-]+\.ts|\.\/_fetch-[a-z-]+\.ts|\.\/_on-assign\.ts)$/,
        );
        const own = specifier.startsWith('./') ? specifier.slice(2) : undefined;
        if (own !== undefined && !files.includes(own)) files.push(own);
      }
      expect(source).not.toMatch(/\b(Buffer|process)\./);
    }
    expect(files.length).toBeGreaterThan(1);
  });
});

describe('toFetchHandler in Hono on @hono/node-server', () => {
  let server: Server;
  const url = (path: string) => `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  beforeAll(async () => {
    const app = new Hono();
    app.all('*', (c) => handle(c.req.raw));
    server = createAdaptorServer({ fetch: app.fetch, hostname: '127.0.0.1' }) as Server;
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    await new Promise<void>((done) => server.close(() => done()).closeAllConnections());
  });

  it('serves the status, Content-Type and body of the core as they are', async () => {
    const res = await fetch(url('/v1/books'));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/json');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.json()).toEqual({ books: [{ id: 'emma' }], hasNext: false });

    const upper = await fetch(url('/v1/Books'));
    expect(upper.status).toBe(404);
    expect(upper.headers.get('content-type')).toBe('application/json');
    expect((await upper.json()).errors[0].code).toBe(40402);
  });

  it('answers HEAD with the Content-Length of GET and no body (RFC 9110 §9.3.2)', async () => {
    const get = await fetch(url('/v1/books'));
    await get.arrayBuffer();
    const head = await fetch(url('/v1/books'), { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(head.headers.get('content-length')).toBe(get.headers.get('content-length'));
    expect(await head.text()).toBe('');
  });

  it('reads a body from the socket and answers 413 past the limit (RFC 9110 §15.5.14)', async () => {
    const post = (body: string) =>
      fetch(url('/v1/books'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body,
      });
    const small = await post('{"title":"Emma"}');
    expect(await small.json()).toEqual({ received: { title: 'Emma' } });
    const big = await post(JSON.stringify({ title: 'x'.repeat(1000) }));
    expect(big.status).toBe(413);
    expect((await big.json()).errors[0].code).toBe(41300);
  });

  it('sends an array header value as repeated header lines (RFC 9110 §5.3)', async () => {
    const res = await fetch(url('/v1/cookies'));
    expect(res.headers.getSetCookie()).toEqual(['a=1; Path=/', 'b=2; Path=/']);
  });

  it('answers an invalid header name with 500 and keeps serving (regression: the server crashed)', async () => {
    const res = await fetch(url('/v1/bad-header'));
    expect(res.status).toBe(500);
    expect((await res.json()).errors[0].code).toBe(50000);
    expect((await fetch(url('/v1/books'))).status).toBe(200);
  });
});
