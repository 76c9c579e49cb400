import { afterEach, describe, expect, it, vi } from 'vitest';
import { statusText } from '../../src/core/errors/catalogue.ts';
import {
  methodNotAllowed,
  unsupportedMediaType,
  uriTooLong,
} from '../../src/core/errors/helpers.ts';
import { consoleLogger } from '../../src/core/errors/logger.ts';
import {
  errorToOutgoing,
  errorToResponse,
  payloadTooLarge,
  requestTimeout,
  toApiError,
} from '../../src/core/index.ts';
import {
  ApiError,
  badRequest,
  conflict,
  ErrorCode,
  forbidden,
  invalidRequest,
  isApiError,
  type Logger,
  notFound,
  tooManyRequests,
  unauthorized,
} from '../../src/index.ts';

const generic = 'Something went wrong on our side; it has been logged.';

function fakeLogger() {
  return { error: vi.fn<Logger['error']>(), warn: vi.fn<NonNullable<Logger['warn']>>() };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('ApiError', () => {
  it.each([399, 600, 200, 0, -404, 400.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'throws a TypeError for status %s, outside the 4xx and 5xx range (spec 7.2)',
    (status) => {
      expect(() => new ApiError(status, 40000, 'x')).toThrow(
        new TypeError(`ApiError status must be an integer from 400 to 599; got ${status}.`),
      );
    },
  );

  it.each([400, 404, 499, 500, 599])('accepts status %i', (status) => {
    expect(new ApiError(status, status * 100, 'x').status).toBe(status);
  });

  it.each([
    [404, 40400],
    [404, 40499],
    [409, 40950],
    [503, 50301],
  ])('accepts status %i with code %i: status × 100 + n (spec 7.1.5)', (status, code) => {
    expect(new ApiError(status, code, 'x').code).toBe(code);
  });

  it.each([
    [404, 40000],
    [404, 40500],
    [404, 404],
    [409, 4090],
    [400, 40000.5],
    [400, Number.NaN],
    [500, 40000],
  ])('throws a TypeError for status %i with code %s, not status × 100 + n', (status, code) => {
    const first = status * 100;
    expect(() => new ApiError(status, code, 'x')).toThrow(
      new TypeError(
        `ApiError code must be status × 100 + n with n from 0 to 99 (${first} to ${first + 99} for status ${status}); got ${code}.`,
      ),
    );
  });

  it.each([400, 404, 405, 429, 499])(
    'captures no stack frames for a %i: client errors are the flood path',
    (status) => {
      const error = new ApiError(status, status * 100, 'x');
      expect(error.stack ?? '').not.toMatch(/\n\s+at /);
    },
  );

  it.each([500, 503])('keeps the stack trace of a %i, a fault to debug', (status) => {
    const error = new ApiError(status, status * 100, 'x');
    expect(error.stack).toMatch(/\n\s+at /);
  });

  it('restores Error.stackTraceLimit after a client error, also when the constructor throws', () => {
    const before = Error.stackTraceLimit;
    new ApiError(404, 40400, 'x');
    expect(Error.stackTraceLimit).toBe(before);
    const symbol = Symbol('not a message') as unknown as string;
    expect(() => new ApiError(404, 40400, symbol)).toThrow(TypeError);
    expect(Error.stackTraceLimit).toBe(before);
  });

  it('works where Error.stackTraceLimit does not exist, without creating it', () => {
    const descriptor = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit')!;
    Reflect.deleteProperty(Error, 'stackTraceLimit');
    try {
      expect(new ApiError(404, 40400, 'x').status).toBe(404);
      expect(Object.hasOwn(Error, 'stackTraceLimit')).toBe(false);
    } finally {
      Object.defineProperty(Error, 'stackTraceLimit', descriptor);
    }
  });

  it('works where Error.stackTraceLimit cannot be written', () => {
    const descriptor = Object.getOwnPropertyDescriptor(Error, 'stackTraceLimit')!;
    Object.defineProperty(Error, 'stackTraceLimit', { ...descriptor, writable: false });
    try {
      expect(new ApiError(404, 40400, 'x').status).toBe(404);
      expect(Error.stackTraceLimit).toBe(descriptor.value);
    } finally {
      Object.defineProperty(Error, 'stackTraceLimit', descriptor);
    }
  });

  it('carries status, code, message, name and one entry of its own by default (spec 7.1.5)', () => {
    const error = new ApiError(409, 40900, 'A book with id "dune" already exists.');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('ApiError');
    expect(error.status).toBe(409);
    expect(error.code).toBe(40900);
    expect(error.message).toBe('A book with id "dune" already exists.');
    expect(error.errors).toEqual([
      { message: 'A book with id "dune" already exists.', code: 40900 },
    ]);
    expect(error.headers).toBeUndefined();
    expect(error.extra).toBeUndefined();
  });

  it('uses the given errors list in place of its own entry', () => {
    const errors = [
      { message: 'The field "title" is required.', code: 40003 },
      { message: 'The field "year" must be an integer.', code: 40002 },
    ];
    const error = new ApiError(400, 40003, 'The field "title" is required.', { errors });
    expect(error.errors).toEqual(errors);
    expect(error.toJSON()).toEqual({ errors });
  });

  it('keeps its own entry when the errors list given is empty', () => {
    const error = new ApiError(400, 40000, 'Bad.', { errors: [] });
    expect(error.errors).toEqual([{ message: 'Bad.', code: 40000 }]);
  });

  it('serializes to the error body { errors: [{ message, code }] } (spec 7.1.5)', () => {
    const error = new ApiError(404, 40400, 'No book with id "dune".');
    expect(JSON.stringify(error)).toBe(
      '{"errors":[{"message":"No book with id \\"dune\\".","code":40400}]}',
    );
  });

  it('adds extra members such as RFC 6749 §5.2 error and error_description to the body', () => {
    const error = new ApiError(400, 40000, 'The grant is not valid.', {
      extra: { error: 'invalid_grant', error_description: 'The grant is not valid.' },
    });
    expect(error.toJSON()).toEqual({
      errors: [{ message: 'The grant is not valid.', code: 40000 }],
      error: 'invalid_grant',
      error_description: 'The grant is not valid.',
    });
  });

  it('leaves members other than message and code of an entry out of the body', () => {
    const entry = { message: 'm', code: 40002, stack: 'at secret.ts:1' };
    const error = new ApiError(400, 40002, 'm', { errors: [entry] });
    expect(error.toJSON()).toEqual({ errors: [{ message: 'm', code: 40002 }] });
  });

  it('keeps its headers and its cause, and never puts the cause in the body', () => {
    const cause = new Error('connection refused at 10.0.0.3');
    const error = new ApiError(503, 50300, 'Unavailable.', {
      headers: { 'retry-after': '5' },
      cause,
    });
    expect(error.headers).toEqual({ 'retry-after': '5' });
    expect(error.cause).toBe(cause);
    expect(JSON.stringify(error)).not.toContain('10.0.0.3');
  });
});

describe('isApiError', () => {
  class Subclass extends ApiError {}

  it.each([
    ['an ApiError', new ApiError(400, 40000, 'x')],
    ['a subclass of ApiError', new Subclass(400, 40000, 'x')],
    ['a helper result', notFound('No book.')],
    [
      'an object from another realm or package copy carrying the brand',
      Object.defineProperty({ status: 404, code: 40400 }, Symbol.for('api-conventions.ApiError'), {
        value: true,
      }),
    ],
  ])('is true for %s', (_, value) => {
    expect(isApiError(value)).toBe(true);
  });

  it.each([
    ['a plain Error', new Error('x')],
    ['a TypeError', new TypeError('x')],
    ['a look-alike without the brand', { status: 404, code: 40400, errors: [], message: 'x' }],
    ['an object whose brand is not true', { [Symbol.for('api-conventions.ApiError')]: 'yes' }],
    ['null', null],
    ['undefined', undefined],
    ['a string', 'ApiError'],
    ['a number', 404],
  ])('is false for %s', (_, value) => {
    expect(isApiError(value)).toBe(false);
  });
});

describe('ErrorCode catalogue', () => {
  const entries = Object.entries(ErrorCode);

  it.each(entries)(
    '%s (%i) is status × 100 + n with a status the spec lists (spec 7.1.5, 7.2)',
    (_, code) => {
      expect(Number.isInteger(code)).toBe(true);
      const status = Math.floor(code / 100);
      expect(status).toBeGreaterThanOrEqual(400);
      expect(status).toBeLessThanOrEqual(599);
      expect(code - status * 100).toBeGreaterThanOrEqual(0);
      expect(code - status * 100).toBeLessThan(100);
      expect(statusText[status]).toEqual(expect.any(String));
    },
  );

  it('has no code twice', () => {
    const codes = entries.map(([, code]) => code);
    expect(new Set(codes).size).toBe(codes.length);
  });

  it.each([
    [200, 'OK'],
    [201, 'Created'],
    [202, 'Accepted'],
    [204, 'No Content'],
    [304, 'Not Modified'],
    [400, 'Bad Request'],
    [401, 'Unauthorized'],
    [403, 'Forbidden'],
    [404, 'Not Found'],
    [405, 'Method Not Allowed'],
    [406, 'Not Acceptable'],
    [408, 'Request Timeout'],
    [409, 'Conflict'],
    [410, 'Gone'],
    [413, 'Content Too Large'],
    [414, 'URI Too Long'],
    [415, 'Unsupported Media Type'],
    [429, 'Too Many Requests'],
    [500, 'Internal Server Error'],
    [503, 'Service Unavailable'],
  ])('names status %i "%s" (spec 7.2, RFC 9110 §15)', (status, text) => {
    expect(statusText[status]).toBe(text);
  });
});

describe('error helpers', () => {
  it.each([
    ['badRequest()', badRequest(), 400, 40000, 'The request is not valid.', undefined],
    [
      'unauthorized() (spec 5.8, RFC 6750 §3)',
      unauthorized(),
      401,
      40100,
      'Authentication is required.',
      { 'www-authenticate': 'Bearer' },
    ],
    [
      'forbidden() (spec 5.8)',
      forbidden(),
      403,
      40300,
      'You are not allowed to do this.',
      undefined,
    ],
    [
      'notFound(message) (spec 7.1.3)',
      notFound('No book with id "dune".'),
      404,
      40400,
      'No book with id "dune".',
      undefined,
    ],
    [
      'methodNotAllowed() (RFC 9110 §15.5.6)',
      methodNotAllowed('DELETE', '/v1/books', ['GET', 'HEAD', 'POST', 'OPTIONS']),
      405,
      40500,
      'DELETE is not allowed on /v1/books; allowed: GET, HEAD, POST, OPTIONS.',
      { allow: 'GET, HEAD, POST, OPTIONS' },
    ],
    [
      'requestTimeout() (RFC 9110 §15.5.9)',
      requestTimeout(),
      408,
      40800,
      'The request took too long to arrive.',
      { connection: 'close' },
    ],
    [
      'conflict(message)',
      conflict('A book with id "dune" already exists.'),
      409,
      40900,
      'A book with id "dune" already exists.',
      undefined,
    ],
    [
      'payloadTooLarge(limit)',
      payloadTooLarge(1024),
      413,
      41300,
      'The request body is larger than the limit of 1024 bytes.',
      { connection: 'close' },
    ],
    [
      'uriTooLong(limit)',
      uriTooLong(2048),
      414,
      41400,
      'The request URI is longer than the limit of 2048 characters.',
      undefined,
    ],
    [
      'unsupportedMediaType(type, supported) (spec 4.6)',
      unsupportedMediaType('text/plain', ['application/json']),
      415,
      41500,
      'Content-Type "text/plain" is not supported; send one of: application/json.',
      undefined,
    ],
    [
      'unsupportedMediaType(undefined, supported) (spec 4.6)',
      unsupportedMediaType(undefined, ['application/json', 'application/x-www-form-urlencoded']),
      415,
      41500,
      'A body needs a Content-Type; send one of: application/json, application/x-www-form-urlencoded.',
      undefined,
    ],
    [
      'tooManyRequests(30) (spec 8.2)',
      tooManyRequests(30),
      429,
      42900,
      'Too many requests; slow down.',
      { 'retry-after': '30' },
    ],
  ])(
    '%s answers its status, code, message and headers',
    (_, error, status, code, message, headers) => {
      expect(isApiError(error)).toBe(true);
      expect(error.status).toBe(status);
      expect(error.code).toBe(code);
      expect(error.message).toBe(message);
      expect(error.headers).toEqual(headers);
      expect(error.toJSON()).toEqual({ errors: [{ message, code }] });
    },
  );

  it('unauthorized() lets a given WWW-Authenticate replace the plain Bearer challenge (RFC 6750 §3)', () => {
    const challenge = 'Bearer error="invalid_token", error_description="The token expired."';
    const error = unauthorized('The access token expired.', {
      headers: { 'www-authenticate': challenge },
    });
    expect(error.headers).toEqual({ 'www-authenticate': challenge });
  });

  it('unauthorized() keeps further headers beside the Bearer challenge', () => {
    expect(unauthorized(undefined, { headers: { 'cache-control': 'no-store' } }).headers).toEqual({
      'www-authenticate': 'Bearer',
      'cache-control': 'no-store',
    });
  });

  it.each([
    [0.1, '1'],
    [0.999, '1'],
    [1, '1'],
    [1.5, '2'],
    [59.001, '60'],
    [3600, '3600'],
    [0, '0'],
    [-3, '0'],
  ])(
    'tooManyRequests(%s) rounds Retry-After up to whole seconds: %s (RFC 9110 §10.2.3)',
    (seconds, header) => {
      expect(tooManyRequests(seconds).headers).toEqual({ 'retry-after': header });
    },
  );

  it('tooManyRequests() without a wait sends no Retry-After (spec 8.2)', () => {
    expect(tooManyRequests().headers).toBeUndefined();
  });

  it('tooManyRequests() keeps rate-limit headers beside Retry-After (spec 8.3)', () => {
    const error = tooManyRequests(10, { headers: { 'x-ratelimit-remaining': '0' } });
    expect(error.headers).toEqual({ 'retry-after': '10', 'x-ratelimit-remaining': '0' });
  });

  it('invalidRequest lists one entry per problem, in order, with InvalidField by default (spec 7.1.5)', () => {
    const error = invalidRequest([
      { message: 'The field "title" is required.', code: ErrorCode.MissingField },
      { message: 'The field "year" must be an integer.' },
      { message: 'The field "colour" is not known.', code: ErrorCode.UnknownField },
    ]);
    expect(error.status).toBe(400);
    expect(error.code).toBe(40003);
    expect(error.message).toBe('The field "title" is required.');
    expect(error.toJSON()).toEqual({
      errors: [
        { message: 'The field "title" is required.', code: 40003 },
        { message: 'The field "year" must be an integer.', code: 40002 },
        { message: 'The field "colour" is not known.', code: 40004 },
      ],
    });
  });

  it('invalidRequest without problems is a TypeError', () => {
    expect(() => invalidRequest([])).toThrow(
      new TypeError('invalidRequest needs at least one problem.'),
    );
  });
});

describe('toApiError', () => {
  it('returns an ApiError as it is', () => {
    const error = conflict('Taken.');
    expect(toApiError(error)).toBe(error);
  });

  it.each([
    ['an Error', new Error('db password is hunter2')],
    ['a string', 'boom'],
    ['undefined', undefined],
    ['null', null],
    ['an object whose status is not an error status', { status: 200 }],
    ['an Error whose status is not an integer', Object.assign(new Error('x'), { status: '404' })],
  ])('turns %s into a generic 500 that keeps it as the cause', (_, thrown) => {
    const error = toApiError(thrown);
    expect(error.status).toBe(500);
    expect(error.code).toBe(ErrorCode.Internal);
    expect(error.message).toBe(generic);
    expect(error.cause).toBe(thrown);
  });
});

describe('errorToResponse', () => {
  const json = { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' };

  it('keeps the status, headers and entries of an ApiError, as JSON with nosniff (spec 4.8, 7.1)', () => {
    const logger = fakeLogger();
    const response = errorToResponse(
      methodNotAllowed('PUT', '/v1/books', ['GET', 'HEAD', 'OPTIONS']),
      logger,
    );
    expect(response).toEqual({
      status: 405,
      headers: { allow: 'GET, HEAD, OPTIONS', ...json },
      body: '{"errors":[{"message":"PUT is not allowed on /v1/books; allowed: GET, HEAD, OPTIONS.","code":40500}]}',
    });
  });

  it.each([400, 401, 403, 404, 409, 429])(
    'does not log a %i: it is the client’s fault',
    (status) => {
      const logger = fakeLogger();
      errorToResponse(new ApiError(status, status * 100, 'x'), logger, {
        method: 'GET',
        path: '/v1/x',
      });
      expect(logger.error).not.toHaveBeenCalled();
    },
  );

  it.each([
    ['an Error', new Error('db password is hunter2')],
    ['a TypeError', new TypeError('Cannot read properties of undefined (reading "hunter2")')],
    ['a string', 'hunter2'],
    ['undefined', undefined],
    ['a number', 42],
  ])(
    'answers %s thrown with a generic 500, logged with method and path (CONTRIBUTING.md rule 7)',
    (_, thrown) => {
      const logger = fakeLogger();
      const response = errorToResponse(thrown, logger, { method: 'POST', path: '/v1/books' });
      expect(response).toEqual({
        status: 500,
        headers: json,
        body: JSON.stringify({ errors: [{ message: generic, code: 50000 }] }),
      });
      expect(response.body).not.toContain('hunter2');
      expect(response.body).not.toMatch(/\bat\s/);
      expect(logger.error).toHaveBeenCalledOnce();
      expect(logger.error).toHaveBeenCalledWith(
        { err: thrown, method: 'POST', path: '/v1/books' },
        'POST /v1/books failed',
      );
    },
  );

  it('logs a 5xx ApiError too, with the error itself', () => {
    const logger = fakeLogger();
    const error = new ApiError(503, ErrorCode.Unavailable, 'Down for maintenance.');
    const response = errorToResponse(error, logger, { method: 'GET', path: '/v1/me' });
    expect(response.status).toBe(503);
    expect(logger.error).toHaveBeenCalledWith(
      { err: error, method: 'GET', path: '/v1/me' },
      'GET /v1/me failed',
    );
  });

  it('logs "request failed" when it does not know where the failure happened', () => {
    const logger = fakeLogger();
    const thrown = new Error('x');
    errorToResponse(thrown, logger);
    expect(logger.error).toHaveBeenCalledWith({ err: thrown }, 'request failed');
  });

  it('writes to console.error by default', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {});
    const thrown = new Error('x');
    errorToResponse(thrown);
    expect(spy).toHaveBeenCalledWith('[api-conventions] request failed', thrown);
  });

  it('consoleLogger.warn writes one console.warn line', () => {
    const spy = vi.spyOn(console, 'warn').mockImplementation(() => {});
    consoleLogger.warn('route lint: x');
    expect(spy).toHaveBeenCalledWith('[api-conventions] route lint: x');
  });

  it('errorToOutgoing gives the body as data and copies the error’s headers', () => {
    const error = tooManyRequests(2);
    const out = errorToOutgoing(error, fakeLogger());
    expect(out.status).toBe(429);
    expect(out.headers.record).toEqual({ 'retry-after': '2' });
    expect(out.body).toEqual({
      errors: [{ message: 'Too many requests; slow down.', code: 42900 }],
    });
    out.headers.set('x-extra', '1');
    expect(error.headers).toEqual({ 'retry-after': '2' });
  });
});
