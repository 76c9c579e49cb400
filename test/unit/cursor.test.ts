import { describe, expect, it } from 'vitest';
import { toBase64Url } from '../../src/core/internal/base64url.ts';
import { CursorSeal, looksLikeCursor } from '../../src/core/paging/cursor.ts';

const text = new TextEncoder();

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
