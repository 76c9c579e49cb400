import { describe, expect, it } from 'vitest';
import {
  type BodyDecoder,
  checkRequestHead,
  checkTransferCoding,
  contentCodingsOf,
  decodeBody,
  refusalError,
  refusalResponse,
  refusals,
  toRefusalResponse,
} from '../../src/core/index.ts';
import { conventions, ErrorCode } from '../../src/index.ts';

const headers = (values: Record<string, string>) => ({ get: (name: string) => values[name] });

describe('checkRequestHead', () => {
  it.each([
    ['a target at the limit', { url: `/${'a'.repeat(15)}`, headers: headers({}) }, undefined],
    [
      'a target over the limit (spec 7.2)',
      { url: `/${'a'.repeat(16)}`, headers: headers({}) },
      41400,
    ],
    [
      'Expect: 100-continue',
      { url: '/', headers: headers({ expect: '100-Continue ' }) },
      undefined,
    ],
    ['Expect: foo (RFC 9110 §10.1.1)', { url: '/', headers: headers({ expect: 'foo' }) }, 41700],
    [
      'HTTP/1.1 without Host (RFC 9112 §3.2)',
      { url: '/', headers: headers({}), httpVersion: '1.1' },
      40028,
    ],
    ['HTTP/1.0 without Host', { url: '/', headers: headers({}), httpVersion: '1.0' }, undefined],
    ['a host that does not say its version', { url: '/', headers: headers({}) }, undefined],
    [
      'Host: shelf.test:8080',
      { url: '/', headers: headers({ host: 'shelf.test:8080' }) },
      undefined,
    ],
    ['Host: [::1]:3000', { url: '/', headers: headers({ host: '[::1]:3000' }) }, undefined],
    [
      'an empty Host (RFC 9112 §3.2)',
      { url: '/', headers: headers({ host: '' }), httpVersion: '1.1' },
      undefined,
    ],
    ['Host: a b (RFC 9112 §3.2)', { url: '/', headers: headers({ host: 'a b' }) }, 40028],
    ['Host: x/y', { url: '/', headers: headers({ host: 'x/y' }) }, 40028],
    ['two Hosts joined (RFC 9112 §3.2)', { url: '/', headers: headers({ host: 'a, b' }) }, 40028],
  ])('%s', (_what, head, code) => {
    expect(checkRequestHead(head, 16)?.code).toBe(code);
  });
});

describe('host answers', () => {
  it.each(refusals)('answers %s with a 4xx or 501 catalogue code', (kind) => {
    const error = refusalError(kind);
    expect(Object.values(ErrorCode)).toContain(error.code);
    expect([400, 408, 414, 431, 501]).toContain(error.status);
  });

  it('writes the error body, the always-on headers and Connection: close as HTTP/1.1 text', () => {
    const answer = toRefusalResponse(refusalError('headersTooLarge'), {
      'x-frame-options': 'DENY',
    });
    expect(answer.raw).toBe(
      'HTTP/1.1 431 Request Header Fields Too Large\r\n' +
        'x-frame-options: DENY\r\ncontent-type: application/json\r\n' +
        `content-length: ${Buffer.byteLength(answer.body)}\r\nconnection: close\r\n\r\n${answer.body}`,
    );
    expect(JSON.parse(answer.body)).toEqual({
      errors: [{ message: expect.any(String), code: 43100 }],
    });
  });

  it('builds each answer once per Conventions and names its uriLimit in the 414', () => {
    const api = conventions({ uriLimit: 100 });
    expect(refusalResponse(api, 'timeout')).toBe(refusalResponse(api, 'timeout'));
    expect(refusalResponse(api, 'uriTooLong').body).toContain('100 characters');
    expect(refusalResponse(api, 'timeout').headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses a uriLimit that is not a whole number at start-up', () => {
    expect(() => conventions({ uriLimit: 1.5 })).toThrow(TypeError);
  });
});

describe('body codings', () => {
  const thrown = (run: () => unknown) => {
    try {
      run();
    } catch (error) {
      return error as { status: number; code: number; headers?: Record<string, string> };
    }
    return undefined;
  };

  it.each([
    ['chunked', undefined],
    ['Chunked', undefined],
    ['gzip, chunked (RFC 9112 §6.1)', 50100],
    ['gzip (RFC 9112 §6.3)', 40027],
    ['chunked, gzip (RFC 9112 §6.3)', 40027],
  ])('checks Transfer-Encoding: %s', (value, code) => {
    const te = value.replace(/ \(.*\)$/, '');
    expect(thrown(() => checkTransferCoding(headers({ 'transfer-encoding': te })))?.code).toBe(
      code,
    );
  });

  it.each([
    ['gzip', ['gzip']],
    ['x-gzip', ['gzip']],
    ['identity', undefined],
    ['GZIP , br', ['gzip', 'br']],
  ])('reads Content-Encoding: %s as the codings %j', (value, codings) => {
    expect(contentCodingsOf(headers({ 'content-encoding': value }), ['gzip', 'br'])).toEqual(
      codings,
    );
  });

  it('answers a coding the route does not read with 415 and Accept-Encoding (RFC 9110 §15.5.16)', () => {
    const error = thrown(() => contentCodingsOf(headers({ 'content-encoding': 'zstd' }), ['gzip']));
    expect(error).toMatchObject({
      status: 415,
      code: 41501,
      headers: { 'accept-encoding': 'gzip' },
    });
    const none = thrown(() => contentCodingsOf(headers({ 'content-encoding': 'gzip' }), []));
    expect(none?.headers).toEqual({ 'accept-encoding': 'identity' });
  });

  const bytes = new Uint8Array([1, 2, 3]);
  const grow: BodyDecoder = (_coding, input, max) =>
    Promise.resolve(new Uint8Array(Math.min(input.byteLength * 10, max + 1)));

  it('undoes the codings last applied first, each bounded by the limit', async () => {
    const seen: string[] = [];
    const decoder: BodyDecoder = (coding, input) => {
      seen.push(coding);
      return Promise.resolve(input);
    };
    await decodeBody(bytes, ['gzip', 'br'], decoder, 10, ['gzip', 'br']);
    expect(seen).toEqual(['br', 'gzip']);
    await expect(decodeBody(bytes, ['gzip'], grow, 10, ['gzip'])).rejects.toMatchObject({
      status: 413,
      code: 41301,
    });
  });

  it('answers bytes that do not decode with 400, and a coding the host lacks with 415', async () => {
    const broken: BodyDecoder = () => Promise.reject(new Error('bad header'));
    await expect(decodeBody(bytes, ['gzip'], broken, 10, ['gzip'])).rejects.toMatchObject({
      status: 400,
      code: 40029,
    });
    await expect(decodeBody(bytes, ['br'], () => undefined, 10, ['br'])).rejects.toMatchObject({
      status: 415,
    });
    await expect(decodeBody(bytes, ['br'], undefined, 10, ['br'])).rejects.toMatchObject({
      status: 415,
    });
  });

  it('refuses an unknown coding in a route setting at start-up', () => {
    expect(() =>
      conventions({
        routes: {
          '/v1/x': { POST: { handler: () => ({}), config: { encodings: ['zip' as 'gzip'] } } },
        },
      }),
    ).toThrow(/encodings/);
  });
});
