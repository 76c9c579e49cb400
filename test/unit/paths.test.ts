import { describe, expect, it } from 'vitest';
import {
  ApiError,
  assertLowerCasePath,
  decodeParam,
  hasUpperCase,
  splitTarget,
} from '../../src/index.ts';
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
