import { describe, expect, it } from 'vitest';
import { isStatic, literalSegments, PrefixIndex } from '../../src/core/routing/prefix-index.ts';

describe('literalSegments', () => {
  it.each([
    ['/v1/books/:id', ['v1', 'books']],
    ['/v1/authors/:id/books', ['v1', 'authors']],
    ['/:version/status', []],
    ['/*rest', []],
    ['/v1/books{/:id}', ['v1']],
    ['/v1/categor{y}', ['v1']],
    ['/v1/book-:id', ['v1']],
    ['/v1/a\\:b/:id', ['v1']],
  ])('takes the whole literal segments %s starts with: %j', (pattern, segments) => {
    expect(literalSegments(pattern)).toEqual(segments);
  });
});

describe('isStatic', () => {
  it.each([
    ['/v1/books', true],
    ['/v1/book-shelves/new', true],
    ['/v1/books/:id', false],
    ['/v1/files/*rest', false],
    ['/v1/books{/:id}', false],
    ['/v1/a\\:b', false],
  ])('tells whether %s is a plain path: %s', (pattern, expected) => {
    expect(isStatic(pattern)).toBe(expected);
  });
});

describe('PrefixIndex', () => {
  const index = new PrefixIndex<string>();
  index.add(['v1', 'books'], 'v1-books');
  index.add([], 'root');
  index.add(['v2'], 'v2');
  index.add(['v1'], 'v1');
  index.add(['v1', 'books', 'covers'], 'v1-books-covers');

  it.each([
    ['/v1/books/dune', ['v1-books', 'root', 'v1']],
    ['/v1/books/covers/dune', ['v1-books', 'root', 'v1', 'v1-books-covers']],
    ['/v1/books', ['v1-books', 'root', 'v1']],
    ['/v1/authors/ann', ['root', 'v1']],
    ['/v2/books/dune', ['root', 'v2']],
    ['/v3/books', ['root']],
    ['/', ['root']],
  ])(
    'offers %s only the items whose leading segments it has, in the order added',
    (path, items) => {
      expect(index.candidates(path)).toEqual(items);
    },
  );
});
