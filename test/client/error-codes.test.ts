/**
 * The type of an error's code (spec 7.1.5): the library's catalogue (docs/errors.md) as literals,
 * open to a service's own codes, on `code` and on every entry. The `@ts-expect-error` lines and
 * `expectTypeOf` fail `npm run typecheck` if the type changes; the function never runs.
 */
import { ErrorCode } from 'api-conventions';
import {
  ApiResponseError,
  type Client,
  type ClientErrorCode,
  isApiResponseError,
} from 'api-conventions/client';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { BookshelfRoutes } from '../../examples/bookshelf-client/routes.ts';

/** Type checks only: compiled, never called. */
async function typed(client: Client<BookshelfRoutes>) {
  try {
    await client.get('/v1/books/:id', { params: { id: 'emma' } });
  } catch (error) {
    if (!isApiResponseError(error)) throw error;
    expectTypeOf(error.code).toEqualTypeOf<ClientErrorCode>();
    expectTypeOf(error.errors[0]!.code).toEqualTypeOf<ClientErrorCode>();
    // Every code of the catalogue is one, as its literal: not widened to number.
    expectTypeOf<(typeof ErrorCode)[keyof typeof ErrorCode]>().toExtend<ClientErrorCode>();
    expectTypeOf<ClientErrorCode>().not.toEqualTypeOf<number>();
    expectTypeOf<Extract<ClientErrorCode, 40400>>().toEqualTypeOf<40400>();
    // A service's own code in the same scheme is one too.
    const own: ClientErrorCode = 42201;
    // @ts-expect-error a code is an integer, not text
    const text: ClientErrorCode = '40400';
    switch (error.code) {
      case ErrorCode.NotFound:
      case ErrorCode.PreconditionFailed:
      case 42201:
        return [own, text];
    }
  }
  return [];
}

describe('the codes of ApiResponseError', () => {
  it('are typed as the catalogue, open to a service’s codes (spec 7.1.5; checked by the compiler)', () => {
    expect(typeof typed).toBe('function');
    const error = new ApiResponseError('GET', 'http://127.0.0.1/v1/books/x', 404, new Headers(), {
      errors: [{ message: 'No book with id "x".', code: ErrorCode.NotFound }],
    });
    const code: ClientErrorCode = error.code;
    expect(code).toBe(40400);
  });
});
