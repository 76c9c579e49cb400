import { describe, expect, it } from 'vitest';
import {
  assertLowerCasePath,
  decodeParam,
  hasUpperCase,
  normalizeTarget,
  splitTarget,
} from '../../src/core/index.ts';
import { boundedEcho } from '../../src/core/paths/echo.ts';
import { ApiError } from '../../src/index.ts';
import { thrown } from './_thrown.ts';

describe('hasUpperCase (spec 4.1.3)', () => {
  it.each([
    ['/v1/Books', true],
    ['/V1/books', true],
    ['/v1/books/Dune', true],
    ['/v1/userProfiles', true],
    ['/v1/books/%2FX', true],
    ['/v1/books/%ZZ', true],
    ['/v1/books', false],
    ['/v1/books/dune', false],
    ['/v1/books/%2F', false],
    ['/v1/books/%2f', false],
    ['/v1/caf%C3%A9', false],
    ['/v1/books/%E6%97%A5%E6%9C%AC', false],
    ['/v1/books/%2', false],
    ['/v1/book-imports/42', false],
    ['/', false],
    ['', false],
  ])('%s → %s (percent-encoding hex is not a letter of the path)', (path, expected) => {
    expect(hasUpperCase(path)).toBe(expected);
  });
});

describe('assertLowerCasePath', () => {
  it('throws 404 code 40402 naming the path, with no Location to the lower-case path (spec 4.1.3)', () => {
    const error = thrown(() => assertLowerCasePath('/v1/Books'));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 404,
      code: 40402,
      message: 'Nothing found at /v1/Books: paths are entirely lower-case.',
      headers: undefined,
    });
  });

  it('repeats at most the first 100 characters of a long path', () => {
    const path = `/v1/B${'o'.repeat(300)}ks`;
    const error = thrown(() => assertLowerCasePath(path)) as ApiError;
    expect(error.message).toBe(
      `Nothing found at ${path.slice(0, 100)}…: paths are entirely lower-case.`,
    );
  });

  it.each(['/v1/books', '/v1/caf%C3%A9'])('lets %s through', (path) => {
    expect(() => assertLowerCasePath(path)).not.toThrow();
  });
});

describe('splitTarget', () => {
  it.each([
    ['/v1/books', { path: '/v1/books', query: '' }],
    ['/v1/books?page=2&per_page=5', { path: '/v1/books', query: 'page=2&per_page=5' }],
    ['/v1/books?', { path: '/v1/books', query: '' }],
    ['/v1/books?q=a?b', { path: '/v1/books', query: 'q=a?b' }],
    ['?page=2', { path: '/', query: 'page=2' }],
    ['', { path: '/', query: '' }],
    ['/', { path: '/', query: '' }],
  ])('splits %j into path and query', (target, expected) => {
    expect(splitTarget(target)).toEqual(expected);
  });
});

describe('decodeParam', () => {
  it.each([
    ['dune', 'dune'],
    ['caf%C3%A9', 'café'],
    ['a%2Fb', 'a/b'],
    ['a%20b', 'a b'],
    ['a+b', 'a+b'],
    ['%F0%9F%98%80', '😀'],
  ])('decodes %s to %s', (raw, decoded) => {
    expect(decodeParam(raw, 'id')).toBe(decoded);
  });

  it.each(['%', '%E0%A4%A', '%ZZ', '%C3', 'abc%'])(
    'answers malformed percent-encoding %s with 400 code 40006, never a 500',
    (raw) => {
      const error = thrown(() => decodeParam(raw, 'id'));
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        status: 400,
        code: 40006,
        message: 'The path parameter "id" has malformed percent-encoding.',
      });
    },
  );
});

describe('normalizeTarget', () => {
  it.each([
    ['/v1/books', '/v1/books', ''],
    ['/v1/books?page=2&per_page=5', '/v1/books', 'page=2&per_page=5'],
    ['/v1/books?q=a?b', '/v1/books', 'q=a?b'],
    ['/v1/.well-known/x', '/v1/.well-known/x', ''],
    ['/v1/books/...', '/v1/books/...', ''],
    ['/v1/..books', '/v1/..books', ''],
    ['', '/', ''],
    ['*', '*', ''],
  ])('leaves %j as it is: path %j, query %j', (target, path, query) => {
    expect(normalizeTarget(target)).toEqual({ path, query });
  });

  it.each([
    ['/v1/books/../books', '/v1/books', ''],
    ['/v1/./books', '/v1/books', ''],
    ['/v1/x/../books/emma', '/v1/books/emma', ''],
    ['/a/b/c/./../../g', '/a/g', ''],
    ['/v1/books/..', '/v1/', ''],
    ['/v1/books/.', '/v1/books/', ''],
    ['/..', '/', ''],
    ['/../../v1/books', '/v1/books', ''],
    ['/a//../b', '/a/b', ''],
    ['/v1/./books?next=/../x', '/v1/books', 'next=/../x'],
  ])('removes dot segments from %j (RFC 3986 §5.2.4, §6.2.2.3)', (target, path, query) => {
    expect(normalizeTarget(target)).toEqual({ path, query });
  });

  it.each([
    '/v1/books/../books',
    '/v1/x/../books/emma',
    '/a/b/c/./../../g',
    '/v1/books/..',
    '/..',
    '/a//../b',
    '/v1/%2e%2E/v1/books',
    '/v1/books/.%2e',
  ])('removes dot segments from %j as a fetch host’s URL parser does (WHATWG URL)', (target) => {
    expect(normalizeTarget(target).path).toBe(new URL(target, 'http://h').pathname);
  });

  it.each([
    ['/v1/books/emma#x', '/v1/books/emma', ''],
    ['/v1/books?page=2#top', '/v1/books', 'page=2'],
    ['/v1/books#a?b', '/v1/books', ''],
    ['/v1/x/../books#', '/v1/books', ''],
    ['#x', '/', ''],
  ])('drops the fragment of %j (RFC 9112 §3.2)', (target, path, query) => {
    expect(normalizeTarget(target)).toEqual({ path, query });
  });

  it.each([
    ['http://example.com/v1/books', '/v1/books', ''],
    ['https://example.com:8443/v1/books?page=2', '/v1/books', 'page=2'],
    ['HTTP://EXAMPLE.COM/v1/books', '/v1/books', ''],
    ['http://user@example.com/v1/books', '/v1/books', ''],
    ['http://example.com', '/', ''],
    ['http://example.com?page=2', '/', 'page=2'],
    ['http://example.com/v1/./books#f', '/v1/books', ''],
    ['http://example.com/v1/%62ooks', '/v1/books', ''],
  ])('uses the path and query of the absolute form %j (RFC 9112 §3.2.2)', (target, path, query) => {
    expect(normalizeTarget(target)).toEqual({ path, query });
  });

  it.each([
    ['/v1/%62ooks', '/v1/books'],
    ['/v1/books/%65mm%61', '/v1/books/emma'],
    ['/v1/books/%7E%2D%2E%5F%30%39', '/v1/books/~-._09'],
    ['/v1/%6f%6F', '/v1/oo'],
    ['/v1/%2e/books', '/v1/books'],
    ['/v1/books/a%2Fb', '/v1/books/a%2Fb'],
    ['/v1/books/a%20b', '/v1/books/a%20b'],
    ['/v1/books/caf%C3%A9', '/v1/books/caf%C3%A9'],
    ['/v1/books/%25', '/v1/books/%25'],
    ['/v1/%42ooks', '/v1/Books'],
  ])(
    'decodes only percent-encoded unreserved characters in %j (RFC 3986 §2.3, §6.2.2.2)',
    (target, path) => {
      expect(normalizeTarget(target)).toEqual({ path, query: '' });
    },
  );

  it('leaves the query as received: the query parser decodes it', () => {
    expect(normalizeTarget('/v1/books?q=%62%ZZ#f')).toEqual({
      path: '/v1/books',
      query: 'q=%62%ZZ',
    });
  });

  it('turns an encoded upper-case letter into one, which the lower-case rule then refuses (spec 4.1.3)', () => {
    const { path } = normalizeTarget('/v1/%42ooks');
    expect(hasUpperCase(path)).toBe(true);
    expect(thrown(() => assertLowerCasePath(path))).toMatchObject({ status: 404, code: 40402 });
  });

  it.each([
    ['/v1/books/%ZZ', '/v1/books/%ZZ'],
    ['/v1/books/%4', '/v1/books/%4'],
    ['/v1/books/%', '/v1/books/%'],
    ['/v1/%G0', '/v1/%G0'],
    ['/V1/%ZZ?x=1', '/V1/%ZZ'],
    ['/v1/%62%Z/books#f', '/v1/%62%Z/books'],
    ['http://example.com/v1/%zz', '/v1/%zz'],
  ])(
    'answers malformed percent-encoding in %j with 400 code 40006, before any upper-case rule (RFC 3986 §2.1)',
    (target, path) => {
      const error = thrown(() => normalizeTarget(target));
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        status: 400,
        code: 40006,
        message: `The path ${path} has malformed percent-encoding: each "%" must be followed by two hexadecimal digits.`,
      });
    },
  );

  it('repeats at most the first 100 characters of a long malformed path', () => {
    const path = `/v1/books/${'a'.repeat(300)}%ZZ`;
    const error = thrown(() => normalizeTarget(path)) as ApiError;
    expect(error.message).toContain(`The path ${path.slice(0, 100)}… has malformed`);
  });
});

describe('boundedEcho', () => {
  it.each([
    ['', ''],
    ['/v1/books', '/v1/books'],
    ['a'.repeat(100), 'a'.repeat(100)],
    ['a'.repeat(101), `${'a'.repeat(100)}…`],
    [`${'a'.repeat(99)}😀b`, `${'a'.repeat(99)}…`],
  ])('echoes a value of %#: at most 100 characters then …', (value, echoed) => {
    expect(boundedEcho(value)).toBe(echoed);
  });

  it('takes another bound', () => {
    expect(boundedEcho('abcdef', 3)).toBe('abc…');
  });

  it.each([0, -1, 2.5, Number.NaN])(
    'refuses the bound %s with a TypeError saying how to fix it',
    (max) => {
      expect(() => boundedEcho('abc', max)).toThrow(/max must be a positive integer such as 100/);
    },
  );
});
