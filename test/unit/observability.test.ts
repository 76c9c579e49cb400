/**
 * The observation hooks, request ids and the logger of a request, in
 * process through `api.handle`; over HTTP on every host in test/conformance/telemetry.test.ts.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiResponse } from '../../src/host.ts';
import { type ConventionsOptions, conventions, type Logger, type Plugin } from '../../src/index.ts';

const routes = {
  '/v1/books/:id': { GET: () => ({ ok: true }) },
  '/v1/failures': {
    GET: () => {
      throw new Error('failed on purpose');
    },
  },
};

const get = (url: string, headers: Record<string, string> = {}) => ({
  method: 'GET',
  url,
  headers: new Headers(headers),
});

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

async function idOf(options: ConventionsOptions, headers: Record<string, string> = {}) {
  const api = conventions({ routes, logger: { error() {}, warn() {} }, ...options });
  const response = (await api.handle(get('/v1/books/1', headers))) as ApiResponse;
  return response.headers;
}

describe('request ids (requestIds)', () => {
  it('keeps a bounded, well-formed X-Request-Id and echoes it', async () => {
    const headers = await idOf({ requestIds: true }, { 'x-request-id': 'Root=1-5f84c7a1/x:y@z' });
    expect(headers['x-request-id']).toBe('Root=1-5f84c7a1/x:y@z');
  });

  it.each([
    ['none', undefined],
    ['an empty one', ''],
    ['one with a space', 'a b'],
    ['one with a semicolon', 'a;b'],
    ['one with a quote', 'a"b'],
    ['one past 128 characters', 'x'.repeat(129)],
  ])('makes a new random UUID for %s', async (_, sent) => {
    const headers = await idOf(
      { requestIds: true },
      sent === undefined ? {} : { 'x-request-id': sent },
    );
    expect(headers['x-request-id']).toMatch(uuid);
  });

  it('makes a new id for every request with trustIncoming: false', async () => {
    const headers = await idOf({ requestIds: { trustIncoming: false } }, { 'x-request-id': 'abc' });
    expect(headers['x-request-id']).toMatch(uuid);
  });

  it('reads and echoes another header, and bounds a kept id by maxLength', async () => {
    const options = { requestIds: { header: 'X-Correlation-Id', maxLength: 4 } };
    expect((await idOf(options, { 'x-correlation-id': 'abcd' }))['x-correlation-id']).toBe('abcd');
    expect((await idOf(options, { 'x-correlation-id': 'abcde' }))['x-correlation-id']).toMatch(
      uuid,
    );
  });

  it('leaves responses without an id by default', async () => {
    expect((await idOf({}, { 'x-request-id': 'abc' }))['x-request-id']).toBeUndefined();
  });

  it.each([
    [{ requestIds: 'yes' }, /requestIds must be true, false or the options/],
    [{ requestIds: { heder: 'x' } }, /unknown option `heder`. Did you mean `header`\?/],
    [{ requestIds: { header: 'bad header' } }, /header must be a header name/],
    [{ requestIds: { trustIncoming: 1 } }, /trustIncoming must be true or false/],
    [{ requestIds: { maxLength: 0 } }, /maxLength must be a whole number from 1 to 256/],
  ])('refuses %o at start-up', (options, message) => {
    expect(() => conventions({ routes, ...(options as ConventionsOptions) })).toThrow(message);
  });
});

describe('the observation hooks', () => {
  it('see every request once as it is received and once with its final status', async () => {
    const seen: string[] = [];
    const watcher: Plugin = {
      name: 'watcher',
      onReceive: (ctx) => seen.push(`receive ${ctx.path} ${ctx.route?.pattern ?? '-'}`),
      onResponse: (ctx, status) => seen.push(`respond ${ctx.path} ${status}`),
    };
    // A plugin before it answers: the observer still sees the request first and its answer last.
    const teapot: Plugin = {
      name: 'teapot',
      onRequest: (ctx) => {
        if (ctx.path === '/v1/teapot') throw Object.assign(new Error('x'), { status: 418 });
      },
    };
    const api = conventions({ routes, plugins: [teapot, watcher], logger: quiet() });
    await api.handle(get('/v1/books/1'));
    await api.handle(get('/v1/teapot'));
    await api.handle(get('/v1/failures'));
    expect(seen).toEqual([
      'receive /v1/books/1 /v1/books/:id',
      'respond /v1/books/1 200',
      'receive /v1/teapot -',
      'respond /v1/teapot 418',
      'receive /v1/failures /v1/failures',
      'respond /v1/failures 500',
    ]);
  });

  it('log what an observer throws and still answer the request', async () => {
    const logger = quiet();
    const broken: Plugin = {
      name: 'broken',
      onReceive: () => {
        throw new Error('receive broke');
      },
      onResponse: () => {
        throw new Error('response broke');
      },
    };
    const api = conventions({ routes, plugins: [broken], logger });
    expect(((await api.handle(get('/v1/books/1'))) as ApiResponse).status).toBe(200);
    expect(logger.error.mock.calls.map(([, message]) => message)).toEqual([
      'a plugin failed as a request was received',
      'a plugin failed as a response was done',
    ]);
  });

  it('name a misspelt observation hook at start-up', () => {
    const plugin = { name: 'typo', onRecieve: () => {} } as Plugin;
    expect(() => conventions({ plugins: [plugin] })).toThrow(
      /`onRecieve` is not a hook. Did you mean `onReceive`\?/,
    );
  });
});

/** A logger of the Logger shape whose calls are kept. */
function quiet() {
  return { error: vi.fn<Logger['error']>(), warn: vi.fn<(message: string) => void>() };
}

/** A plugin that logs twice about each request it sees. */
const chatty: Plugin = {
  name: 'chatty',
  logFields: () => ({ tenant: 'acme' }),
  onSend(ctx) {
    ctx.logger.warn('first');
    ctx.logger.warn('second');
  },
};

describe('the logger of a request (ctx.logger)', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("gives pino one child per request that logs, bound to its id, route and the plugins' fields", async () => {
    const child = { error: vi.fn(), warn: vi.fn() };
    const pinoLike = { error: vi.fn(), warn: vi.fn(), child: vi.fn(() => child) };
    const quietOne = conventions({ routes, requestIds: true, logger: pinoLike });
    await quietOne.handle(get('/v1/books/1'));
    // A request that logs nothing makes no child.
    expect(pinoLike.child).not.toHaveBeenCalled();
    const api = conventions({ routes, requestIds: true, plugins: [chatty], logger: pinoLike });
    await api.handle(get('/v1/books/1', { 'x-request-id': 'r-1' }));
    expect(pinoLike.child).toHaveBeenCalledOnce();
    expect(pinoLike.child).toHaveBeenCalledWith({
      requestId: 'r-1',
      tenant: 'acme',
      route: '/v1/books/:id',
    });
    expect(child.warn.mock.calls).toEqual([['first'], ['second']]);
    expect(pinoLike.warn).not.toHaveBeenCalled();
  });

  it("writes the request's context at the end of the default logger's line", async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {});
    const api = conventions({ routes, requestIds: true });
    await api.handle(get('/v1/failures', { 'x-request-id': 'r-2' }));
    expect(error).toHaveBeenCalledOnce();
    expect(error.mock.calls[0]![0]).toBe(
      '[api-conventions] GET /v1/failures failed (requestId=r-2 route=/v1/failures)',
    );
    expect((error.mock.calls[0]![1] as Error).message).toBe('failed on purpose');
  });

  it("puts the context in another logger's error record and at the end of its warnings", async () => {
    const logger = quiet();
    const api = conventions({ routes, requestIds: true, plugins: [chatty], logger });
    await api.handle(get('/v1/failures', { 'x-request-id': 'r-3' }));
    expect(logger.error).toHaveBeenCalledWith(
      expect.objectContaining({ requestId: 'r-3', route: '/v1/failures', tenant: 'acme' }),
      'GET /v1/failures failed',
    );
    expect(logger.warn.mock.calls[0]).toEqual([
      'first (requestId=r-3 tenant=acme route=/v1/failures)',
    ]);
  });
});
