/** What companions raise and what compression needs, as pure values: fromHostError, codingKey, heldTag. */
import { ErrorCode, isApiError } from 'api-conventions';
import { describe, expect, it } from 'vitest';
import { codingKey, heldTag } from '../../src/core/caching/coding-key.ts';
import { companionWarning } from '../../src/core/host/companions.ts';
import { fromHostError } from '../../src/core/host/host-errors.ts';

/** multer's error as multer 2 builds it: a name and a code, no status. */
function multerError(code: string, field?: string) {
  return Object.assign(new Error('x'), { name: 'MulterError', code, field });
}

describe('fromHostError on companions’ errors', () => {
  it.each([
    [
      multerError('LIMIT_FILE_SIZE', 'avatar'),
      413,
      ErrorCode.PayloadTooLarge,
      'The file in the field "avatar" is larger than the limit.',
    ],
    [
      multerError('LIMIT_FILE_COUNT'),
      413,
      ErrorCode.PayloadTooLarge,
      'The upload has more files than the limit allows.',
    ],
    [
      multerError('LIMIT_UNEXPECTED_FILE', 'x'),
      400,
      ErrorCode.UnknownField,
      'The upload has a file in the field "x" not expected here.',
    ],
    [
      { code: 'FST_PARTS_LIMIT', statusCode: 413, message: 'reach parts limit' },
      413,
      ErrorCode.PayloadTooLarge,
      'The upload has more parts than the limit allows.',
    ],
  ])(
    'maps an upload error to the catalogue (RFC 9110 §15.5.14)',
    (error, status, code, message) => {
      const mapped = fromHostError(error);
      expect(isApiError(mapped) && [mapped.status, mapped.code, mapped.message]).toEqual([
        status,
        code,
        message,
      ]);
    },
  );

  it.each([
    [{ status: 401, message: 'Unauthorized' }, {}, 'Bearer', ErrorCode.Unauthorized],
    [
      { status: 401, message: 'Unauthorized' },
      { challenge: 'Bearer realm="x", error="invalid_token"' },
      'Bearer realm="x", error="invalid_token"',
      ErrorCode.InvalidToken,
    ],
    [
      { statusCode: 401, code: 'FST_JWT_AUTHORIZATION_TOKEN_EXPIRED', message: 'expired' },
      {},
      'Bearer error="invalid_token"',
      ErrorCode.InvalidToken,
    ],
    [
      { statusCode: 401, message: 'no' },
      { challenge: 'Bearer\r\nx: y' },
      'Bearer',
      ErrorCode.Unauthorized,
    ],
  ])('gives a 401 a challenge (RFC 6750 §3)', (error, facts, challenge, code) => {
    const mapped = fromHostError(error, facts);
    expect(isApiError(mapped) && mapped.headers?.['www-authenticate']).toBe(challenge);
    expect(isApiError(mapped) && mapped.code).toBe(code);
  });

  it('reads a SyntaxError as malformed JSON only when the app read the body itself', () => {
    const error = new SyntaxError('Unexpected end of JSON input');
    const read = fromHostError(error, { bodyRead: true });
    expect(isApiError(read) && [read.status, read.code]).toEqual([400, ErrorCode.MalformedBody]);
    expect(fromHostError(error)).toBe(error);
  });
});

describe('codingKey', () => {
  it.each([
    [null, ''],
    ['', ''],
    ['identity', ''],
    ['gzip;q=0', ''],
    ['unknown-coding', ''],
  ])('is empty for %j, which no compression package encodes', (value, key) => {
    expect(codingKey(value)).toBe(key);
  });

  it('is the same for the same codings and weights, in any order or case, and differs otherwise', () => {
    expect(codingKey('gzip, br')).toBe(codingKey('BR ,gzip'));
    expect(codingKey('gzip')).not.toBe(codingKey('br'));
    expect(codingKey('gzip;q=1, br;q=0.5')).not.toBe(codingKey('gzip;q=0.5, br;q=1'));
    expect(codingKey('gzip')).toMatch(/^[0-9a-z]{1,7}$/);
  });
});

describe('heldTag', () => {
  it.each([
    ['"a@k"', 'W/"a@k"', 'W/"a@k"'],
    ['"a@k"', '"a@k"', '"a@k"'],
    ['"a@k"', 'W/"a@k", "a@k"', '"a@k"'],
    ['"a@k"', 'W/"b"', '"a@k"'],
    ['W/"a"', 'W/"a"', 'W/"a"'],
    ['"a"', undefined, '"a"'],
  ])('gives a 304 for %s the tag the client holds (If-None-Match %s)', (tag, held, sent) => {
    expect(heldTag(tag, held)).toBe(sent);
  });
});

describe('companionWarning', () => {
  it('warns only where the service has the plugin the companion doubles up', () => {
    expect(companionWarning('express-rate-limit', ['rate-limit'])).toMatch(/Keep one/);
    expect(companionWarning('express-rate-limit', ['bearer'])).toBeUndefined();
    expect(companionWarning('compression', ['caching'])).toBeUndefined();
  });
});
