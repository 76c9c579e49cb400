import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ApiResponse } from '../../src/host.ts';
import {
  type ConventionsOptions,
  conventions,
  forbidden,
  hasScopes,
  type Identity,
  type Logger,
  noContent,
  type Plugin,
  type RouteInfo,
} from '../../src/index.ts';

function fakeLogger() {
  return { error: vi.fn<Logger['error']>(), warn: vi.fn<NonNullable<Logger['warn']>>() };
}

const make = (options: ConventionsOptions) =>
  conventions({ lint: 'off', logger: fakeLogger(), ...options });

const get = (api: ReturnType<typeof make>, url: string, method = 'GET') =>
  api.handle({ method, url, headers: new Headers() }) as ApiResponse;

/** A plugin that records, in `seen`, when its preParsing hook ran. */
const marker = (seen: string[], name: string, more: Partial<Plugin> = {}): Plugin => ({
  name,
  preParsing() {
    seen.push(name);
  },
  ...more,
});

const books = { '/v1/books': { GET: () => ({ books: [], hasNext: false }) } };

describe('plugin registration', () => {
  it('refuses two plugins of one name with a TypeError naming it', () => {
    expect(() => make({ plugins: [{ name: 'cors' }, { name: 'cors' }] })).toThrow(
      new TypeError(
        'Two plugins are named "cors"; names are unique, so register each plugin once.',
      ),
    );
  });

  it.each<[string, unknown]>([
    ['an object', { name: 'cors' }],
    ['a function', () => ({ name: 'cors' })],
  ])('refuses plugins given as %s, not an array', (_, plugins) => {
    expect(() => make({ plugins: plugins as Plugin[] })).toThrow(
      /`plugins` must be an array of plugins/,
    );
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['a string', 'cors'],
    ['an object without a name', { onRequest() {} }],
    ['a name that is not a string', { name: 7 }],
  ])('refuses %s as a plugin with a TypeError naming its index', (_, plugin) => {
    expect(() => make({ plugins: [{ name: 'ok' }, plugin as Plugin] })).toThrow(
      new TypeError('plugins[1] needs a `name`: every plugin is an object with a name.'),
    );
  });

  it.each([
    ['onRequst', 'onRequest'],
    ['preHandle', 'preHandler'],
    ['onsend', 'onSend'],
    ['preSerialisation', 'preSerialization'],
  ])('refuses the misspelt hook %s with a TypeError suggesting %s', (typo, hook) => {
    const plugin = { name: 'typo', [typo]: () => {} } as unknown as Plugin;
    expect(() => make({ plugins: [plugin] })).toThrow(
      new TypeError(`Plugin "typo": \`${typo}\` is not a hook. Did you mean \`${hook}\`?`),
    );
  });

  it('lets a plugin keep its own state and helpers under names no hook is close to', () => {
    const plugin = { name: 'own', onSendCount: 0, limits: { perMinute: 10 }, compute: () => 1 };
    expect(() => make({ plugins: [plugin] })).not.toThrow();
  });

  it.each([
    ['dependencies', 'auth'],
    ['dependencies', ['auth', 3]],
  ])('refuses %s that is not a list of plugin names', (key, value) => {
    const plugin = { name: 'p', [key]: value } as unknown as Plugin;
    expect(() => make({ plugins: [plugin] })).toThrow(
      new TypeError(`Plugin "p": \`${key}\` must be a list of plugin names.`),
    );
  });
});

describe('plugin order', () => {
  const order = (plugins: (seen: string[]) => Plugin[]) => {
    const seen: string[] = [];
    get(make({ routes: books, plugins: plugins(seen) }), '/v1/books');
    return seen;
  };

  it('runs plugins in the order given when nothing else says', () => {
    expect(order((s) => [marker(s, 'a'), marker(s, 'b'), marker(s, 'c')])).toEqual(['a', 'b', 'c']);
  });

  it('runs a plugin after its dependencies, wherever they are listed', () => {
    expect(
      order((s) => [
        marker(s, 'limits', { dependencies: ['auth'] }),
        marker(s, 'audit'),
        marker(s, 'auth'),
      ]),
    ).toEqual(['auth', 'limits', 'audit']);
  });

  it('runs every authenticate hook before any preParsing hook, whatever the plugin order', () => {
    const seen: string[] = [];
    const limits: Plugin = {
      name: 'limits',
      preParsing: (ctx) => {
        seen.push(`limits sees ${ctx.identity?.subject}`);
      },
    };
    const auth: Plugin = {
      name: 'auth',
      authenticate: (ctx) => {
        ctx.identity = { subject: 'alice', scopes: new Set(), via: 'test' };
        seen.push('auth');
      },
    };
    get(make({ routes: books, plugins: [limits, auth] }), '/v1/books');
    expect(seen).toEqual(['auth', 'limits sees alice']);
  });

  it('refuses a missing dependency with a TypeError saying what to add', () => {
    expect(() => make({ plugins: [{ name: 'limits', dependencies: ['auth'] }] })).toThrow(
      new TypeError('Plugin "limits" needs the plugin "auth"; add it to `plugins`.'),
    );
  });

  it.each<[string, Plugin[], string]>([
    [
      'two dependencies',
      [
        { name: 'a', dependencies: ['b'] },
        { name: 'b', dependencies: ['a'] },
      ],
      '"a", "b"',
    ],
    [
      'three dependencies',
      [
        { name: 'a', dependencies: ['b'] },
        { name: 'b', dependencies: ['c'] },
        { name: 'c', dependencies: ['a'] },
        { name: 'free' },
      ],
      '"a", "b", "c"',
    ],
    ['a plugin needing itself', [{ name: 'a', dependencies: ['a'] }], '"a"'],
  ])('refuses a cycle of %s with a TypeError naming the plugins in it', (_, plugins, names) => {
    expect(() => make({ plugins })).toThrow(
      new TypeError(`The plugins ${names} wait for each other (their dependencies form a cycle).`),
    );
  });
});

describe('routes a plugin contributes', () => {
  const status: Plugin = {
    name: 'status',
    routes: { '/v1/status': { GET: () => ({ up: true }) } },
  };

  it('serves them beside the route table, with 405 and Allow on their paths', () => {
    const api = make({ routes: books, plugins: [status] });
    expect(get(api, '/v1/status')).toMatchObject({ status: 200, body: '{"up":true}' });
    expect(get(api, '/v1/books').status).toBe(200);
    expect(get(api, '/v1/status', 'DELETE')).toMatchObject({
      status: 405,
      headers: { allow: 'GET, HEAD, OPTIONS' },
    });
  });

  it('adds methods to a path of the table when they are new there', () => {
    const extra: Plugin = { name: 'extra', routes: { '/v1/books': { POST: () => noContent() } } };
    const api = make({ routes: books, plugins: [extra] });
    expect(get(api, '/v1/books', 'POST').status).toBe(204);
    expect(get(api, '/v1/books', 'OPTIONS').headers.allow).toBe('GET, HEAD, POST, OPTIONS');
  });

  it('calls onRoute with contributed routes too', () => {
    const onRoute = vi.fn<(route: RouteInfo) => void>();
    make({ routes: books, plugins: [status, { name: 'watch', onRoute }] });
    const seen = onRoute.mock.calls.map(([r]) => `${r.method} ${r.pattern}`);
    expect(seen).toContain('GET /v1/status');
    expect(seen).toContain('GET /v1/books');
  });

  it('refuses a route the table already serves with a TypeError naming both', () => {
    const clash: Plugin = { name: 'clash', routes: { '/v1/books': { GET: () => ({}) } } };
    expect(() => make({ routes: books, plugins: [clash] })).toThrow(
      new TypeError('Plugin "clash" declares GET /v1/books, which the route table already serves.'),
    );
  });

  it("leaves a plugin's own route, spread into the table with settings of its own, to the table", () => {
    const handler = () => ({ up: true });
    const own: Plugin = { name: 'own', routes: { '/v1/status': { GET: handler } } };
    const settled = { '/v1/status': { GET: { handler, config: { bodyLimit: 10 } } } };
    const api = make({ routes: { ...books, ...settled }, plugins: [own] });
    const route = api.routes.find((r) => r.pattern === '/v1/status');
    expect(route?.config.bodyLimit).toBe(10);
    expect(get(api, '/v1/status')).toMatchObject({ status: 200, body: '{"up":true}' });
  });

  it('serves them when the service declares no route table', () => {
    const api = make({ plugins: [status] });
    expect(api.routes.map((r) => `${r.method} ${r.pattern}`)).toContain('GET /v1/status');
    expect(get(api, '/v1/status')).toMatchObject({ status: 200, body: '{"up":true}' });
  });

  it('refuses a route another plugin already serves', () => {
    expect(() =>
      make({ routes: books, plugins: [status, { ...status, name: 'status-2' }] }),
    ).toThrow(
      new TypeError(
        'Plugin "status-2" declares GET /v1/status, which Plugin "status" already serves.',
      ),
    );
  });
});

describe('identity', () => {
  const alice: Identity = {
    subject: 'alice',
    scopes: new Set(['books:read', 'books:write']),
    via: 'bearer',
  };

  it.each<[string, Identity | undefined, string[], boolean]>([
    ['no identity', undefined, ['books:read'], false],
    ['no identity, no scope asked', undefined, [], false],
    ['one scope held', alice, ['books:read'], true],
    ['every scope held', alice, ['books:read', 'books:write'], true],
    ['one scope missing', alice, ['books:read', 'books:delete'], false],
    ['no scope asked', alice, [], true],
    ['a scope of another case', alice, ['Books:Read'], false],
  ])('hasScopes with %s is %s', (_, identity, scopes, expected) => {
    expect(hasScopes(identity, ...scopes)).toBe(expected);
  });

  it('carries the identity a plugin established to the handler', () => {
    const auth: Plugin = {
      name: 'auth',
      preParsing(ctx) {
        if (ctx.headers.get('authorization') === 'Bearer alice') ctx.identity = alice;
      },
    };
    const api = make({
      plugins: [auth],
      routes: {
        '/v1/books': {
          GET: (ctx) => {
            if (!hasScopes(ctx.identity, 'books:read')) throw forbidden('You may not read books.');
            return { reader: ctx.identity!.subject, via: ctx.identity!.via };
          },
        },
      },
    });
    const as = (authorization?: string) =>
      api.handle({
        method: 'GET',
        url: '/v1/books',
        headers: new Headers(authorization ? { authorization } : {}),
      }) as ApiResponse;
    expect(as('Bearer alice')).toMatchObject({
      status: 200,
      body: '{"reader":"alice","via":"bearer"}',
    });
    expect(as()).toMatchObject({ status: 403 });
  });
});

describe('development warnings', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  const post = (options: ConventionsOptions = {}) => {
    const logger = fakeLogger();
    const api = conventions({
      lint: 'off',
      logger,
      routes: {
        '/v1/books': { POST: () => undefined },
        '/v1/notes': { POST: () => undefined, PUT: () => undefined },
        '/v1/drafts': { POST: () => noContent() },
      },
      ...options,
    });
    const send = (url: string, method = 'POST') =>
      api.handle({ method, url, headers: new Headers() });
    return { send, logger };
  };

  it('warns once per route when a POST handler returns nothing, and still answers 204', () => {
    const { send, logger } = post({ development: true });
    expect((send('/v1/books') as ApiResponse).status).toBe(204);
    send('/v1/books');
    send('/v1/notes');
    expect(logger.warn.mock.calls).toEqual([
      [
        'POST /v1/books returned nothing, so it answered 204; return created(location, data) for a 201, or noContent() to say 204 on purpose. (route=/v1/books)',
      ],
      [expect.stringMatching(/^POST \/v1\/notes returned nothing/)],
    ]);
  });

  it('does not warn for noContent() or a PUT that returns nothing', () => {
    const { send, logger } = post({ development: true });
    send('/v1/drafts');
    send('/v1/notes', 'PUT');
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('does not warn with development: false', () => {
    const { send, logger } = post({ development: false });
    send('/v1/books');
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('does not warn by default when NODE_ENV is production', () => {
    vi.stubEnv('NODE_ENV', 'production');
    const { send, logger } = post();
    send('/v1/books');
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('warns by default when NODE_ENV is not production', () => {
    vi.stubEnv('NODE_ENV', 'test');
    const { send, logger } = post();
    send('/v1/books');
    expect(logger.warn).toHaveBeenCalledOnce();
  });
});
