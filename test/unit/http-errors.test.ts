/** The one core rule for errors of other libraries that carry an HTTP status (http-errors, Koa, Fastify). */
import createError from 'http-errors';
import { describe, expect, it, vi } from 'vitest';
import { errorToOutgoing, fromHttpError, toApiError } from '../../src/core/index.ts';
import { ApiError, isApiError, type Logger, notFound } from '../../src/index.ts';

const generic = 'Something went wrong on our side; it has been logged.';

function fakeLogger() {
  return { error: vi.fn<Logger['error']>(), warn: vi.fn<NonNullable<Logger['warn']>>() };
}

/** An error in Fastify's shape: `statusCode`, no `expose`. */
function fastifyStyle(statusCode: number, message: string): Error {
  return Object.assign(new Error(message), { statusCode });
}

describe('toApiError on errors of other libraries', () => {
  it.each([
    [400, 'The "title" field is required.'],
    [401, 'Log in first.'],
    [404, 'No book with id "dune".'],
    [409, 'That book is checked out.'],
    [422, 'The book cannot be saved.'],
  ])(
    'keeps the status and message of an http-errors %i, with code status × 100',
    (status, message) => {
      const error = toApiError(createError(status, message));
      expect(error.status).toBe(status);
      expect(error.code).toBe(status * 100);
      expect(error.toJSON()).toEqual({ errors: [{ message, code: status * 100 }] });
    },
  );

  it('gives the catalogue’s generic code for a status the catalogue lists (404 → 40400)', () => {
    expect(toApiError(createError(404)).code).toBe(40400);
    expect(toApiError(createError(429)).code).toBe(42900);
  });

  it('keeps the thrown error as the cause, for the log', () => {
    const thrown = createError(404, 'No book.');
    expect(toApiError(thrown).cause).toBe(thrown);
  });

  it.each([500, 502, 503, 504])(
    'keeps the status of an http-errors %i but hides its message, which http-errors marks not exposed',
    (status) => {
      const error = toApiError(createError(status, 'connection refused at 10.0.0.3'));
      expect(error.status).toBe(status);
      expect(error.code).toBe(status * 100);
      expect(error.message).toBe(generic);
      expect(JSON.stringify(error)).not.toContain('10.0.0.3');
    },
  );

  it('shows the message of a 5xx marked expose: true', () => {
    const thrown = createError(503, 'Down for maintenance until 14:00 UTC.', { expose: true });
    expect(toApiError(thrown).message).toBe('Down for maintenance until 14:00 UTC.');
  });

  it('hides the message of a 4xx marked expose: false, with a sentence naming the status', () => {
    const thrown = createError(403, 'user 42 lacks role admin', { expose: false });
    const error = toApiError(thrown);
    expect(error.status).toBe(403);
    expect(error.message).toBe('The request failed: Forbidden (403).');
  });

  it('names a status the catalogue does not list by its number alone when the message is hidden', () => {
    const thrown = Object.assign(new Error(''), { status: 418 });
    expect(toApiError(thrown).message).toBe('The request failed (418).');
  });

  it.each([
    [
      'statusCode 4xx (Fastify)',
      fastifyStyle(422, 'Unprocessable book.'),
      422,
      'Unprocessable book.',
    ],
    ['statusCode 5xx (Fastify)', fastifyStyle(502, 'upstream 10.0.0.3 closed'), 502, generic],
    ['status 4xx on a plain object', { status: 410, message: 'Retired.' }, 410, 'Retired.'],
  ])('treats an error without expose by its status: %s', (_, thrown, status, message) => {
    const error = toApiError(thrown);
    expect(error.status).toBe(status);
    expect(error.message).toBe(message);
  });

  it('reads status before statusCode, as http-errors sets both', () => {
    expect(toApiError({ status: 404, statusCode: 500, message: 'x' }).status).toBe(404);
  });

  it.each([
    ['a status below 400', { status: 302, message: 'x' }],
    ['a status above 599', { status: 600, message: 'x' }],
    ['a status that is a string', { status: '404', message: 'x' }],
    ['a status that is not an integer', { status: 404.5, message: 'x' }],
  ])('turns an error with %s into a generic 500', (_, thrown) => {
    const error = toApiError(thrown);
    expect(error.status).toBe(500);
    expect(error.message).toBe(generic);
  });

  it('turns an HTTP client’s error (axios shape) into a generic 500: its status is another server’s answer', () => {
    const thrown = Object.assign(new Error('Request failed with status code 401'), {
      status: 401,
      isAxiosError: true,
      response: { status: 401, data: {} },
    });
    expect(toApiError(thrown).status).toBe(500);
  });
});

describe('headers of errors of other libraries', () => {
  it('keeps Retry-After and WWW-Authenticate, lower-cased (RFC 9110 §10.2.3, §11.6.1)', () => {
    const thrown = createError(401, 'Log in first.', {
      headers: { 'WWW-Authenticate': 'Bearer realm="books"', 'Retry-After': 30 },
    });
    expect(toApiError(thrown).headers).toEqual({
      'www-authenticate': 'Bearer realm="books"',
      'retry-after': '30',
    });
  });

  it('keeps the headers of a hidden 5xx (503 with Retry-After)', () => {
    const error = toApiError(createError(503, 'db down', { headers: { 'Retry-After': '120' } }));
    expect(error.message).toBe(generic);
    expect(error.headers).toEqual({ 'retry-after': '120' });
  });

  it.each([
    ['a value with CR LF', { 'x-split': 'a\r\nset-cookie: owned=1' }],
    ['a value with LF', { 'x-split': 'a\nb' }],
    ['a value with NUL', { 'x-nul': 'a\0b' }],
    ['a value outside Latin-1', { 'x-euro': '€5' }],
    ['a name that is not a token (RFC 9110 §5.6.2)', { 'x bad': 'v', 'x:y': 'v', 'x-é': 'v' }],
    [
      'a value that is not a string or number',
      { 'x-list': ['a', 'b'], 'x-obj': {}, 'x-nan': Number.NaN },
    ],
    [
      'a header of the body the error does not send',
      { 'Content-Type': 'text/html', 'content-length': '3' },
    ],
  ])('drops %s and keeps the rest', (_, bad) => {
    const thrown = createError(429, 'Slow down.', { headers: { ...bad, 'Retry-After': '5' } });
    expect(toApiError(thrown).headers).toEqual({ 'retry-after': '5' });
  });

  it('gives no headers when none can be sent', () => {
    expect(toApiError(createError(429, 'x', { headers: { 'x-bad': 'a\nb' } })).headers).toBe(
      undefined,
    );
  });

  it('answers with the kept headers and the JSON error body', () => {
    const out = errorToOutgoing(
      createError(429, 'Slow down.', { headers: { 'Retry-After': 5 } }),
      fakeLogger(),
    );
    expect(out.status).toBe(429);
    expect(out.headers.record).toEqual({ 'retry-after': '5' });
    expect(out.body).toEqual({ errors: [{ message: 'Slow down.', code: 42900 }] });
  });
});

describe('logging errors of other libraries', () => {
  it.each([400, 401, 404, 429])('does not log an http-errors %i as a fault', (status) => {
    const logger = fakeLogger();
    errorToOutgoing(createError(status), logger, { method: 'GET', path: '/v1/books' });
    expect(logger.error).not.toHaveBeenCalled();
  });

  it('logs a hidden 5xx as a fault, with the thrown error under err', () => {
    const logger = fakeLogger();
    const thrown = createError(503, 'db at 10.0.0.3 down');
    const out = errorToOutgoing(thrown, logger, { method: 'GET', path: '/v1/books' });
    expect(out.status).toBe(503);
    expect(logger.error).toHaveBeenCalledWith(
      { err: thrown, method: 'GET', path: '/v1/books' },
      'GET /v1/books failed',
    );
  });

  it('logs the other library’s error, not the ApiError made from it, when an adapter converted it first', () => {
    const logger = fakeLogger();
    const thrown = createError(502, 'upstream 10.0.0.3 closed');
    errorToOutgoing(fromHttpError(thrown), logger);
    expect(logger.error.mock.calls[0]![0].err).toBe(thrown);
  });

  it('answers a logged 500 when an ApiError carries a header that cannot be sent, instead of throwing', () => {
    const logger = fakeLogger();
    const thrown = new ApiError(401, 40100, 'x', { headers: { 'www-authenticate': 'a\r\nb' } });
    const out = errorToOutgoing(thrown, logger);
    expect(out.status).toBe(500);
    expect(out.headers.record).toEqual({});
    expect(logger.error).toHaveBeenCalledOnce();
    expect(logger.error.mock.calls[0]![0].err).toBeInstanceOf(TypeError);
  });
});

describe('fromHttpError', () => {
  it('returns an ApiError as it is', () => {
    const error = notFound('No book.');
    expect(fromHttpError(error)).toBe(error);
  });

  it.each([
    ['a plain Error', new Error('x')],
    ['a string', 'x'],
    ['null', null],
  ])('returns %s as it is', (_, thrown) => {
    expect(fromHttpError(thrown)).toBe(thrown);
  });

  it('gives the status it is handed precedence over the error’s own (Fastify’s reply.code(404).send(error))', () => {
    const error = fromHttpError(new Error('No book with id "dune".'), 404);
    expect(isApiError(error) && error.toJSON()).toEqual({
      errors: [{ message: 'No book with id "dune".', code: 40400 }],
    });
    expect((fromHttpError(createError(500), 409) as ApiError).status).toBe(409);
  });

  it.each([200, 302, undefined])(
    'ignores a handed status %s that is not an error status',
    (status) => {
      expect(fromHttpError(new Error('x'), status)).toBeInstanceOf(Error);
      expect(isApiError(fromHttpError(new Error('x'), status))).toBe(false);
    },
  );
});
