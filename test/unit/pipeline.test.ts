import { describe, expect, it, vi } from 'vitest';
import {
  type ApiResponse,
  bindHost,
  payloadTooLarge,
  type RequestInput,
} from '../../src/core/index.ts';
import { isPromise } from '../../src/core/kernel/steps.ts';
import {
  type ConventionsOptions,
  conventions,
  created,
  forbidden,
  type Logger,
  noContent,
  notFound,
  ok,
  type Plugin,
  type RequestContext,
  type RouteInfo,
  type RouteSettings,
} from '../../src/index.ts';

const generic = 'Something went wrong on our side; it has been logged.';
const nosniff = { 'x-content-type-options': 'nosniff' };
const jsonHeaders = { 'content-type': 'application/json', ...nosniff };

interface Init {
  headers?: Record<string, string>;
  body?: string | Uint8Array;
  parsedBody?: { value: unknown };
}

/** A plain request as an adapter would hand it over; `readBody` is a spy. */
function req(method: string, url: string, init: Init = {}) {
  const raw = typeof init.body === 'string' ? new TextEncoder().encode(init.body) : init.body;
  const readBody = vi.fn((_limit: number) => Promise.resolve(raw ?? new Uint8Array(0)));
  const input: RequestInput = {
    method,
    url,
    headers: new Headers(init.headers),
    readBody: raw === undefined ? undefined : readBody,
    parsedBody: init.parsedBody,
  };
  return Object.assign(input, { readBody: input.readBody as typeof readBody | undefined });
}

function fakeLogger() {
  return { error: vi.fn<Logger['error']>(), warn: vi.fn<NonNullable<Logger['warn']>>() };
}

/** A `conventions()` with a fake logger and the route lint off. */
function make(options: ConventionsOptions = {}) {
  const logger = fakeLogger();
  const api = conventions({ lint: 'off', logger, ...options });
  return { api, logger };
}

/** {@link make}, with a host bound to it whose native request is the core's input itself. */
function withHost(options: ConventionsOptions = {}) {
  const made = make(options);
  return { ...made, host: bindHost<RequestInput>(made.api, { input: (input) => input }) };
}

const errorBody = (message: string, code: number) =>
  JSON.stringify({ errors: [{ message, code }] });
const parse = (response: ApiResponse) => JSON.parse(response.body as string);

const books = { books: [{ id: 'dune' }], hasNext: false };

describe('handle(): synchronous and asynchronous paths', () => {
  it('returns synchronously, not a Promise, when the handler and hooks are sync', () => {
    const { api } = make({
      routes: { '/v1/books': { GET: () => books } },
      plugins: [
        {
          name: 'sync',
          onRequest: () => undefined,
          preParsing: () => undefined,
          preHandler: () => undefined,
          preSerialization: () => {},
          onSend: () => {},
        },
      ],
    });
    const response = api.handle(req('GET', '/v1/books'));
    expect(isPromise(response)).toBe(false);
    expect(response).toEqual({ status: 200, headers: jsonHeaders, body: JSON.stringify(books) });
  });

  it.each<[string, Plugin]>([
    ['an onRequest check', { name: 'p', onRequest: async () => undefined }],
    ['a preParsing check', { name: 'p', preParsing: async () => undefined }],
    ['a preHandler check', { name: 'p', preHandler: async () => undefined }],
    ['a preSerialization hook', { name: 'p', preSerialization: async () => {} }],
    ['an onSend hook', { name: 'p', onSend: async () => {} }],
  ])('returns a Promise when %s is async', async (_, plugin) => {
    const { api } = make({ routes: { '/v1/books': { GET: () => books } }, plugins: [plugin] });
    const response = api.handle(req('GET', '/v1/books'));
    expect(response).toBeInstanceOf(Promise);
    expect(await response).toEqual({
      status: 200,
      headers: jsonHeaders,
      body: JSON.stringify(books),
    });
  });

  it('returns a Promise when the handler is async', async () => {
    const { api } = make({ routes: { '/v1/books': { GET: async () => books } } });
    const response = api.handle(req('GET', '/v1/books'));
    expect(response).toBeInstanceOf(Promise);
    expect((await response).status).toBe(200);
  });

  it('returns a Promise when a body has to be read', async () => {
    const { api } = make({ routes: { '/v1/books': { POST: (ctx) => ctx.body } } });
    const response = api.handle(
      req('POST', '/v1/books', { headers: { 'content-type': 'application/json' }, body: '{}' }),
    );
    expect(response).toBeInstanceOf(Promise);
    expect(await response).toEqual({ status: 200, headers: jsonHeaders, body: '{}' });
  });
});

describe('handle(): plugins', () => {
  it('runs the hooks of every plugin in order, around the handler', async () => {
    const seen: string[] = [];
    const plugin = (name: string, async: boolean): Plugin => ({
      name,
      onRequest: () => {
        seen.push(`${name}.onRequest`);
        return async ? Promise.resolve(undefined) : undefined;
      },
      preParsing: () => {
        seen.push(`${name}.preParsing`);
        return async ? Promise.resolve(undefined) : undefined;
      },
      preHandler: () => {
        seen.push(`${name}.preHandler`);
        return async ? Promise.resolve(undefined) : undefined;
      },
      preSerialization: () => {
        seen.push(`${name}.preSerialization`);
        return async ? Promise.resolve() : undefined;
      },
      onSend: () => {
        seen.push(`${name}.onSend`);
        return async ? Promise.resolve() : undefined;
      },
    });
    const { api } = make({
      routes: {
        '/v1/books': {
          GET: () => {
            seen.push('handler');
            return books;
          },
        },
      },
      plugins: [plugin('a', false), plugin('b', true), plugin('c', false)],
    });
    await api.handle(req('GET', '/v1/books'));
    expect(seen).toEqual([
      'a.onRequest',
      'b.onRequest',
      'c.onRequest',
      'a.preParsing',
      'b.preParsing',
      'c.preParsing',
      'a.preHandler',
      'b.preHandler',
      'c.preHandler',
      'handler',
      'a.preSerialization',
      'b.preSerialization',
      'c.preSerialization',
      'a.onSend',
      'b.onSend',
      'c.onSend',
    ]);
  });

  it('binds each hook to its plugin', () => {
    const plugin = {
      name: 'bound',
      header: 'x-bound',
      onRequest(this: { header: string }, ctx: RequestContext) {
        ctx.responseHeaders.set(this.header, 'yes');
        return undefined;
      },
    };
    const { api } = make({ routes: { '/v1/books': { GET: () => books } }, plugins: [plugin] });
    expect((api.handle(req('GET', '/v1/books')) as ApiResponse).headers['x-bound']).toBe('yes');
  });

  it.each([
    ['sync', (reply: ReturnType<typeof ok>) => reply],
    ['async', (reply: ReturnType<typeof ok>) => Promise.resolve(reply)],
  ])(
    'answers early when a preParsing check returns a Reply (%s): later checks and the handler do not run',
    async (_, wrap) => {
      const handler = vi.fn(() => books);
      const later = vi.fn(() => undefined);
      const before = vi.fn(() => undefined);
      const preSerialization = vi.fn();
      const { api } = make({
        routes: { '/v1/books': { GET: handler } },
        plugins: [
          { name: 'cache', preParsing: () => wrap(ok({ cached: true }, { 'x-cache': 'hit' })) },
          { name: 'later', preParsing: later, preHandler: before, preSerialization },
        ],
      });
      expect(await api.handle(req('GET', '/v1/books'))).toEqual({
        status: 200,
        headers: { 'x-cache': 'hit', ...jsonHeaders },
        body: '{"cached":true}',
      });
      expect(handler).not.toHaveBeenCalled();
      expect(later).not.toHaveBeenCalled();
      expect(before).not.toHaveBeenCalled();
      expect(preSerialization).toHaveBeenCalledOnce();
    },
  );

  it.each<[string, Plugin]>([
    ['onRequest', { name: 'p', onRequest: () => noContent() }],
    ['preParsing', { name: 'p', preParsing: () => noContent() }],
  ])('does not read the body when a check in %s answers early', async (_, plugin) => {
    const { api } = make({
      routes: { '/v1/books': { POST: () => books } },
      plugins: [plugin],
    });
    const input = req('POST', '/v1/books', {
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(await api.handle(input)).toEqual({ status: 204, headers: nosniff, body: null });
    expect(input.readBody).not.toHaveBeenCalled();
  });

  it('answers early when a preHandler check returns a Reply', async () => {
    const handler = vi.fn(() => books);
    const { api } = make({
      routes: { '/v1/books': { GET: handler } },
      plugins: [{ name: 'p', preHandler: () => noContent({ 'x-early': '1' }) }],
    });
    expect(await api.handle(req('GET', '/v1/books'))).toEqual({
      status: 204,
      headers: { 'x-early': '1', ...nosniff },
      body: null,
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it.each([
    [
      'onRequest throws',
      {
        name: 'p',
        onRequest: () => {
          throw forbidden();
        },
      },
    ],
    ['onRequest rejects', { name: 'p', onRequest: () => Promise.reject(forbidden()) }],
    [
      'preParsing throws',
      {
        name: 'p',
        preParsing: () => {
          throw forbidden();
        },
      },
    ],
    ['preParsing rejects', { name: 'p', preParsing: () => Promise.reject(forbidden()) }],
    [
      'preHandler throws',
      {
        name: 'p',
        preHandler: () => {
          throw forbidden();
        },
      },
    ],
    [
      'preHandler rejects',
      {
        name: 'p',
        preHandler: async () => {
          throw forbidden();
        },
      },
    ],
  ] as [string, Plugin][])(
    'stops with the ApiError’s status when %s it (spec 5.8)',
    async (_, plugin) => {
      const handler = vi.fn(() => books);
      const { api, logger } = make({
        routes: { '/v1/books': { GET: handler } },
        plugins: [plugin],
      });
      expect(await api.handle(req('GET', '/v1/books'))).toEqual({
        status: 403,
        headers: jsonHeaders,
        body: errorBody('You are not allowed to do this.', 40300),
      });
      expect(handler).not.toHaveBeenCalled();
      expect(logger.error).not.toHaveBeenCalled();
    },
  );

  it('adds headers set on the context to success and error responses alike', async () => {
    const plugin: Plugin = {
      name: 'limits',
      onRequest(ctx) {
        ctx.responseHeaders.set('X-RateLimit-Limit', '10');
        ctx.responseHeaders.vary('Accept', 'Origin');
        return undefined;
      },
    };
    const { api } = make({
      routes: {
        '/v1/books': { GET: () => books },
        '/v1/books/:id': {
          GET: (ctx) => {
            throw notFound(`No book with id "${ctx.param('id')}".`);
          },
        },
      },
      plugins: [plugin],
    });
    const extra = { 'x-ratelimit-limit': '10', vary: 'Accept, Origin' };
    expect(await api.handle(req('GET', '/v1/books'))).toEqual({
      status: 200,
      headers: { ...extra, ...jsonHeaders },
      body: JSON.stringify(books),
    });
    expect(await api.handle(req('GET', '/v1/books/nope'))).toEqual({
      status: 404,
      headers: { ...extra, ...jsonHeaders },
      body: errorBody('No book with id "nope".', 40400),
    });
  });

  it.each([
    [
      'preSerialization throws',
      () => books,
      {
        preSerialization: () => {
          throw new Error('x');
        },
      },
    ],
    [
      'onSend throws',
      () => books,
      {
        onSend: () => {
          throw new Error('x');
        },
      },
    ],
    ['the body cannot be serialized', () => ({ n: 1n }), {}],
  ] as [string, () => unknown, Partial<Plugin>][])(
    'keeps headers set on the context on the 500 when %s',
    (_, handler, hooks) => {
      const { api } = make({
        routes: { '/v1/books': { GET: handler } },
        plugins: [
          {
            name: 'limits',
            onRequest(ctx) {
              ctx.responseHeaders.set('X-RateLimit-Remaining', '9');
              return undefined;
            },
            ...hooks,
          },
        ],
      });
      const response = api.handle(req('GET', '/v1/books')) as ApiResponse;
      expect(response.status).toBe(500);
      expect(response.headers['x-ratelimit-remaining']).toBe('9');
      expect(response.headers).toMatchObject(jsonHeaders);
      expect(response.body).toBe(errorBody(generic, 50000));
    },
  );

  it('lets a reply’s own header win over the same header set on the context', () => {
    const { api } = make({
      routes: { '/v1/books': { GET: () => ok(books, { 'cache-control': 'no-store' }) } },
      plugins: [
        {
          name: 'p',
          onRequest(ctx) {
            ctx.responseHeaders.set('Cache-Control', 'public');
            return undefined;
          },
        },
      ],
    });
    expect((api.handle(req('GET', '/v1/books')) as ApiResponse).headers['cache-control']).toBe(
      'no-store',
    );
  });

  it('lets preSerialization change the status, body and headers', () => {
    const { api } = make({
      routes: { '/v1/books': { GET: () => books } },
      plugins: [
        {
          name: 'shape',
          preSerialization(_ctx, out) {
            out.status = 203;
            out.body = { wrapped: out.body };
            out.headers.set('x-shaped', 'yes');
          },
        },
      ],
    });
    expect(api.handle(req('GET', '/v1/books'))).toEqual({
      status: 203,
      headers: { 'x-shaped': 'yes', ...jsonHeaders },
      body: JSON.stringify({ wrapped: books }),
    });
  });

  it.each([
    ['GET', '/v1/nothing', 404, undefined],
    ['DELETE', '/v1/books', 405, 'GET, HEAD, OPTIONS'],
    ['GET', '/v1/Books', 404, undefined],
    ['OPTIONS', '/v1/books', 204, 'GET, HEAD, OPTIONS'],
  ])('runs preSerialization for %s %s (%i) too, with no route', (method, url, status, allow) => {
    const seen: { status: number; route: RouteSettings | undefined }[] = [];
    const { api } = make({
      routes: { '/v1/books': { GET: () => books } },
      plugins: [
        {
          name: 'p',
          preSerialization(ctx, out) {
            seen.push({ status: out.status, route: ctx.route });
            out.headers.set('x-seen', '1');
          },
        },
      ],
    });
    const response = api.handle(req(method, url)) as ApiResponse;
    expect(response.status).toBe(status);
    expect(response.headers['x-seen']).toBe('1');
    expect(response.headers['allow']).toBe(allow);
    expect(seen).toEqual([{ status, route: undefined }]);
  });

  it.each([
    [
      'throws',
      () => {
        throw new Error('hook broke: secret');
      },
    ],
    ['rejects', () => Promise.reject(new Error('hook broke: secret'))],
  ] as [string, Plugin['preSerialization']][])(
    'answers 500, logged, when preSerialization %s',
    async (_, preSerialization) => {
      const { api, logger } = make({
        routes: { '/v1/books': { GET: () => books } },
        plugins: [{ name: 'p', preSerialization }],
      });
      const response = await api.handle(req('GET', '/v1/books'));
      expect(response).toEqual({
        status: 500,
        headers: jsonHeaders,
        body: errorBody(generic, 50000),
      });
      expect(logger.error).toHaveBeenCalledOnce();
      expect(logger.error).toHaveBeenCalledWith(
        {
          err: expect.objectContaining({ message: 'hook broke: secret' }),
          method: 'GET',
          path: '/v1/books',
          // The request's context: the route that served it.
          route: '/v1/books',
        },
        'GET /v1/books failed',
      );
    },
  );

  it('calls onRoute once per route at creation, and never per request', () => {
    const onRoute = vi.fn<(route: RouteInfo) => void>();
    const { api } = make({
      routes: {
        '/v1/books': { GET: () => books, POST: () => books },
        '/v1/books/:id': { DELETE: () => undefined },
      },
      plugins: [{ name: 'p', onRoute }],
    });
    const seen = onRoute.mock.calls.map(([route]) => route);
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual([...api.routes]);
    expect(seen.filter((r) => r.method === 'GET' && r.pattern === '/v1/books')).toHaveLength(1);
    const calls = onRoute.mock.calls.length;
    api.handle(req('GET', '/v1/books'));
    expect(onRoute).toHaveBeenCalledTimes(calls);
  });
});

describe('handle(): routing and paths (spec 4.1, 4.2)', () => {
  const { api } = make({
    routes: {
      '/v1/books': { GET: () => books, POST: (ctx) => ctx.body },
      '/v1/books/:id': { GET: (ctx) => ({ id: ctx.param('id'), page: ctx.query.get('page') }) },
    },
  });

  it('hands decoded path parameters and the query to the handler', () => {
    expect(api.handle(req('GET', '/v1/books/caf%C3%A9?page=2'))).toEqual({
      status: 200,
      headers: jsonHeaders,
      body: '{"id":"café","page":"2"}',
    });
  });

  it('answers an upper-case path with 404 code 40402 and no Location (spec 4.1.3)', () => {
    expect(api.handle(req('GET', '/v1/Books'))).toEqual({
      status: 404,
      headers: jsonHeaders,
      body: errorBody('Nothing found at /v1/Books: paths are entirely lower-case.', 40402),
    });
  });

  it('does not count percent-encoding hex as upper-case (spec 4.1.3)', () => {
    expect((api.handle(req('GET', '/v1/books/a%2Fb')) as ApiResponse).status).toBe(200);
  });

  it('does not look at the query for the upper-case rule', () => {
    expect((api.handle(req('GET', '/v1/books?Q=Dune')) as ApiResponse).status).toBe(200);
  });

  it('answers a path nothing matches with 404 naming the path (spec 7.1.3)', () => {
    expect(api.handle(req('GET', '/v1/authors?page=2'))).toEqual({
      status: 404,
      headers: jsonHeaders,
      body: errorBody('Nothing found at /v1/authors.', 40401),
    });
  });

  it('answers a trailing slash with 404, not a redirect', () => {
    expect((api.handle(req('GET', '/v1/books/')) as ApiResponse).status).toBe(404);
  });

  it('answers 405 with Allow when the path exists but the method does not (RFC 9110 §15.5.6)', () => {
    expect(api.handle(req('DELETE', '/v1/books'))).toEqual({
      status: 405,
      headers: { allow: 'GET, HEAD, POST, OPTIONS', ...jsonHeaders },
      body: errorBody(
        'DELETE is not allowed on /v1/books; allowed: GET, HEAD, POST, OPTIONS.',
        40500,
      ),
    });
  });

  it('answers OPTIONS with 204 and Allow (RFC 9110 §9.3.7)', () => {
    expect(api.handle(req('OPTIONS', '/v1/books/dune'))).toEqual({
      status: 204,
      headers: { allow: 'GET, HEAD, OPTIONS', ...nosniff },
      body: null,
    });
  });

  it('answers HEAD with the headers of GET, its Content-Length and no body (RFC 9110 §9.3.2)', () => {
    const get = api.handle(req('GET', '/v1/books/caf%C3%A9')) as ApiResponse;
    const head = api.handle(req('HEAD', '/v1/books/caf%C3%A9')) as ApiResponse;
    expect(head).toEqual({
      status: 200,
      headers: { ...get.headers, 'content-length': String(Buffer.byteLength(get.body as string)) },
      body: null,
    });
  });

  // A "%" without two hex digits breaks the whole target (RFC 3986 §2.1), so the path rules answer
  // before routing; well-formed escapes that are not UTF-8 break only the parameter they decode to.
  it.each([
    ['/v1/books/%e0%a4%a', 'the path'],
    ['/v1/books/%', 'the path'],
    ['/v1/books/%zz', 'the path'],
    ['/v1/books/%ff', 'the parameter'],
    ['/v1/books/%e0%a4', 'the parameter'],
  ])(
    'answers malformed percent-encoding in %s with 400 code 40006 naming %s, not 500',
    (url, what) => {
      const message =
        what === 'the path'
          ? `The path ${url} has malformed percent-encoding: each "%" must be followed by two hexadecimal digits.`
          : 'The path parameter "id" has malformed percent-encoding.';
      expect(api.handle(req('GET', url))).toEqual({
        status: 400,
        headers: jsonHeaders,
        body: errorBody(message, 40006),
      });
    },
  );
});

describe('handle(): handler results', () => {
  it('answers 204 with no body when the handler returns undefined (spec 4.3)', () => {
    const { api } = make({ routes: { '/v1/books/:id': { DELETE: () => undefined } } });
    expect(api.handle(req('DELETE', '/v1/books/dune'))).toEqual({
      status: 204,
      headers: nosniff,
      body: null,
    });
  });

  it('answers a Reply with its status and headers (spec 4.3)', async () => {
    const { api } = make({
      routes: {
        '/v1/books': {
          POST: async () => created('/v1/books/dune', { id: 'dune' }),
        },
      },
    });
    expect(await api.handle(req('POST', '/v1/books'))).toEqual({
      status: 201,
      headers: { location: '/v1/books/dune', ...jsonHeaders },
      body: '{"id":"dune"}',
    });
  });

  it.each([
    ['sync', () => [{ id: 'dune' }]],
    ['async', async () => [{ id: 'dune' }]],
  ])(
    'answers a bare top-level array (%s) with 500 code 50001, logged (spec 2.7)',
    async (_, handler) => {
      const { api, logger } = make({ routes: { '/v1/books': { GET: handler } } });
      expect(await api.handle(req('GET', '/v1/books'))).toEqual({
        status: 500,
        headers: jsonHeaders,
        body: errorBody(generic, 50001),
      });
      expect(logger.error).toHaveBeenCalledOnce();
      const [record, summary] = logger.error.mock.calls[0]!;
      expect(summary).toBe('GET /v1/books failed');
      expect(record).toMatchObject({ method: 'GET', path: '/v1/books', err: { code: 50001 } });
      expect((record.err as Error).cause).toBeInstanceOf(TypeError);
      expect(((record.err as Error).cause as Error).message).toContain('spec 2.7');
    },
  );

  const cyclic = () => {
    const book: Record<string, unknown> = { id: 'dune' };
    book['self'] = book;
    return book;
  };

  it.each([
    ['a BigInt', () => ({ count: 1n })],
    ['a cycle', cyclic],
  ])('answers a body with %s, which JSON cannot represent, with 500, logged', (_, handler) => {
    const { api, logger } = make({ routes: { '/v1/books': { GET: handler } } });
    expect(api.handle(req('GET', '/v1/books'))).toEqual({
      status: 500,
      headers: jsonHeaders,
      body: errorBody(generic, 50000),
    });
    expect(logger.error).toHaveBeenCalledOnce();
    expect(logger.error.mock.calls[0]![0]).toMatchObject({
      method: 'GET',
      path: '/v1/books',
      err: expect.any(Error),
    });
  });

  it('logs the TypeError of a BigInt in the body, as JSON.stringify throws it', () => {
    const { api, logger } = make({ routes: { '/v1/books': { GET: () => ({ count: 1n }) } } });
    api.handle(req('GET', '/v1/books'));
    expect(logger.error.mock.calls[0]![0].err).toBeInstanceOf(TypeError);
  });

  it('logs the TypeError of a cycle in the body, as JSON.stringify throws it', () => {
    const { api, logger } = make({ routes: { '/v1/books': { GET: cyclic } } });
    api.handle(req('GET', '/v1/books'));
    expect(logger.error.mock.calls[0]![0].err).toBeInstanceOf(TypeError);
  });

  it.each([
    [
      'throws an Error',
      () => {
        throw new Error('password=hunter2');
      },
    ],
    ['rejects with an Error', () => Promise.reject(new Error('password=hunter2'))],
    [
      'throws a string',
      () => {
        throw 'password=hunter2';
      },
    ],
    ['calls a missing parameter', (ctx: RequestContext) => ctx.param('hunter2')],
  ])(
    'answers 500 with a generic message when the handler %s (CONTRIBUTING.md rule 7)',
    async (_, handler) => {
      const { api, logger } = make({ routes: { '/v1/books': { GET: handler } } });
      const response = await api.handle(req('GET', '/v1/books'));
      expect(response).toEqual({
        status: 500,
        headers: jsonHeaders,
        body: errorBody(generic, 50000),
      });
      expect(response.body).not.toContain('hunter2');
      expect(logger.error).toHaveBeenCalledOnce();
    },
  );

  it('answers an ApiError thrown by the handler with its status and does not log it', async () => {
    const { api, logger } = make({
      routes: {
        '/v1/books/:id': {
          GET: async () => {
            throw notFound('No book with id "x".');
          },
        },
      },
    });
    expect(await api.handle(req('GET', '/v1/books/x'))).toEqual({
      status: 404,
      headers: jsonHeaders,
      body: errorBody('No book with id "x".', 40400),
    });
    expect(logger.error).not.toHaveBeenCalled();
  });
});

describe('handle(): request bodies (spec 4.6)', () => {
  const json = { 'content-type': 'application/json' };

  it('hands the parsed body to preHandler and the handler', async () => {
    const seen: unknown[] = [];
    const { api } = make({
      routes: {
        '/v1/books': {
          POST: (ctx) => {
            seen.push(['handler', ctx.body]);
            return noContent();
          },
        },
      },
      plugins: [
        {
          name: 'p',
          preHandler(ctx) {
            seen.push(['preHandler', ctx.body]);
            return undefined;
          },
        },
      ],
    });
    await api.handle(req('POST', '/v1/books', { headers: json, body: '{"title":"Dune"}' }));
    expect(seen).toEqual([
      ['preHandler', { title: 'Dune' }],
      ['handler', { title: 'Dune' }],
    ]);
  });

  it.each([
    [{}, {}, 1_048_576],
    [{ bodyLimit: 10 }, {}, 10],
    [{ bodyLimit: 10 }, { bodyLimit: 5 }, 5],
  ])(
    'reads the body with the limit of the route, else the service (%j, %j → %i)',
    async (options, config, limit) => {
      const { api } = make({
        ...options,
        routes: { '/v1/books': { POST: { handler: () => undefined, config } } },
      });
      const input = req('POST', '/v1/books', { headers: json, body: '{}' });
      await api.handle(input);
      expect(input.readBody).toHaveBeenCalledExactlyOnceWith(limit, { timeoutMs: 30_000 });
    },
  );

  it('answers 413 with Connection: close when readBody rejects with it', async () => {
    const { api, logger } = make({ routes: { '/v1/books': { POST: () => books } } });
    const input = req('POST', '/v1/books', { headers: json, body: '{}' });
    input.readBody!.mockImplementation(() => Promise.reject(payloadTooLarge(10)));
    expect(await api.handle(input)).toEqual({
      status: 413,
      headers: { connection: 'close', ...jsonHeaders },
      body: errorBody('The request body is larger than the limit of 10 bytes.', 41300),
    });
    expect(logger.error).not.toHaveBeenCalled();
  });

  it.each(['GET', 'HEAD', 'OPTIONS'])('does not read a body on %s', async (method) => {
    const { api } = make({
      routes: { '/v1/books': { GET: () => books, OPTIONS: () => undefined } },
    });
    const input = req(method, '/v1/books', { headers: json, body: '{' });
    expect((await api.handle(input)).status).toBeLessThan(300);
    expect(input.readBody).not.toHaveBeenCalled();
  });

  it('answers an unsupported Content-Type with 415 naming the supported types', async () => {
    const handler = vi.fn();
    const { api } = make({ routes: { '/v1/books': { POST: handler } } });
    const input = req('POST', '/v1/books', {
      headers: { 'content-type': 'text/plain' },
      body: 'x',
    });
    expect(await api.handle(input)).toEqual({
      status: 415,
      headers: jsonHeaders,
      body: errorBody(
        'Content-Type "text/plain" is not supported; send one of: application/json.',
        41500,
      ),
    });
    expect(handler).not.toHaveBeenCalled();
  });

  it('reads a form body on a route that accepts form (spec 4.9)', async () => {
    const { api } = make({
      routes: {
        '/v1/oauth2/token': { POST: { handler: (ctx) => ctx.body, config: { accepts: ['form'] } } },
      },
    });
    const input = req('POST', '/v1/oauth2/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password&username=alice',
    });
    expect(parse(await api.handle(input))).toEqual({ grant_type: 'password', username: 'alice' });
  });

  it('answers malformed JSON with 400 code 40001', async () => {
    const { api } = make({ routes: { '/v1/books': { POST: () => books } } });
    const response = await api.handle(req('POST', '/v1/books', { headers: json, body: '{"a":' }));
    expect(response.status).toBe(400);
    expect(parse(response).errors).toEqual([
      { message: expect.stringMatching(/^The request body is not valid JSON: /), code: 40001 },
    ]);
  });

  describe('with a body schema', () => {
    const update = vi.fn((ctx: RequestContext) => ctx.body);
    const body = {
      title: { type: 'string', required: true, max: 5 },
      year: { type: 'integer', required: true },
    } as const;
    const { api } = make({
      routes: {
        '/v1/books': { POST: { handler: update, config: { body } } },
        '/v1/books/:id': {
          PUT: { handler: update, config: { body } },
          PATCH: { handler: update, config: { body } },
          DELETE: () => undefined,
        },
        '/v1/notes': { POST: { handler: update, config: { body, rejectUnknownFields: false } } },
      },
    });

    it('answers 400 listing every problem at once (spec 7.1.5)', async () => {
      const response = await api.handle(
        req('POST', '/v1/books', { headers: json, body: '{"title":"Too long","colour":"red"}' }),
      );
      expect(response).toEqual({
        status: 400,
        headers: jsonHeaders,
        body: JSON.stringify({
          errors: [
            { message: 'The field "title" must be at most 5 characters.', code: 40002 },
            { message: 'The field "year" is required.', code: 40003 },
            { message: 'The field "colour" is not known.', code: 40004 },
          ],
        }),
      });
    });

    it('answers an empty body with 400 code 40007', async () => {
      const response = await api.handle(req('PUT', '/v1/books/dune', { headers: json, body: '' }));
      expect(response).toEqual({
        status: 400,
        headers: jsonHeaders,
        body: errorBody('The request needs a JSON object body.', 40007),
      });
    });

    it('requires every field on PUT but none on PATCH (spec 4.2)', async () => {
      const put = await api.handle(
        req('PUT', '/v1/books/dune', { headers: json, body: '{"year":1965}' }),
      );
      expect(parse(put).errors).toEqual([
        { message: 'The field "title" is required.', code: 40003 },
      ]);
      const patch = await api.handle(
        req('PATCH', '/v1/books/dune', { headers: json, body: '{"year":1965}' }),
      );
      expect(patch).toEqual({ status: 200, headers: jsonHeaders, body: '{"year":1965}' });
    });

    it('still checks the fields a PATCH carries', async () => {
      const patch = await api.handle(
        req('PATCH', '/v1/books/dune', { headers: json, body: '{"year":"x"}' }),
      );
      expect(parse(patch).errors).toEqual([
        { message: 'The field "year" must be an integer.', code: 40002 },
      ]);
    });

    it('does not read or check a DELETE body', async () => {
      const input = req('DELETE', '/v1/books/dune', { headers: json, body: '{"title":5}' });
      const response = await api.handle(input);
      expect(response.status).toBe(204);
      expect(input.readBody).not.toHaveBeenCalled();
    });

    it('refuses body rules on a DELETE route at start-up, since they would never run', () => {
      expect(() =>
        make({
          routes: { '/v1/books/:id': { DELETE: { handler: () => undefined, config: { body } } } },
        }),
      ).toThrow(/`body` rules are never read on DELETE requests/);
    });

    it('accepts unknown fields when rejectUnknownFields is false', async () => {
      const response = await api.handle(
        req('POST', '/v1/notes', { headers: json, body: '{"title":"a","year":1,"extra":true}' }),
      );
      expect(parse(response)).toEqual({ title: 'a', year: 1, extra: true });
    });
  });

  describe('with a body the host already parsed', () => {
    it('uses parsedBody and never calls readBody', async () => {
      const { api } = make({ routes: { '/v1/books': { POST: (ctx) => ctx.body } } });
      const input = req('POST', '/v1/books', {
        headers: json,
        body: '{"from":"bytes"}',
        parsedBody: { value: { from: 'host' } },
      });
      expect(await api.handle(input)).toEqual({
        status: 200,
        headers: jsonHeaders,
        body: '{"from":"host"}',
      });
      expect(input.readBody).not.toHaveBeenCalled();
    });

    it('still checks the media type of a parsed body (415)', async () => {
      const handler = vi.fn();
      const { api } = make({ routes: { '/v1/books': { POST: handler } } });
      const input = req('POST', '/v1/books', {
        headers: { 'content-type': 'text/plain' },
        parsedBody: { value: 'hello' },
      });
      expect(await api.handle(input)).toEqual({
        status: 415,
        headers: jsonHeaders,
        body: errorBody(
          'Content-Type "text/plain" is not supported; send one of: application/json.',
          41500,
        ),
      });
      expect(handler).not.toHaveBeenCalled();
    });

    it('skips the media-type check when the host parsed no body', async () => {
      const { api } = make({ routes: { '/v1/books': { POST: () => noContent() } } });
      const input = req('POST', '/v1/books', { parsedBody: { value: undefined } });
      expect((await api.handle(input)).status).toBe(204);
    });

    it('checks a parsed body against the route schema', async () => {
      const { api } = make({
        routes: {
          '/v1/books': {
            POST: {
              handler: () => noContent(),
              config: { body: { title: { type: 'string', required: true } } },
            },
          },
        },
      });
      const input = req('POST', '/v1/books', { headers: json, parsedBody: { value: {} } });
      expect(parse(await api.handle(input)).errors).toEqual([
        { message: 'The field "title" is required.', code: 40003 },
      ]);
    });
  });
});

describe('the host binding', () => {
  const make2 = (plugins: Plugin[] = []) =>
    withHost({
      routes: {
        '/v1/books': { GET: () => books },
        '/v1/books/:id': { GET: (ctx) => ({ id: ctx.param('id') }) },
      },
      plugins,
    });

  it.each(['/v1/books', '/v1/books/caf%C3%A9', '/v1/books?Q=X'])('enter() lets %s go on', (url) => {
    const { host } = make2();
    expect(host.enter(req('GET', url))).toBeUndefined();
  });

  it('enter() answers an upper-case path with 404 before routing (spec 4.1.3)', () => {
    const { host } = make2();
    expect(host.enter(req('GET', '/v1/Books?page=2'))).toEqual({
      status: 404,
      headers: jsonHeaders,
      body: errorBody('Nothing found at /v1/Books: paths are entirely lower-case.', 40402),
    });
  });

  it('enter() answers synchronously when every hook is synchronous', () => {
    const { host } = make2();
    const response = host.enter(req('GET', '/v1/Books'));
    expect(isPromise(response)).toBe(false);
    expect((response as ApiResponse).status).toBe(404);
  });

  it('enter() answers with a promise when a preSerialization hook is async', async () => {
    const { host } = make2([{ name: 'p', preSerialization: async () => {} }]);
    const response = host.enter(req('GET', '/v1/Books'));
    expect(isPromise(response)).toBe(true);
    expect((await response)?.status).toBe(404);
  });

  it('context() matches the route view before any hook: route, params and allowed', () => {
    const { host } = make2();
    const ctx = host.context(req('GET', '/v1/books/caf%C3%A9'));
    expect(ctx.route?.pattern).toBe('/v1/books/:id');
    expect(ctx.params).toEqual({ id: 'café' });
    expect(ctx.allowed).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });

  it('serve() runs the table route the host dispatched, with its params', () => {
    const { api, host } = make2();
    const input = req('GET', '/v1/books/from-view');
    expect(host.enter(input)).toBeUndefined();
    const route = api.routes.find((r) => r.pattern === '/v1/books/:id')!;
    expect(host.serve(input, route, { id: 'from-view' })).toEqual({
      status: 200,
      headers: jsonHeaders,
      body: '{"id":"from-view"}',
    });
  });

  it('enter() runs the checks and serve() the body: the parsed body’s media type is checked', async () => {
    const preParsing = vi.fn(() => undefined);
    const { api, host } = withHost({
      routes: { '/v1/books': { POST: (ctx) => ctx.body } },
      plugins: [{ name: 'p', preParsing }],
    });
    const route = api.routes.find((r) => r.method === 'POST')!;
    const answer = async (input: RequestInput) =>
      (await host.enter(input)) ?? (await host.serve(input, route));
    const good = req('POST', '/v1/books', {
      headers: { 'content-type': 'application/json' },
      parsedBody: { value: { a: 1 } },
    });
    expect(await answer(good)).toEqual({ status: 200, headers: jsonHeaders, body: '{"a":1}' });
    const bad = req('POST', '/v1/books', {
      headers: { 'content-type': 'application/xml' },
      parsedBody: { value: '<a/>' },
    });
    expect((await answer(bad)).status).toBe(415);
    expect(preParsing).toHaveBeenCalledTimes(2);
  });

  it.each([
    ['GET', '/v1/nothing', 404, 'Nothing found at /v1/nothing.', 40401, undefined],
    [
      'DELETE',
      '/v1/books',
      405,
      'DELETE is not allowed on /v1/books; allowed: GET, HEAD, OPTIONS.',
      40500,
      'GET, HEAD, OPTIONS',
    ],
    [
      'GET',
      '/v1/Books',
      404,
      'Nothing found at /v1/Books: paths are entirely lower-case.',
      40402,
      undefined,
    ],
  ])(
    'serve() answers an unmatched %s %s from the view: %i',
    (method, url, status, message, code, allowHeader) => {
      const { host } = make2();
      const input = req(method, url);
      host.enter(input);
      const response = host.serve(input) as ApiResponse;
      expect(response).toEqual({
        status,
        headers: allowHeader ? { allow: allowHeader, ...jsonHeaders } : jsonHeaders,
        body: errorBody(message, code),
      });
    },
  );

  it('serve() answers OPTIONS with 204 and Allow (RFC 9110 §9.3.7)', () => {
    const { host } = make2();
    const input = req('OPTIONS', '/v1/books');
    host.enter(input);
    expect(host.serve(input)).toEqual({
      status: 204,
      headers: { allow: 'GET, HEAD, OPTIONS', ...nosniff },
      body: null,
    });
  });

  it('useAppRoutes() puts the app’s routes in the view: 405 and Allow list them', () => {
    const authenticate = vi.fn(() => undefined);
    const { host } = make2([{ name: 'id', authenticate }]);
    host.useAppRoutes([
      { method: 'POST', pattern: '/v1/books' },
      { method: 'GET', pattern: '/v1/native/:id', config: {} },
    ]);
    const native = host.context(req('GET', '/v1/native/7'));
    expect(native.route).toMatchObject({ method: 'GET', pattern: '/v1/native/:id', app: true });
    expect(native.params).toEqual({ id: '7' });
    const wrong = req('PUT', '/v1/books');
    host.enter(wrong);
    expect((host.serve(wrong) as ApiResponse).headers.allow).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('useAppRoutes() warns about a route the view cannot hold, naming it', () => {
    const { host, logger } = make2();
    host.useAppRoutes([{ method: 'GET', pattern: '/v1/native/:id(\\d+)' }]);
    expect(logger.warn).toHaveBeenCalledWith(expect.stringContaining('GET /v1/native/:id(\\d+)'));
  });

  it('fail() answers an ApiError with its status, unlogged', () => {
    const { host, logger } = make2();
    expect(host.fail(req('GET', '/v1/books'), forbidden('No.'))).toEqual({
      status: 403,
      headers: jsonHeaders,
      body: errorBody('No.', 40300),
    });
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('fail() answers anything else with a generic 500, logged with method and path', () => {
    const { host, logger } = make2();
    const error = new Error('secret');
    expect(host.fail(req('PUT', '/v1/books/x?y=1'), error)).toEqual({
      status: 500,
      headers: jsonHeaders,
      body: errorBody(generic, 50000),
    });
    expect(logger.error).toHaveBeenCalledWith(
      { err: error, method: 'PUT', path: '/v1/books/x' },
      'PUT /v1/books/x failed',
    );
  });

  it('the seams run preSerialization and onSend as handle() does', () => {
    const preSerialization = vi.fn();
    const onSend = vi.fn();
    const { host } = make2([{ name: 'p', preSerialization, onSend }]);
    host.enter(req('GET', '/v1/Books'));
    const unmatched = req('GET', '/v1/x');
    host.enter(unmatched);
    host.serve(unmatched);
    host.fail(req('GET', '/v1/x'), new Error('x'));
    host.finish(req('GET', '/v1/native'), 200, { native: true });
    expect(preSerialization).toHaveBeenCalledTimes(4);
    expect(onSend).toHaveBeenCalledTimes(4);
  });
});

describe('guard(): the checks before a handler the host runs itself', () => {
  const config = { body: { text: { type: 'string' as const, required: true } } };
  const guardOn = (options: ConventionsOptions = {}) => {
    const made = withHost(options);
    return { ...made, settings: made.host.settingsOf('POST', '/v1/notes', config) };
  };
  const json = { 'content-type': 'application/json' };

  it('lets a valid body through with the headers the checks added', () => {
    const { host, settings } = guardOn({
      plugins: [
        {
          name: 'p',
          preParsing: (ctx) => {
            ctx.responseHeaders.set('x-checked', 'yes');
          },
        },
      ],
    });
    const input = req('POST', '/v1/notes', {
      headers: json,
      parsedBody: { value: { text: 'hi' } },
    });
    const ctx = host.context(input);
    expect(host.guard(input, settings, {})).toEqual({ response: undefined, body: { text: 'hi' } });
    expect({ ...ctx.responseHeaders.record }).toEqual({ 'x-checked': 'yes' });
  });

  it('stops an invalid body with 400 listing every problem (spec 7.1.5)', () => {
    const { host, settings } = guardOn();
    const guarded = host.guard(
      req('POST', '/v1/notes', { headers: json, parsedBody: { value: { text: 5, extra: 1 } } }),
      settings,
      {},
    ) as { response: ApiResponse };
    expect(guarded.response.status).toBe(400);
    expect(parse(guarded.response).errors.map((e: { code: number }) => e.code)).toEqual([
      40002, 40004,
    ]);
  });

  it('stops a body of a media type the route does not read with 415 (spec 4.6)', () => {
    const { host, settings } = guardOn();
    const guarded = host.guard(
      req('POST', '/v1/notes', {
        headers: { 'content-type': 'text/plain' },
        parsedBody: { value: 'hi' },
      }),
      settings,
      {},
    ) as { response: ApiResponse };
    expect(guarded.response.status).toBe(415);
  });

  it('answers with a check’s early reply, through the response hooks', async () => {
    const { host, settings } = guardOn({
      plugins: [
        { name: 'early', preParsing: async () => ok({ early: true }) },
        {
          name: 'mark',
          preSerialization: (_ctx, out) => {
            out.headers.set('x-mark', '1');
          },
        },
      ],
    });
    const guarded = (await host.guard(req('POST', '/v1/notes'), settings, {})) as {
      response: ApiResponse;
    };
    expect(guarded.response.status).toBe(200);
    expect(guarded.response.headers['x-mark']).toBe('1');
    expect(parse(guarded.response)).toEqual({ early: true });
  });
});
