import { describe, expect, it } from 'vitest';
import { Router } from '../../src/core/index.ts';
import { ApiError, type Handler, type RouteTable } from '../../src/index.ts';
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

describe('Router.lookup', () => {
  it('finds a static route with its Allow list', () => {
    expect(router.lookup('POST', '/v1/books')).toEqual({
      kind: 'found',
      route: expect.objectContaining({ handler: createBook, method: 'POST' }),
      params: {},
      allow: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    });
  });

  it('finds a pattern route with its decoded parameters', () => {
    expect(router.lookup('GET', '/v1/books/caf%C3%A9')).toMatchObject({
      kind: 'found',
      route: { handler: getBook, pattern: '/v1/books/:id' },
      params: { id: 'café' },
    });
  });

  it.each(['/v1/nothing', '/v1/books/', '/v1/books/dune/reviews', '/'])(
    'tells %s is not found without throwing (404)',
    (path) => {
      expect(router.lookup('GET', path)).toEqual({ kind: 'notFound' });
    },
  );

  it.each([
    ['DELETE', '/v1/books', ['GET', 'HEAD', 'POST', 'OPTIONS']],
    ['POST', '/v1/books/dune', ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']],
    ['TRACE', '/v1/me', ['GET', 'HEAD', 'OPTIONS']],
  ])(
    'tells %s %s is a method the path lacks, with Allow, without throwing (RFC 9110 §15.5.6)',
    (method, path, allow) => {
      expect(router.lookup(method, path)).toEqual({ kind: 'methodNotAllowed', allow });
    },
  );

  it.each([
    ['/v1/books', {}],
    ['/v1/books/dune', { id: 'dune' }],
  ])(
    'answers OPTIONS on %s, which has no OPTIONS handler, with the Allow list (RFC 9110 §9.3.7)',
    (path, params) => {
      expect(router.lookup('OPTIONS', path)).toMatchObject({ kind: 'options', params });
    },
  );

  it('finds a declared OPTIONS handler', () => {
    expect(router.lookup('OPTIONS', '/v1/me')).toMatchObject({
      kind: 'found',
      route: { handler: options },
    });
  });

  it('throws only the 400 for a parameter with malformed percent-encoding', () => {
    expect(thrown(() => router.lookup('GET', '/v1/books/%E0%A4%A'))).toMatchObject({
      status: 400,
      code: 40006,
    });
  });
});

describe('Router.lookup among patterns bucketed by leading segments', () => {
  const h = (name: string): Handler => Object.assign(() => name, { displayName: name });
  const table: RouteTable = {
    '/v1/:kind/books': { GET: h('kind-books') },
    '/v1/authors/:id': { GET: h('author') },
    '/v1/authors/:id/books': { GET: h('author-books') },
    '/v1/shelves{/:id}': { GET: h('shelf') },
    '/v1/categor{y}': { GET: h('category') },
    '/:version/status': { GET: h('status') },
    '/v2/authors/:id': { GET: h('v2-author') },
    '/v1/:anything': { GET: h('anything') },
    '/v1/files/*rest': { GET: h('files') },
    '/*fallback': { GET: h('fallback') },
  };
  const r = new Router(table);
  const name = (path: string) => {
    const found = r.lookup('GET', path);
    return found.kind === 'found'
      ? (found.route.handler as { displayName?: string }).displayName
      : found.kind;
  };

  it.each([
    // A shallower pattern declared first wins over a deeper one: declaration order is the tie-break.
    ['/v1/authors/books', 'kind-books'],
    ['/v1/authors/ann', 'author'],
    ['/v1/authors/ann/books', 'author-books'],
    ['/v1/authors', 'anything'],
    ['/v1/shelves', 'shelf'],
    ['/v1/shelves/top', 'shelf'],
    ['/v1/category', 'category'],
    ['/v1/categor', 'category'],
    ['/v1/status', 'status'],
    ['/v3/status', 'status'],
    ['/v2/authors/ann', 'v2-author'],
    ['/v1/files/a/b', 'files'],
    ['/v2/authors/ann/books', 'fallback'],
    ['/v1/authors/ann/books/x', 'fallback'],
    ['/', 'notFound'],
  ])('answers GET %s with the first declared pattern that matches: %s', (path, expected) => {
    expect(name(path)).toBe(expected);
  });

  it('agrees with trying every pattern in declaration order', () => {
    const paths = [
      '/v1/authors/books',
      '/v1/x/books',
      '/v1/x/books/y',
      '/v1/shelves/a/b',
      '/v1/categories',
      '/v2/status',
      '/v2/authors',
      '/v1',
      '/v1/',
      '//status',
      '/v1/files/',
      '/v1/shelves',
      '/v1/status',
      '/v1/category',
    ];
    const linear = Object.entries(table).map(([pattern, methods]) => ({
      single: new Router({ [pattern]: methods }),
      handler: methods.GET,
    }));
    for (const path of paths) {
      const first = linear.find((p) => p.single.allowed(path) !== undefined);
      const found = r.lookup('GET', path);
      expect(found.kind === 'found' ? found.route.handler : undefined, path).toBe(first?.handler);
    }
  });
});

describe('Router.allowed', () => {
  it.each([
    ['/v1/books', ['GET', 'HEAD', 'POST', 'OPTIONS']],
    ['/v1/books/dune', ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']],
    ['/v1/me', ['GET', 'HEAD', 'OPTIONS']],
    ['/v1/nothing', undefined],
    ['/v1/books/', undefined],
  ])('lists the methods of %s', (path, allow) => {
    expect(router.allowed(path)).toEqual(allow);
  });

  it('lists the methods of a path whose parameter has malformed percent-encoding, without throwing', () => {
    expect(router.allowed('/v1/books/%E0%A4%A')).toEqual([
      'GET',
      'HEAD',
      'PUT',
      'PATCH',
      'DELETE',
      'OPTIONS',
    ]);
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
});
