import { createHash, createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { toBase64Url } from '../../src/core/internal/base64url.ts';
import { hmacKey, hmacSha256, sha256 } from '../../src/core/internal/hmac.ts';
import { CursorSeal, looksLikeCursor } from '../../src/core/paging/cursor.ts';

const text = new TextEncoder();
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');

describe('SHA-256 and HMAC-SHA-256 without node:crypto (FIPS 180-4, RFC 2104)', () => {
  it.each(['', 'abc', 'x'.repeat(55), 'x'.repeat(56), 'x'.repeat(64), 'é'.repeat(300)])(
    'agrees with node:crypto on %#',
    (message) => {
      expect(hex(sha256(text.encode(message)))).toBe(
        createHash('sha256').update(message).digest('hex'),
      );
      for (const secret of ['k', 'k'.repeat(64), 'k'.repeat(100)]) {
        expect(hex(hmacSha256(hmacKey(text.encode(secret)), text.encode(message)))).toBe(
          createHmac('sha256', secret).update(message).digest('hex'),
        );
      }
    },
  );

  it('matches the RFC 4231 test case 2', () => {
    const mac = hmacSha256(
      hmacKey(text.encode('Jefe')),
      text.encode('what do ya want for nothing?'),
    );
    expect(hex(mac)).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
  });
});

describe('cursors: opaque and tamper-evident (spec 4.4)', () => {
  const seal = new CursorSeal(text.encode('0123456789abcdef0123456789abcdef'));
  const position = { sort: '-year,id', values: [1813, new Date(Date.UTC(2026, 0, 1)), 'emma'] };

  it('round-trips a position, dates included', () => {
    const cursor = seal.seal('books', position);
    expect(looksLikeCursor(cursor)).toBe(true);
    expect(seal.open('books', cursor)).toEqual(position);
  });

  it('opens nothing altered, truncated, from another list or another secret', () => {
    const cursor = seal.seal('books', position);
    const [payload, mac] = cursor.split('.') as [string, string];
    const flipped = `${payload.slice(0, 5)}${payload[5] === 'A' ? 'B' : 'A'}${payload.slice(6)}.${mac}`;
    expect(seal.open('books', flipped)).toBeUndefined();
    expect(seal.open('books', `${payload}.${mac.slice(0, -1)}A`)).toBeUndefined();
    expect(seal.open('books', cursor.slice(0, -3))).toBeUndefined();
    expect(seal.open('authors', cursor)).toBeUndefined();
    expect(
      new CursorSeal(text.encode('another secret, 32 bytes long!!!')).open('books', cursor),
    ).toBeUndefined();
    const forged = `${toBase64Url(text.encode('["-year,id",[1,"x"]]'))}.${mac}`;
    expect(seal.open('books', forged)).toBeUndefined();
  });

  it.each(['', '.', 'abc', 'emma', 'a.b', '....', `${'A'.repeat(10)}.${'!'.repeat(22)}`])(
    'tells %j is no cursor or opens nothing',
    (value) => {
      expect(seal.open('books', value)).toBeUndefined();
    },
  );
});
