/** The library's one base64url codec: canonical text only (RFC 4648 §3.5, §4, §5). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fromBase64, fromBase64Url, toBase64Url } from '../../src/core/internal/base64url.ts';

const text = new TextEncoder();
const urlAlphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';

/** Every other spelling of `encoded` that differs only in the spare bits of its last character. */
function spareBitSpellings(encoded: string): string[] {
  const spare = encoded.length % 4 === 2 ? 4 : encoded.length % 4 === 3 ? 2 : 0;
  const last = urlAlphabet.indexOf(encoded[encoded.length - 1]!);
  const out: string[] = [];
  for (let bits = 1; bits < 1 << spare; bits++) {
    out.push(encoded.slice(0, -1) + urlAlphabet[last | bits]!);
  }
  return out;
}

describe('base64url (RFC 4648 §5)', () => {
  it.each(['', 'f', 'fo', 'foo', 'foob', 'fooba', 'foobar', '\u00ff\u00fe'])(
    'round-trips %j as Node writes it',
    (value) => {
      const bytes = text.encode(value);
      expect(toBase64Url(bytes)).toBe(Buffer.from(bytes).toString('base64url'));
      expect(fromBase64Url(toBase64Url(bytes))).toEqual(bytes);
    },
  );

  it('round-trips any bytes, and the text of any bytes is the only one that decodes to them', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const encoded = toBase64Url(bytes);
        expect(encoded).toBe(Buffer.from(bytes).toString('base64url'));
        expect(fromBase64Url(encoded)).toEqual(bytes);
        for (const other of spareBitSpellings(encoded))
          expect(fromBase64Url(other)).toBeUndefined();
      }),
    );
  });

  it('refuses all 15 other spellings of a 64-byte signature, whose last character has 4 spare bits (RFC 4648 §3.5)', () => {
    const signature = toBase64Url(new Uint8Array(64).fill(0xa5));
    const others = spareBitSpellings(signature);
    expect(others).toHaveLength(15);
    // Node's own decoder ignores the spare bits: each spelling is the same signature to it.
    for (const other of others) {
      expect(Buffer.from(other, 'base64url')).toEqual(Buffer.from(signature, 'base64url'));
      expect(fromBase64Url(other)).toBeUndefined();
    }
  });

  it('refuses the 3 other spellings of 32 bytes, whose last character has 2 spare bits', () => {
    const digest = toBase64Url(new Uint8Array(32).fill(7));
    const others = spareBitSpellings(digest);
    expect(others).toHaveLength(3);
    for (const other of others) expect(fromBase64Url(other)).toBeUndefined();
  });

  it.each([
    ['a length of 4n + 1', 'abcde'],
    ['a single character', 'a'],
    ['padding', 'Zm8='],
    ['padding alone', '=='],
    ['the base64 alphabet', 'a+b/'],
    ['a space', 'Zm 9v'],
    ['a line break', 'Zm9v\nYmFy'],
    ['a non-ASCII letter', 'Zm9ü'],
    ['a character that folds to ASCII', 'Zm9\u212a'],
    ['spare bits (one byte)', 'AB'],
    ['spare bits (two bytes)', 'AAB'],
  ])('refuses %s (%j)', (_what, value) => {
    expect(fromBase64Url(value)).toBeUndefined();
  });
});

describe('base64 with padding, for Basic credentials (RFC 4648 §4, RFC 7617 §2)', () => {
  it('round-trips any bytes as Node writes them', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 80 }), (bytes) => {
        const encoded = Buffer.from(bytes).toString('base64');
        expect(fromBase64(encoded)).toEqual(bytes);
      }),
    );
  });

  it.each([
    ['missing padding', 'Zm8'],
    ['padding in the middle', 'Zg==Zm8='],
    ['three padding characters', 'Z==='],
    ['spare bits before the padding', 'Zh=='],
    ['spare bits before one padding character', 'Zm9='],
    ['the base64url alphabet', 'a-b_'],
    ['a length of 4n + 1', 'Zm9vY'],
  ])('refuses %s (%j)', (_what, value) => {
    expect(fromBase64(value)).toBeUndefined();
  });
});
