import { describe, expect, it } from 'vitest';
import { ApiError, type Handler, Router, type RouteTable } from '../../src/index.ts';
import { thrown } from './_thrown.ts';

const listBooks: Handler = () => ({ books: [], hasNext: false });
const createBook: Handler = () => ({});
const getBook: Handler = () => ({});
const newBookForm: Handler = () => ({});
const getFile: Handler = () => ({});
const getBookOfAuthor: Handler = () => ({});
const options: Handler = () => undefined;

const table: RouteTable = {
  '/v1/books': { GET: listBooks, POST: createBook },
  '/v1/books/:id': { GET: getBook, PUT: getBook, PATCH: getBook, DELETE: getBook },
  '/v1/books/new': { GET: newBookForm },
  '/v1/authors/:authorId/books/:bookId': { GET: getBookOfAuthor },
  '/v1/files/*filePath': { GET: getFile },
  '/v1/me': { GET: { handler: getBook, config: { bodyLimit: 10 } }, OPTIONS: options },
};

const router = new Router(table);

describe('Router.find', () => {
  it('finds a static path with no parameters', () => {
    const found = router.find('GET', '/v1/books');
    expect(found.route?.handler).toBe(listBooks);
    expect(found.route?.pattern).toBe('/v1/books');
    expect(found.route?.method).toBe('GET');
    expect(found.params).toEqual({});
    expect(found.allow).toEqual(['GET', 'HEAD', 'POST', 'OPTIONS']);
  });

  it.each([
    ['/v1/books/dune', { id: 'dune' }],
    ['/v1/books/caf%C3%A9', { id: 'café' }],
    ['/v1/books/a%2Fb', { id: 'a/b' }],
    ['/v1/books/a%20b', { id: 'a b' }],
  ])('matches %s and decodes its parameters to %j', (path, params) => {
    const found = router.find('GET', path);
    expect(found.route?.handler).toBe(getBook);
    expect(found.params).toEqual(params);
  });

  it('reads several parameters of one pattern', () => {
    expect(router.find('GET', '/v1/authors/ann-leckie/books/ancillary-justice').params).toEqual({
      authorId: 'ann-leckie',
      bookId: 'ancillary-justice',
    });
  });

  it('joins the decoded segments of a wildcard with "/"', () => {
    expect(router.find('GET', '/v1/files/covers/caf%C3%A9/front%20page.png').params).toEqual({
      filePath: 'covers/café/front page.png',
    });
  });

  it('prefers a static path over a pattern declared before it', () => {
    expect(router.find('GET', '/v1/books/new').route?.handler).toBe(newBookForm);
  });

  it('tries patterns in the order they were declared', () => {
    const first: Handler = () => 1;
    const second: Handler = () => 2;
    const r = new Router({ '/v1/:a': { GET: first }, '/v1/:b': { GET: second } });
    expect(r.find('GET', '/v1/x')).toMatchObject({ route: { handler: first }, params: { a: 'x' } });
  });

  it('answers malformed percent-encoding in a parameter with 400 code 40006', () => {
    expect(thrown(() => router.find('GET', '/v1/books/%E0%A4%A'))).toMatchObject({
      status: 400,
      code: 40006,
      message: 'The path parameter "id" has malformed percent-encoding.',
    });
  });

  it.each([
    '/v1/books/',
    '/v1/books/dune/',
    '/v1/nothing',
    '/v1',
    '/',
    '/v1/books/dune/reviews',
    '/v1/Books',
    '/V1/books/dune',
  ])(
    'answers %s with 404 code 40401 naming the path: no trailing-slash or case redirect (spec 4.1.3, 7.1.3)',
    (path) => {
      const error = thrown(() => router.find('GET', path));
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        status: 404,
        code: 40401,
        message: `Nothing found at ${path}.`,
        headers: undefined,
      });
    },
  );

  it('matches parameters case-sensitively as received; the upper-case 404 is the pipeline’s (spec 4.1.3)', () => {
    expect(router.find('GET', '/v1/books/Dune').params).toEqual({ id: 'Dune' });
  });

  it.each([
    ['DELETE', '/v1/books', 'GET, HEAD, POST, OPTIONS'],
    ['PUT', '/v1/books', 'GET, HEAD, POST, OPTIONS'],
    ['POST', '/v1/books/dune', 'GET, HEAD, PUT, PATCH, DELETE, OPTIONS'],
    ['TRACE', '/v1/books', 'GET, HEAD, POST, OPTIONS'],
    ['FOO', '/v1/books', 'GET, HEAD, POST, OPTIONS'],
    ['get', '/v1/books', 'GET, HEAD, POST, OPTIONS'],
  ])(
    'answers %s %s with 405 and Allow: %s when the path exists but the method does not (RFC 9110 §15.5.6)',
    (method, path, allow) => {
      const error = thrown(() => router.find(method, path));
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({
        status: 405,
        code: 40500,
        message: `${method} is not allowed on ${path}; allowed: ${allow}.`,
        headers: { allow },
      });
    },
  );

  it.each([
    [
      { DELETE: getBook, PATCH: getBook, POST: getBook, GET: getBook, PUT: getBook },
      ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    ],
    [{ POST: getBook }, ['POST', 'OPTIONS']],
    [{ HEAD: getBook }, ['HEAD', 'OPTIONS']],
    [{ OPTIONS: getBook, GET: getBook }, ['GET', 'HEAD', 'OPTIONS']],
  ])(
    'lists Allow in the order GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS whatever the declaration order',
    (methods, allow) => {
      expect(new Router({ '/v1/x': methods }).find('OPTIONS', '/v1/x').allow).toEqual(allow);
    },
  );

  it('answers HEAD with the GET handler where no HEAD is declared (RFC 9110 §9.3.2)', () => {
    expect(router.find('HEAD', '/v1/books/dune')).toMatchObject({
      route: { handler: getBook, pattern: '/v1/books/:id' },
      params: { id: 'dune' },
    });
  });

  it('keeps a declared HEAD handler', () => {
    const head: Handler = () => undefined;
    const r = new Router({ '/v1/x': { GET: getBook, HEAD: head } });
    expect(r.find('HEAD', '/v1/x').route?.handler).toBe(head);
  });

  it('answers OPTIONS without a handler with no route and the Allow list (RFC 9110 §9.3.7)', () => {
    expect(router.find('OPTIONS', '/v1/books/dune')).toEqual({
      route: undefined,
      params: { id: 'dune' },
      allow: ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
    });
  });

  it('uses a declared OPTIONS handler', () => {
    expect(router.find('OPTIONS', '/v1/me').route?.handler).toBe(options);
  });

  it('keeps a route’s config, frozen', () => {
    const config = router.find('GET', '/v1/me').route?.config;
    expect(config).toEqual({ bodyLimit: 10 });
    expect(Object.isFrozen(config)).toBe(true);
  });
});

describe('Router.allowed', () => {
  it.each([
    ['/v1/books', ['GET', 'HEAD', 'POST', 'OPTIONS']],
    ['/v1/books/dune', ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']],
    ['/v1/me', ['GET', 'HEAD', 'OPTIONS']],
    ['/v1/nothing', undefined],
    ['/v1/books/', undefined],
    ['/v1/books/%E0%A4%A', undefined],
  ])('lists the methods of %s', (path, allow) => {
    expect(router.allowed(path)).toEqual(allow);
  });
});

describe('Router.routes', () => {
  it('lists every route in declaration order', () => {
    const r = new Router({
      '/v1/books': { POST: createBook },
      '/v1/books/:id': { DELETE: getBook },
    });
    expect(r.routes.map((route) => `${route.method} ${route.pattern}`)).toEqual([
      'POST /v1/books',
      'DELETE /v1/books/:id',
    ]);
  });

  it('lists HEAD as a route of its own where GET is declared', () => {
    const r = new Router({ '/v1/books': { GET: listBooks, POST: createBook } });
    expect(r.routes.map((route) => `${route.method} ${route.pattern}`).sort()).toEqual([
      'GET /v1/books',
      'HEAD /v1/books',
      'POST /v1/books',
    ]);
  });

  it('is empty for an empty table', () => {
    expect(new Router().routes).toEqual([]);
  });
});

describe('Router with a bad table', () => {
  it.each([
    [
      'a lower-case method key',
      { '/v1/books': { get: listBooks } },
      'Route "/v1/books": "get" is not a method; use one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS (upper-case).',
    ],
    [
      'a method the spec does not name',
      { '/v1/books': { TRACE: listBooks } },
      'Route "/v1/books": "TRACE" is not a method; use one of GET, POST, PUT, PATCH, DELETE, HEAD, OPTIONS (upper-case).',
    ],
    [
      'a definition without a handler',
      { '/v1/books': { GET: { config: {} } } },
      'Route "GET /v1/books" needs a handler function.',
    ],
    [
      'a handler that is not a function',
      { '/v1/books': { POST: 'createBook' } },
      'Route "POST /v1/books" needs a handler function.',
    ],
    [
      'a null handler',
      { '/v1/books': { GET: null } },
      'Route "GET /v1/books" needs a handler function.',
    ],
    [
      'a pattern without a leading slash',
      { 'v1/books': { GET: listBooks } },
      'Route pattern "v1/books" must start with "/".',
    ],
    ['an empty pattern', { '': { GET: listBooks } }, 'Route pattern "" must start with "/".'],
  ])('throws a TypeError for %s', (_, bad, message) => {
    expect(() => new Router(bad as unknown as RouteTable)).toThrow(new TypeError(message));
  });

  it.each(['/v1/books/:', '/v1/{books', '/v1/books/(x)', '/v1/:id?'])(
    'throws a TypeError naming the invalid pattern %s',
    (pattern) => {
      expect(() => new Router({ [pattern]: { GET: listBooks } })).toThrow(TypeError);
      expect(() => new Router({ [pattern]: { GET: listBooks } })).toThrow(
        `Route pattern "${pattern}" is not valid: `,
      );
    },
  );

  it('skips a method whose value is undefined', () => {
    const r = new Router({ '/v1/books': { GET: listBooks, POST: undefined } });
    expect(r.allowed('/v1/books')).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });
});
