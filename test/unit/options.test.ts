import { afterEach, describe, expect, it, vi } from 'vitest';
import { assertInteger, assertKnownKeys } from '../../src/core/internal/options.ts';
import { bindHost, type RequestInput } from '../../src/host.ts';
import {
  type Conventions,
  type ConventionsOptions,
  conventions,
  type Logger,
  type RouteConfig,
} from '../../src/index.ts';

const known = ['bodyLimit', 'logger', 'maxAge', 'routes'];

/** A host bound to `api` whose native request is the core's input itself. */
const hostOf = (api: Conventions) => bindHost<RequestInput>(api, { input: (input) => input });

function fakeLogger() {
  return { error: vi.fn<Logger['error']>(), warn: vi.fn<NonNullable<Logger['warn']>>() };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('assertKnownKeys (CONTRIBUTING.md rule 5)', () => {
  it.each([
    ['bodyLimt', 'bodyLimit'],
    ['bodylimit', 'bodyLimit'],
    ['BODYLIMIT', 'bodyLimit'],
    ['body_limit', 'bodyLimit'],
    ['maxage', 'maxAge'],
    ['max-age', 'maxAge'],
    ['loger', 'logger'],
    ['route', 'routes'],
  ])('throws for `%s` and suggests the closest key `%s`', (key, suggestion) => {
    expect(() => assertKnownKeys('feature()', { [key]: 1 }, known)).toThrow(
      new TypeError(`feature(): unknown option \`${key}\`. Did you mean \`${suggestion}\`?`),
    );
  });

  it('lists the known options when no key is close', () => {
    expect(() => assertKnownKeys('feature()', { colour: 'red' }, known)).toThrow(
      new TypeError(
        'feature(): unknown option `colour`. Known options: bodyLimit, logger, maxAge, routes.',
      ),
    );
  });

  it('names the first unknown key', () => {
    expect(() =>
      assertKnownKeys('feature()', { bodyLimit: 1, colour: 1, loger: 1 }, known),
    ).toThrow('unknown option `colour`');
  });

  it.each([[{}], [{ bodyLimit: 1, routes: {} }], [undefined]])('accepts %j', (options) => {
    expect(() => assertKnownKeys('feature()', options, known)).not.toThrow();
  });

  it.each([
    ['null', null],
    ['an array', []],
    ['a string', 'bodyLimit'],
    ['a number', 1],
    ['a function', () => ({})],
  ])('throws a TypeError when options is %s', (_, options) => {
    expect(() => assertKnownKeys('feature()', options as unknown as object, known)).toThrow(
      new TypeError('feature(): options must be an object.'),
    );
  });
});

describe('assertInteger (CONTRIBUTING.md rule 6)', () => {
  it.each([0, 1, 50, 100])('returns %i within [0, 100]', (value) => {
    expect(assertInteger('limit', value, 0, 100)).toBe(value);
  });

  it.each([
    [-1, '-1'],
    [101, '101'],
    [1.5, '1.5'],
    [Number.NaN, 'NaN'],
    [Number.POSITIVE_INFINITY, 'Infinity'],
    ['5', '5'],
    [null, 'null'],
    [undefined, 'undefined'],
  ])('throws a TypeError for %j that says how to fix it', (value, shown) => {
    expect(() => assertInteger('limit', value, 0, 100)).toThrow(
      new TypeError(`limit must be a whole number from 0 to 100; got ${shown}.`),
    );
  });
});

describe('conventions() options', () => {
  it('throws a TypeError for a misspelt key with the hint', () => {
    expect(() => conventions({ bodyLimt: 1 } as unknown as ConventionsOptions)).toThrow(
      new TypeError('conventions(): unknown option `bodyLimt`. Did you mean `bodyLimit`?'),
    );
  });

  it('throws a TypeError when the options are not an object', () => {
    expect(() => conventions(null as unknown as ConventionsOptions)).toThrow(
      new TypeError('conventions(): options must be an object.'),
    );
  });

  it.each([
    [-1, '-1'],
    [1.5, '1.5'],
    [2 ** 31 + 1, '2147483649'],
  ])('throws a TypeError for bodyLimit %s', (bodyLimit, shown) => {
    expect(() => conventions({ bodyLimit })).toThrow(
      new TypeError(`bodyLimit must be a whole number from 0 to 2147483648; got ${shown}.`),
    );
  });

  it('defaults bodyLimit to 1 MiB', () => {
    expect(hostOf(conventions()).bodyLimit).toBe(1_048_576);
    expect(hostOf(conventions({ bodyLimit: 0 })).bodyLimit).toBe(0);
  });

  it('throws a TypeError for a lint mode it does not know', () => {
    expect(() => conventions({ lint: 'loud' as 'warn' })).toThrow(
      new TypeError("lint must be 'warn', 'throw' or 'off'; got loud."),
    );
  });

  it('throws a TypeError for a plugin without a name', () => {
    expect(() => conventions({ plugins: [{} as { name: string }] })).toThrow(
      new TypeError('plugins[0] needs a `name`: every plugin is an object with a name.'),
    );
  });

  it("lint 'throw' throws a TypeError listing routes that break the path rules (spec 4.1.3)", () => {
    const create = () =>
      conventions({ lint: 'throw', routes: { '/v1/userProfiles': { GET() {} } } });
    expect(create).toThrow(TypeError);
    expect(create).toThrow(
      /^The routes break the path rules:\nerror 4\.1\.3 lower-case \/v1\/userProfiles: /,
    );
    expect(create).toThrow('Fix: declare it as /v1/user-profiles');
  });

  it.each([
    ['/v1/userProfiles', 'lower-case', '/v1/user-profiles'],
    ['/v1/books/', 'trailing-slash', '/v1/books'],
  ])(
    "lint 'warn' throws for %s, which no request can reach (%s), naming the fix",
    (pattern, rule, fix) => {
      const logger = fakeLogger();
      const create = () => conventions({ logger, routes: { [pattern]: { GET() {} } } });
      expect(create).toThrow(TypeError);
      expect(create).toThrow(
        new RegExp(`^The routes break the path rules:\\nerror [\\d.]+ ${rule} `),
      );
      expect(create).toThrow(`Fix: declare it as ${fix}`);
      expect(logger.warn).not.toHaveBeenCalled();
    },
  );

  it("lint 'warn' (the default) reports every finding through one logger.warn call", () => {
    const logger = fakeLogger();
    conventions({
      logger,
      routes: { '/v1/book/:id': { GET() {}, POST() {} }, '/v1/person/:id': { POST() {} } },
    });
    expect(logger.warn).toHaveBeenCalledOnce();
    const [text] = logger.warn.mock.calls[0]!;
    expect(text).toMatch(/^route lint:\nwarning 4\.1\.4 plural-collection /);
    expect(text).toContain('Fix: declare it as /v1/books/:id');
    expect(text).toContain('Fix: declare it as /v1/people/:id');
    expect(logger.error).not.toHaveBeenCalled();
  });

  it("lint 'warn' falls back to console.warn when the logger has no warn", () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {});
    conventions({ logger: { error() {} }, routes: { '/v1/book/:id': { GET() {} } } });
    expect(spy).toHaveBeenCalledOnce();
    expect(spy.mock.calls[0]?.[0]).toMatch(/^\[api-conventions\] route lint:\n/);
  });

  it("lint 'off' reports nothing", () => {
    const logger = fakeLogger();
    expect(() =>
      conventions({ lint: 'off', logger, routes: { '/v1/userProfiles': { GET() {} } } }),
    ).not.toThrow();
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('warns about nothing for routes that follow the path rules', () => {
    const logger = fakeLogger();
    conventions({ logger, routes: { '/v1/books': { GET() {} }, '/v1/books/:id': { GET() {} } } });
    expect(logger.warn).not.toHaveBeenCalled();
  });

  it('lint() returns the findings for the app’s own routes, as warnings only', () => {
    const api = conventions({ lint: 'off' });
    expect(hostOf(api).lint([{ method: 'GET', path: '/v1/book/:id' }])).toEqual([]);
    const logger = fakeLogger();
    const warned = hostOf(conventions({ logger, lint: 'throw' }));
    const findings = warned.lint([{ method: 'GET', path: '/v1/book/:id' }]);
    expect(findings.map((f) => [f.severity, f.rule, f.fix])).toEqual([
      ['warning', 'plural-collection', '/v1/books/:id'],
    ]);
    expect(logger.warn).toHaveBeenCalledOnce();
  });
});

describe('route settings are checked at start-up (CONTRIBUTING.md rule 6)', () => {
  const handler = () => ({});
  const build = (config: object, plugins: ConventionsOptions['plugins'] = []) =>
    conventions({
      lint: 'off',
      plugins,
      routes: { '/v1/books': { POST: { handler, config: config as RouteConfig } } },
    });

  it.each([
    [
      { bodyLimt: 10 },
      'Route "POST /v1/books" config: unknown option `bodyLimt`. Did you mean `bodyLimit`?',
    ],
    [
      { accepts: ['xml'] },
      'Route "POST /v1/books" config: `accepts` must list body formats from json, form.',
    ],
    [
      { bodyLimit: -1 },
      'Route "POST /v1/books" config: bodyLimit must be a whole number from 0 to 2147483648; got -1.',
    ],
    [
      { body: { title: { type: 'text' } } },
      'Route "POST /v1/books" config: body field "title" has an unknown type "text"; use one of string, integer, number, boolean, object, array, date-time.',
    ],
    [
      { body: { title: { type: 'string', requred: true } } },
      'Route "POST /v1/books" config: body field "title": unknown option `requred`. Did you mean `required`?',
    ],
    [
      { body: { title: { type: 'string', pattern: '^a' } } },
      'Route "POST /v1/books" config: body field "title": `pattern` must be a RegExp.',
    ],
  ])('refuses %j with a TypeError that says how to fix it', (config, message) => {
    expect(() => build(config)).toThrow(new TypeError(message));
  });

  it('accepts the keys a plugin declares it reads', () => {
    expect(() => build({ scopes: ['books:write'] })).toThrow(TypeError);
    expect(() =>
      build({ scopes: ['books:write'] }, [{ name: 'auth', routeConfig: ['scopes'] }]),
    ).not.toThrow();
  });

  it('checks the settings a host hands settingsOf()', () => {
    const host = hostOf(conventions({ lint: 'off' }));
    expect(host.settingsOf('POST', '/v1/notes', { bodyLimit: 64 })).toEqual({
      method: 'POST',
      pattern: '/v1/notes',
      config: { bodyLimit: 64 },
      app: true,
    });
    expect(() => host.settingsOf('POST', '/v1/notes', { accept: ['json'] } as RouteConfig)).toThrow(
      'Route "POST /v1/notes" config: unknown option `accept`. Did you mean `accepts`?',
    );
  });
});
