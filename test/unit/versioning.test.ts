import { afterEach, describe, expect, it, vi } from 'vitest';
import { addMonths } from '../../src/core/versioning/deprecation.ts';
import { type ApiResponse, bindHost, type RequestInput } from '../../src/host.ts';
import {
  type ConventionsOptions,
  conventions,
  type DeprecatedCall,
  type Deprecation,
  type Logger,
  negotiation,
  ok,
  type Plugin,
  type VersioningOptions,
  versioned,
  versioning,
} from '../../src/index.ts';

const quiet = () => ({
  error: vi.fn<Logger['error']>(),
  warn: vi.fn<NonNullable<Logger['warn']>>(),
});

const deprecation: Deprecation = {
  announced: '2026-01-15',
  sunset: '2026-07-15',
  successor: '/v2/authors',
  documentation: 'https://example.com/changes#authors',
};

const make = (
  config: Record<string, unknown>,
  options: VersioningOptions = {},
  more: Partial<ConventionsOptions> = {},
) =>
  conventions({
    lint: 'off',
    logger: quiet(),
    routes: {
      '/v1/authors': { GET: { handler: () => ({ authors: [], hasNext: false }), config } },
      '/v1/authors/:id': { GET: { handler: (ctx) => ({ id: ctx.param('id') }), config } },
      '/v2/authors': { GET: () => ({ authors: [], hasNext: false }) },
    },
    plugins: [versioning(options)],
    ...more,
  });

const get = (
  api: ReturnType<typeof conventions>,
  url: string,
  headers: Record<string, string> = {},
) => api.handle({ method: 'GET', url, headers: new Headers(headers) }) as ApiResponse;

const bodyOf = (res: ApiResponse) => JSON.parse(String(res.body));

afterEach(() => {
  vi.useRealTimers();
});

describe('addMonths (spec 9.8: six calendar months)', () => {
  it.each([
    ['2026-01-15', 6, '2026-07-15'],
    ['2026-08-31', 6, '2027-02-28'],
    ['2027-08-31', 6, '2028-02-29'],
    ['2026-12-31', 6, '2027-06-30'],
    ['2026-07-01', 6, '2027-01-01'],
  ])('%s plus %i months is %s', (from, months, to) => {
    expect(new Date(addMonths(Date.parse(from), months)).toISOString().slice(0, 10)).toBe(to);
  });
});

describe('deprecation checked at start-up (spec 9.8)', () => {
  it('refuses a sunset 5 months after the announcement with a TypeError naming the route', () => {
    expect(() =>
      make({ deprecation: { ...deprecation, announced: '2026-01-15', sunset: '2026-06-15' } }),
    ).toThrow(
      new TypeError(
        'Route "GET /v1/authors" deprecation: the sunset 2026-06-15 is less than 6 months after the announcement 2026-01-15; an endpoint stays served at least 6 months after its deprecation is announced (spec 9.8). Move the sunset to 2026-07-15 or later.',
      ),
    );
  });

  it('accepts a sunset exactly 6 months after the announcement', () => {
    expect(() => make({ deprecation })).not.toThrow();
  });

  it('refuses a sunset one day short of 6 months', () => {
    expect(() => make({ deprecation: { ...deprecation, sunset: '2026-07-14' } })).toThrow(
      /less than 6 months/,
    );
  });

  it.each<[string, Record<string, unknown>, RegExp]>([
    [
      'a date that is not ISO 8601',
      { sunset: '15/07/2026' },
      /`sunset` must be a Date or an ISO 8601 date/,
    ],
    ['an invalid Date', { announced: new Date('nope') }, /`announced` must be a Date/],
    ['a misspelt key', { sucessor: '/v2/authors' }, /Did you mean `successor`\?/],
    ['a successor with a space', { successor: '/v2/a b' }, /`successor` must be a URI or a path/],
    [
      'a documentation link with ">"',
      { documentation: 'https://x/>' },
      /`documentation` must be a URI/,
    ],
  ])('refuses %s with a TypeError naming the route', (_, change, message) => {
    expect(() => make({ deprecation: { ...deprecation, ...change } })).toThrow(TypeError);
    expect(() => make({ deprecation: { ...deprecation, ...change } })).toThrow(message);
    expect(() => make({ deprecation: { ...deprecation, ...change } })).toThrow(/GET \/v1\/authors/);
  });

  it('refuses a successor parameter the route does not have', () => {
    expect(() =>
      make({ deprecation: { ...deprecation, successor: '/v2/authors/:authorId' } }),
    ).toThrow(/uses the parameter :authorId, which the route's pattern does not have/);
  });

  it('refuses `deprecation` on a route when the versioning plugin is missing', () => {
    expect(() =>
      conventions({
        lint: 'off',
        routes: { '/v1/authors': { GET: { handler: () => ({}), config: { deprecation } } } },
      }),
    ).toThrow(
      /`deprecation` is read by the versioning\(\) plugin, which is not installed; add versioning\(\)/,
    );
  });

  it('checks the settings of the app’s own routes, as a host binding hands them over', () => {
    const host = bindHost<RequestInput>(make({}), { input: (input) => input });
    expect(() =>
      host.settingsOf('GET', '/v1/natives', {
        deprecation: { ...deprecation, sunset: '2026-02-01' },
      }),
    ).toThrow(/Route "GET \/v1\/natives" deprecation: the sunset 2026-02-01 is less than 6 months/);
  });

  it.each<[string, unknown]>([
    ['an unknown option', { onDeprecated: () => {} }],
    ['a hook that is not a function', { onDeprecatedCall: 'log' }],
    ['select without query or vendor', { select: {} }],
    ['a vendor with a space', { select: { vendor: 'ac me' } }],
    ['an apiVersion with a space', { apiVersion: '1 2' }],
  ])('versioning() refuses %s with a TypeError', (_, options) => {
    expect(() => versioning(options as VersioningOptions)).toThrow(TypeError);
  });
});

describe('deprecation headers (RFC 9745, RFC 8594)', () => {
  it('sends Deprecation as @epoch-seconds, Sunset as an HTTP-date and the Links', () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01'), toFake: ['Date'] });
    const res = get(make({ deprecation }), '/v1/authors');
    expect(res.status).toBe(200);
    expect(res.headers.deprecation).toBe(`@${Date.parse('2026-01-15') / 1000}`);
    expect(res.headers.sunset).toBe('Wed, 15 Jul 2026 00:00:00 GMT');
    expect(res.headers.link).toEqual([
      '</v2/authors>; rel="successor-version"',
      '<https://example.com/changes#authors>; rel="deprecation"',
      '<https://example.com/changes#authors>; rel="sunset"',
    ]);
  });

  it('fills a successor pattern with the request parameters, percent-encoded', () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01'), toFake: ['Date'] });
    const config = {
      deprecation: { ...deprecation, successor: '/v2/authors/:id', documentation: undefined },
    };
    const api = conventions({
      lint: 'off',
      routes: { '/v1/authors/:id': { GET: { handler: () => ({}), config } } },
      plugins: [versioning()],
    });
    expect(get(api, '/v1/authors/jane%20austen').headers.link).toBe(
      '</v2/authors/jane%20austen>; rel="successor-version"',
    );
  });

  it('sends none of them on a route that is not deprecated', () => {
    const res = get(make({ deprecation }), '/v2/authors');
    expect(res.headers.deprecation).toBeUndefined();
    expect(res.headers.sunset).toBeUndefined();
    expect(res.headers.link).toBeUndefined();
  });

  it('keeps a Link the handler sends beside its own (RFC 8288 §3)', () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01'), toFake: ['Date'] });
    const api = conventions({
      lint: 'off',
      routes: {
        '/v1/authors': {
          GET: {
            handler: () =>
              ok({ authors: [], hasNext: true }, { link: '</v1/authors?page=2>; rel="next"' }),
            config: { deprecation: { ...deprecation, documentation: undefined } },
          },
        },
      },
      plugins: [versioning()],
    });
    expect(get(api, '/v1/authors').headers.link).toEqual([
      '</v2/authors>; rel="successor-version"',
      '</v1/authors?page=2>; rel="next"',
    ]);
  });

  it('keeps a Link another plugin adds in the transform phase', () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01'), toFake: ['Date'] });
    const paging: Plugin = {
      name: 'paging',
      preSerialization(_ctx, out) {
        out.headers.append('link', '</v1/authors?page=2>; rel="next"');
      },
    };
    const api = make(
      { deprecation: { ...deprecation, documentation: undefined } },
      {},
      {
        plugins: [versioning(), paging],
      },
    );
    expect(get(api, '/v1/authors').headers.link).toEqual([
      '</v2/authors>; rel="successor-version"',
      '</v1/authors?page=2>; rel="next"',
    ]);
  });

  it('sends the headers on an error of the deprecated route too', () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01'), toFake: ['Date'] });
    const api = conventions({
      lint: 'off',
      logger: quiet(),
      routes: {
        '/v1/authors/:id': {
          GET: {
            handler: () => {
              throw new Error('boom');
            },
            config: { deprecation },
          },
        },
      },
      plugins: [versioning()],
    });
    const res = get(api, '/v1/authors/x');
    expect(res.status).toBe(500);
    expect(res.headers.sunset).toBe('Wed, 15 Jul 2026 00:00:00 GMT');
  });

  it('sends API-Version on every response when apiVersion is set (spec 9.5)', () => {
    const api = make({}, { apiVersion: '1.4.2' });
    expect(get(api, '/v2/authors').headers['api-version']).toBe('1.4.2');
    expect(get(api, '/v9/nothing').headers['api-version']).toBe('1.4.2');
  });
});

describe('after the sunset (spec 9.8)', () => {
  it('answers 410 with the error body, the headers and the successor named', () => {
    vi.useFakeTimers({ now: Date.parse('2026-07-15'), toFake: ['Date'] });
    const handler = vi.fn(() => ({}));
    const api = conventions({
      lint: 'off',
      routes: { '/v1/authors': { GET: { handler, config: { deprecation } } } },
      plugins: [versioning()],
    });
    const res = get(api, '/v1/authors');
    expect(res.status).toBe(410);
    expect(bodyOf(res)).toEqual({
      errors: [
        {
          message:
            'GET /v1/authors was retired on Wed, 15 Jul 2026 00:00:00 GMT. Use /v2/authors instead.',
          code: 41001,
        },
      ],
    });
    expect(res.headers.sunset).toBe('Wed, 15 Jul 2026 00:00:00 GMT');
    expect(res.headers.link).toContain('</v2/authors>; rel="successor-version"');
    expect(handler).not.toHaveBeenCalled();
  });

  it('serves the route until the last millisecond before the sunset', () => {
    vi.useFakeTimers({ now: Date.parse('2026-07-15') - 1, toFake: ['Date'] });
    expect(get(make({ deprecation }), '/v1/authors').status).toBe(200);
  });
});

describe('onDeprecatedCall', () => {
  const identify: Plugin = {
    name: 'identify',
    preParsing(ctx) {
      ctx.identity = { subject: 'alice', scopes: new Set(), via: 'bearer' };
    },
  };

  it('reports each call with route, identity and status, the 410s included', () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01'), toFake: ['Date'] });
    const calls: DeprecatedCall[] = [];
    const api = make(
      { deprecation },
      {},
      {
        plugins: [identify, versioning({ onDeprecatedCall: (call) => calls.push(call) })],
      },
    );
    get(api, '/v1/authors/jane');
    get(api, '/v2/authors');
    vi.setSystemTime(Date.parse('2026-08-01'));
    get(api, '/v1/authors');
    expect(calls).toEqual([
      {
        method: 'GET',
        route: '/v1/authors/:id',
        path: '/v1/authors/jane',
        version: undefined,
        identity: { subject: 'alice', scopes: new Set(), via: 'bearer' },
        status: 200,
        sunset: new Date('2026-07-15'),
      },
      expect.objectContaining({ route: '/v1/authors', status: 410 }),
    ]);
  });
});

describe('route lint (spec 9.8)', () => {
  const lintWith = (config: Record<string, unknown>) => {
    const logger = quiet();
    conventions({
      logger,
      routes: {
        '/v1/authors': { GET: { handler: () => ({}), config } },
        '/v2/authors': { GET: () => ({}) },
        '/v2/publishers': { GET: () => ({}) },
      },
      plugins: [versioning()],
    });
    return logger.warn.mock.calls.map(([message]) => String(message));
  };

  it('warns about a v1 route deprecated without a successor and names the v2 route', () => {
    const [warning] = lintWith({ deprecation: { ...deprecation, successor: undefined } });
    expect(warning).toContain('warning 9.8 deprecated-successor /v1/authors');
    expect(warning).toContain("successor: '/v2/authors'");
  });

  it('is quiet with a successor, with successor: null, and about a v2 route with no v1', () => {
    expect(lintWith({ deprecation })).toEqual([]);
    expect(lintWith({ deprecation: { ...deprecation, successor: null } })).toEqual([]);
  });
});

describe('version selection by query or media type (spec 9.2)', () => {
  const both = { query: 'version', vendor: 'acme' };
  const routes = (v1Deprecation?: Deprecation) => ({
    '/authors': {
      GET: versioned({
        1: v1Deprecation
          ? { handler: () => ({ v: 1 }), deprecation: v1Deprecation }
          : () => ({ v: 1 }),
        2: () => ({ v: 2 }),
      }),
    },
  });
  const build = (select = both, v1Deprecation?: Deprecation) =>
    conventions({
      lint: 'off',
      logger: quiet(),
      routes: routes(v1Deprecation),
      plugins: [versioning({ select })],
    });

  it('serves the lowest version when the request asks for none (spec 9.6)', () => {
    const res = get(build(), '/authors');
    expect(bodyOf(res)).toEqual({ v: 1 });
    expect(res.headers.vary).toBe('Accept');
  });

  it.each(['2', 'v2', 'V2'])('serves version 2 for ?version=%s', (asked) => {
    expect(bodyOf(get(build(), `/authors?version=${asked}`))).toEqual({ v: 2 });
  });

  it('serves version 2 for Accept: application/vnd.acme.v2+json and says so in Content-Type', () => {
    const res = get(build(), '/authors', {
      accept: 'application/vnd.acme.v2+json, application/json;q=0.5',
    });
    expect(bodyOf(res)).toEqual({ v: 2 });
    expect(res.headers['content-type']).toMatch(/^application\/vnd\.acme\.v2\+json/);
  });

  it("ignores another organisation's media type", () => {
    expect(bodyOf(get(build(), '/authors', { accept: 'application/vnd.other.v2+json' }))).toEqual({
      v: 1,
    });
  });

  it.each([
    'application/vnd.acme.v3+json',
    'application/vnd.acme.author.v3+json',
    'application/vnd.acme.v3+json, application/vnd.other.v1+json',
  ])(
    'answers Accept: %s, a version the route does not serve, with 406 listing the versions it serves (RFC 9110 §15.5.7)',
    (accept) => {
      const res = get(build(), '/authors', { accept });
      expect(res.status).toBe(406);
      expect(bodyOf(res).errors[0].code).toBe(40600);
      expect(bodyOf(res).errors[0].message).toContain(
        'it serves application/vnd.acme.v1+json, application/vnd.acme.v2+json',
      );
    },
  );

  it.each([
    ['application/vnd.acme.v3+json, application/json;q=0.5', 1],
    ['application/vnd.acme.v3+json, */*;q=0.1', 1],
    ['application/vnd.acme.v2+json;q=0, application/json', 1],
    ['application/json, application/vnd.acme.v2+json;q=0.5', 1],
    ['application/vnd.acme.v3+json, application/vnd.acme.v2+json;q=0.5', 2],
    ['application/vnd.acme.author.v2+json', 2],
    ['text/csv', 1],
  ])(
    'reads Accept %j as negotiation does, weights and wildcards included: version %i (RFC 9110 §12.5.1)',
    (accept, version) => {
      const res = get(build(), '/authors', { accept });
      expect(res.status).toBe(200);
      expect(bodyOf(res)).toEqual({ v: version });
    },
  );

  it('labels the answer with the version versioning chose when negotiation echoes another (the query wins)', () => {
    const api = conventions({
      lint: 'off',
      logger: quiet(),
      // The route declares the name, so negotiation serves it (docs/negotiation.md).
      routes: {
        '/authors': {
          GET: { handler: routes()['/authors'].GET, config: { vendorTypes: ['author'] } },
        },
      },
      plugins: [negotiation({ vendor: 'acme' }), versioning({ select: both })],
    });
    const res = get(api, '/authors?version=2', { accept: 'application/vnd.acme.author.v1+json' });
    expect(bodyOf(res)).toEqual({ v: 2 });
    expect(res.headers['content-type']).toBe('application/vnd.acme.author.v2+json');
    const v9 = get(api, '/authors', { accept: 'application/vnd.acme.v9+json' });
    expect(v9.status).toBe(406);
    expect(bodyOf(v9).errors[0].code).toBe(40600);
  });

  it.each(['3', 'two', '1.5', ''])('answers ?version=%s with 400 and code 40050', (asked) => {
    const res = get(build(), `/authors?version=${asked}`);
    expect(res.status).toBe(400);
    expect(bodyOf(res).errors[0].code).toBe(40050);
    expect(bodyOf(res).errors[0].message).toContain('it serves version 1, 2');
  });

  it('deprecates one version of a versioned endpoint only', () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01'), toFake: ['Date'] });
    const api = build(both, deprecation);
    expect(get(api, '/authors?version=1').headers.sunset).toBe('Wed, 15 Jul 2026 00:00:00 GMT');
    expect(get(api, '/authors?version=2').headers.sunset).toBeUndefined();
  });

  it('refuses versioned() handlers when versioning() selects nothing', () => {
    expect(() => conventions({ lint: 'off', routes: routes(), plugins: [versioning()] })).toThrow(
      /Route "GET \/authors" serves versioned\(\) handlers, but versioning\(\) selects no version/,
    );
  });

  it.each<[string, unknown]>([
    ['a version that is not a whole number', { '1.5': () => 1 }],
    ['a version without a handler', { 1: {} }],
    ['no version at all', {}],
  ])('versioned() refuses %s', (_, table) => {
    expect(() => versioned(table as never)).toThrow(TypeError);
  });
});
