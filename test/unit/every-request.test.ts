/**
 * Plugins that see every request (`seesEveryRequest`): they run after an earlier pre-routing
 * answer, before a host error raised ahead of pre-routing, and on the host's own answers.
 */
import { describe, expect, it } from 'vitest';
import {
  type ApiResponse,
  bindHost,
  type RefusalResponse,
  type RequestInput,
  refusalResponse,
  refusalResponseFor,
  type Step,
} from '../../src/host.ts';
import {
  type CheckResult,
  conventions,
  forbidden,
  noContent,
  type Plugin,
  type RequestContext,
  rateLimit,
  tooManyRequests,
} from '../../src/index.ts';

const quiet = { error() {}, warn() {} };
const input = (method: string, url: string, remoteAddress = '192.0.2.1'): RequestInput => ({
  method,
  url,
  headers: new Headers(),
  remoteAddress,
});
const codeOf = (response: ApiResponse) =>
  JSON.parse(response.body as string).errors[0].code as number;

/** A plugin whose pre-routing hook answers as `answer` says. */
const answering = (answer: (ctx: RequestContext) => Step<CheckResult>): Plugin => ({
  name: 'answering',
  onRequest: answer,
});

/** A plugin that records the requests it sees and does as `then` says. */
function watcher(name: string, every: boolean, then: () => Step<CheckResult> = () => undefined) {
  const seen: string[] = [];
  const plugin: Plugin = {
    name,
    seesEveryRequest: every,
    onRequest(ctx) {
      seen.push(`${ctx.method} ${ctx.path}`);
      return then();
    },
  };
  return { plugin, seen };
}

const routes = { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } };

describe('a plugin that sees every request', () => {
  it.each([
    ['a reply', () => noContent(), 204],
    [
      'a thrown error',
      () => {
        throw forbidden('No.');
      },
      403,
    ],
    ['a later reply', () => Promise.resolve(noContent()), 204],
    ['a rejection', () => Promise.reject(forbidden('No.')), 403],
  ])(
    'still runs after an earlier plugin answered with %s, which stands',
    async (_what, answer, status) => {
      const every = watcher('every', true);
      const other = watcher('other', false);
      const api = conventions({
        routes,
        logger: quiet,
        plugins: [answering(answer), other.plugin, every.plugin],
      });
      const response = await api.handle(input('OPTIONS', '/v1/books'));
      expect(response.status).toBe(status);
      expect(every.seen).toEqual(['OPTIONS /v1/books']);
      expect(other.seen).toEqual([]);
    },
  );

  it('answers with the first error it throws instead, sync or async, and its reply is ignored', async () => {
    const ignored = watcher('ignored', true, () => noContent());
    const first = watcher('first', true, () => Promise.reject(tooManyRequests(5)));
    const second = watcher('second', true, () => {
      throw forbidden('Later.');
    });
    const api = conventions({
      routes,
      logger: quiet,
      plugins: [
        answering(() => {
          throw forbidden('No.');
        }),
        ignored.plugin,
        first.plugin,
        second.plugin,
      ],
    });
    const response = await api.handle(input('POST', '/v1/books'));
    expect(response.status).toBe(429);
    expect(response.headers['retry-after']).toBe('5');
    expect([ignored.seen, first.seen, second.seen]).toEqual([
      ['POST /v1/books'],
      ['POST /v1/books'],
      ['POST /v1/books'],
    ]);
  });

  it('sees an error a host raised before pre-routing, and a request its router did not match', async () => {
    const every = watcher('every', true);
    const api = conventions({ routes, logger: quiet, plugins: [every.plugin] });
    const host = bindHost<RequestInput>(api, { input: (request) => request });
    const failed = await host.fail(input('GET', '/v1/books'), forbidden('No.'));
    expect(failed.status).toBe(403);
    const unmatched = await host.serve(input('GET', '/v1/%zz'));
    expect(unmatched.status).toBe(400);
    expect(every.seen).toEqual(['GET /v1/books', 'GET /v1/%zz']);
  });

  it('is a start-up TypeError when not true or false', () => {
    const plugin = { name: 'odd', seesEveryRequest: 'yes', onRequest() {} } as unknown as Plugin;
    expect(() => conventions({ plugins: [plugin] })).toThrow(/seesEveryRequest.*true or false/);
  });
});

describe('refusalResponseFor()', () => {
  const limited = (trustProxy?: string) =>
    conventions({
      routes,
      logger: quiet,
      plugins: [rateLimit({ policies: [{ limit: 1, window: 60 }] })],
      ...(trustProxy ? { trustProxy } : {}),
    });

  it('is the uncounted answer when no plugin sees every request', () => {
    const api = conventions({ routes, logger: quiet });
    expect(refusalResponseFor(api, 'headerLine', '192.0.2.1')).toBe(
      refusalResponse(api, 'headerLine'),
    );
  });

  it('counts the request by its address, then answers 429 with the error body (spec 8.2)', () => {
    const api = limited();
    const first = refusalResponseFor(api, 'headerLine', '192.0.2.1') as RefusalResponse;
    expect(first.status).toBe(400);
    expect(first.headers['x-ratelimit-remaining']).toBe('0');
    expect(first.raw).toContain('x-ratelimit-remaining: 0\r\n');
    const second = refusalResponseFor(api, 'headerLine', '192.0.2.1') as RefusalResponse;
    expect(second.status).toBe(429);
    expect(codeOf(second)).toBe(42900);
    expect(second.headers).toMatchObject({
      'retry-after': expect.stringMatching(/^[1-9]\d*$/),
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      connection: 'close',
    });
    expect(second.raw.startsWith('HTTP/1.1 429 Too Many Requests\r\n')).toBe(true);
    // The same budget as the address's other requests without credentials.
    expect(api.handle(input('GET', '/v1/books'))).toMatchObject({ status: 429 });
    expect(refusalResponseFor(api, 'headerLine', '192.0.2.2')).toMatchObject({ status: 400 });
  });

  it('leaves a request from a trusted proxy uncounted: the client behind it is unknown', () => {
    const api = limited('loopback');
    for (let n = 0; n < 3; n++) {
      expect(refusalResponseFor(api, 'timeout', '127.0.0.1')).toBe(refusalResponse(api, 'timeout'));
    }
  });
});
