import { readCookie, serializeCookie } from 'api-conventions';
import { describe, expect, it } from 'vitest';

describe('serializeCookie', () => {
  it('builds the spec’s session cookie by default: Path, Secure, HttpOnly (spec 4.8)', () => {
    expect(serializeCookie('__Host-session', 'abc123')).toBe(
      '__Host-session=abc123; Path=/; Secure; HttpOnly; SameSite=Lax',
    );
  });

  it('writes every attribute it is given', () => {
    expect(
      serializeCookie('pref', 'dark', {
        path: '/v1',
        domain: 'example.com',
        maxAge: 3600,
        expires: new Date(Date.UTC(2030, 0, 1)),
        httpOnly: false,
        sameSite: 'None',
        partitioned: true,
      }),
    ).toBe(
      'pref=dark; Path=/v1; Domain=example.com; Max-Age=3600; Expires=Tue, 01 Jan 2030 00:00:00 GMT; Secure; SameSite=None; Partitioned',
    );
  });

  it.each([
    [
      'SameSite=None without Secure',
      () => serializeCookie('a', 'b', { sameSite: 'None', secure: false }),
      /SameSite=None needs Secure/,
    ],
    [
      '__Host- without Secure',
      () => serializeCookie('__Host-a', 'b', { secure: false }),
      /__Host- cookie needs Secure/,
    ],
    [
      '__Host- with a Domain',
      () => serializeCookie('__Host-a', 'b', { domain: 'example.com' }),
      /cannot have a Domain/,
    ],
    [
      '__Host- with another Path',
      () => serializeCookie('__Host-a', 'b', { path: '/v1' }),
      /must have Path=\//,
    ],
    [
      '__Secure- without Secure',
      () => serializeCookie('__Secure-a', 'b', { secure: false }),
      /__Secure- cookie needs Secure/,
    ],
    [
      'a control character in the value',
      () => serializeCookie('a', 'b\u0001c'),
      /control character/,
    ],
    [
      'a line break in the value',
      () => serializeCookie('a', 'b\r\nSet-Cookie: x=y'),
      /control character/,
    ],
    ['a semicolon in the value', () => serializeCookie('a', 'b; Domain=evil'), /encode it first/],
    ['a space in the value', () => serializeCookie('a', 'b c'), /encode it first/],
    ['a name that is not a token', () => serializeCookie('a b', 'c'), /cookie name is a token/],
    [
      'a path with a semicolon',
      () => serializeCookie('a', 'b', { path: '/x;Domain=evil' }),
      /the path/,
    ],
    ['a bad domain', () => serializeCookie('a', 'b', { domain: 'evil;x' }), /not a domain/],
    [
      'Partitioned without Secure',
      () => serializeCookie('a', 'b', { partitioned: true, secure: false }),
      /Partitioned needs Secure/,
    ],
    ['a fractional Max-Age', () => serializeCookie('a', 'b', { maxAge: 1.5 }), /whole number/],
  ])('refuses %s at call time', (_what, call, message) => {
    expect(call).toThrow(TypeError);
    expect(call).toThrow(message);
  });
});

describe('readCookie', () => {
  it.each([
    ['a=1; b=2', 'b', '2'],
    ['a=1;b=2', 'b', '2'],
    ['a=1; b="quoted"', 'b', 'quoted'],
    ['ab=1; b=2', 'b', '2'],
    ['b=first; b=second', 'b', 'first'],
    ['a=1', 'b', undefined],
    ['', 'b', undefined],
    ['garbage', 'b', undefined],
    ['a; b=2', 'b', '2'],
    ['a;;b;c=3;d', 'c', '3'],
    ['a; b; c', 'c', undefined],
  ])('reads %j for %s', (header, name, value) => {
    expect(readCookie(header, name)).toBe(value);
  });

  it.each([
    ['pairs without "="', 'a;'.repeat(20_000)],
    ['pairs without "=" before the cookie', `${'a;'.repeat(20_000)}session=s1`],
  ])(
    'scans a Cookie header of 20,000 %s in linear work (regression: quadratic search)',
    (_, text) => {
      // A header that counts the characters each search of it passes over.
      let scanned = 0;
      const header = {
        length: text.length,
        indexOf(search: string, from = 0) {
          const at = text.indexOf(search, from);
          scanned += (at === -1 ? text.length : at + 1) - from;
          return at;
        },
        slice: (start: number, end?: number) => text.slice(start, end),
      } as unknown as string;
      readCookie(header, 'session');
      expect(readCookie(text, 'session')).toBe(text.endsWith('s1') ? 's1' : undefined);
      expect(scanned).toBeLessThanOrEqual(2 * text.length);
    },
  );
});
