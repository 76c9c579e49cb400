/**
 * The security primitives the core takes from the platform and maintained libraries instead of
 * writing them: HMAC-SHA-256 through node:crypto and through @noble/hashes (RFC 4231 vectors),
 * SHA-256 through Web Crypto (FIPS 180-4 examples), one random token, one bounded cache, one
 * `isProduction` that never throws.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BoundedCache } from '../../src/core/internal/bounded-cache.ts';
import { hmacKey, hmacSha256 } from '../../src/core/internal/hmac.ts';
import { isProduction, nodeCrypto } from '../../src/core/internal/platform.ts';
import { randomToken } from '../../src/core/internal/random.ts';
import { Offer } from '../../src/core/negotiation/media-types.ts';
import { compileIssuer } from '../../src/core/oauth/issuer.ts';
import { digestKey, sha256 } from '../../src/core/oauth/secrets.ts';
import { conventions, createTokenKeys } from '../../src/index.ts';

const text = new TextEncoder();
const hex = (bytes: Uint8Array) => Buffer.from(bytes).toString('hex');
const bytes = (hexText: string) => new Uint8Array(Buffer.from(hexText, 'hex'));

// RFC 4231 §4.2-4.8: key, data, HMAC-SHA-256 (case 5 is truncated to 128 bits).
const rfc4231: [string, Uint8Array, Uint8Array, string][] = [
  [
    'test case 1',
    bytes('0b'.repeat(20)),
    text.encode('Hi There'),
    'b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7',
  ],
  [
    'test case 2',
    text.encode('Jefe'),
    text.encode('what do ya want for nothing?'),
    '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
  ],
  [
    'test case 3',
    bytes('aa'.repeat(20)),
    bytes('dd'.repeat(50)),
    '773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe',
  ],
  [
    'test case 4',
    bytes('0102030405060708090a0b0c0d0e0f10111213141516171819'),
    bytes('cd'.repeat(50)),
    '82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b',
  ],
  [
    'test case 5 (truncated)',
    bytes('0c'.repeat(20)),
    text.encode('Test With Truncation'),
    'a3b6167473100ee06e0c796c2955552b',
  ],
  [
    'test case 6 (key longer than a block)',
    bytes('aa'.repeat(131)),
    text.encode('Test Using Larger Than Block-Size Key - Hash Key First'),
    '60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54',
  ],
  [
    'test case 7 (key and data longer than a block)',
    bytes('aa'.repeat(131)),
    text.encode(
      'This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm.',
    ),
    '9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2',
  ],
];

it('finds node:crypto through process.getBuiltinModule on Node', () => {
  expect(nodeCrypto?.createHmac).toBeTypeOf('function');
});

describe.each([
  ['node:crypto', nodeCrypto],
  ['@noble/hashes', undefined],
])('HMAC-SHA-256 through %s (RFC 4231, RFC 2104)', (_name, native) => {
  it.each(rfc4231)('matches RFC 4231 %s', (_case, key, data, mac) => {
    const got = hex(hmacSha256(hmacKey(key, native), data));
    expect(got.slice(0, mac.length)).toBe(mac);
  });

  it('agrees with createHmac for messages around the block size, many times over one key', () => {
    for (const secret of ['k', 'k'.repeat(64), 'k'.repeat(100)]) {
      const key = hmacKey(text.encode(secret), native);
      for (const message of ['', 'abc', 'x'.repeat(55), 'x'.repeat(56), 'é'.repeat(300)]) {
        for (let i = 0; i < 2; i++) {
          expect(hex(hmacSha256(key, text.encode(message)))).toBe(
            createHmac('sha256', secret).update(message).digest('hex'),
          );
        }
      }
    }
  });

  it('keeps its own copy of the secret', () => {
    const secret = text.encode('0123456789abcdef0123456789abcdef');
    const key = hmacKey(secret, native);
    const before = hex(hmacSha256(key, text.encode('m')));
    secret.fill(0);
    expect(hex(hmacSha256(key, text.encode('m')))).toBe(before);
  });
});

describe('SHA-256 through Web Crypto (FIPS 180-4 examples)', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
  ])('hashes %j', async (message, digest) => {
    expect(hex(await sha256(message))).toBe(digest);
    expect(await digestKey(message)).toBe(Buffer.from(digest, 'hex').toString('base64url'));
  });
});

describe('randomToken', () => {
  it('gives base64url of the asked number of random bytes, a new one each time', () => {
    const a = randomToken();
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(a, 'base64url')).toHaveLength(32);
    expect(randomToken(16)).toMatch(/^[A-Za-z0-9_-]{22}$/);
    expect(randomToken()).not.toBe(a);
  });
});

describe('BoundedCache', () => {
  it('never holds more than its bound and forgets the oldest insertion first', () => {
    const cache = new BoundedCache<string, number>(3);
    for (let i = 0; i < 10; i++) {
      cache.set(`k${i}`, i);
      expect(cache.size).toBeLessThanOrEqual(3);
    }
    expect([...cache.entries()]).toEqual([
      ['k7', 7],
      ['k8', 8],
      ['k9', 9],
    ]);
    // A read does not refresh (FIFO): k7 still goes next.
    expect(cache.get('k7')).toBe(7);
    cache.set('k10', 10);
    expect(cache.has('k7')).toBe(false);
    // Setting a kept key again replaces its value and evicts nothing.
    cache.set('k9', 90);
    expect(cache.size).toBe(3);
    expect(cache.get('k8')).toBe(8);
    expect(cache.get('k9')).toBe(90);
  });

  it('keeps nothing with a bound of 0, and refuses a bound that is no whole number', () => {
    const off = new BoundedCache<string, number>(0);
    off.set('a', 1);
    expect(off.size).toBe(0);
    expect(off.get('a')).toBeUndefined();
    expect(() => new BoundedCache(-1)).toThrow(TypeError);
    expect(() => new BoundedCache(1.5)).toThrow(TypeError);
  });

  it('bounds the Accept values negotiation remembers at its cacheSize', () => {
    const offer = new Offer(['json', 'xml'], undefined, 4);
    for (let i = 0; i < 50; i++) offer.negotiate(`application/xml;q=0.${i % 10}, text/x-${i}`);
    expect(offer.cached).toBe(4);
  });
});

describe('isProduction', () => {
  function withEnv<T>(descriptor: PropertyDescriptor, run: () => T): T {
    const saved = Object.getOwnPropertyDescriptor(process, 'env')!;
    Object.defineProperty(process, 'env', { ...descriptor, configurable: true });
    try {
      return run();
    } finally {
      Object.defineProperty(process, 'env', saved);
    }
  }

  it('reads NODE_ENV', () => {
    expect(withEnv({ value: { NODE_ENV: 'production' } }, isProduction)).toBe(true);
    expect(withEnv({ value: { NODE_ENV: 'development' } }, isProduction)).toBe(false);
    expect(withEnv({ value: undefined }, isProduction)).toBe(false);
  });

  it('answers false, never throws, where reading the environment throws (Deno without --allow-env)', async () => {
    const denied = {
      get() {
        throw new Error('PermissionDenied: Requires env access, run again with --allow-env');
      },
    };
    expect(withEnv(denied, isProduction)).toBe(false);
    // conventions() reads it at creation: it starts rather than throwing.
    expect(() => withEnv(denied, () => conventions({ lint: 'off', routes: {} }))).not.toThrow();
    // oauthServer() reads it when no issuer is given (to warn in production).
    expect(() => withEnv(denied, () => compileIssuer(undefined))).not.toThrow();
    // createTokenKeys reads it before its first await: it falls back to a development key.
    const keys = withEnv(denied, () => createTokenKeys({ logger: { error() {}, warn() {} } }));
    await expect(keys).resolves.toBeDefined();
  });
});
