import { describe, expect, it } from 'vitest';
import { checkRequestHead, hostFailure, hostFailures, toHostAnswer } from '../../src/host.ts';
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
  ])('%s', (_what, head, code) => {
    expect(checkRequestHead(head, 16)?.code).toBe(code);
  });
});

describe('host answers', () => {
  it.each(hostFailures)('answers %s with a 4xx or 501 catalogue code', (kind) => {
    const error = hostFailure(kind);
    expect(Object.values(ErrorCode)).toContain(error.code);
    expect([400, 408, 414, 431, 501]).toContain(error.status);
  });

  it('writes the error body, the always-on headers and Connection: close as HTTP/1.1 text', () => {
    const answer = toHostAnswer(hostFailure('headersTooLarge'), { 'x-frame-options': 'DENY' });
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
    expect(api.hostAnswer('timeout')).toBe(api.hostAnswer('timeout'));
    expect(api.hostAnswer('uriTooLong').body).toContain('100 characters');
    expect(api.hostAnswer('timeout').headers['x-content-type-options']).toBe('nosniff');
  });

  it('refuses a uriLimit that is not a whole number at start-up', () => {
    expect(() => conventions({ uriLimit: 1.5 })).toThrow(TypeError);
  });
});
