import { MemoryStore } from 'api-conventions';
import { type BruteForceOptions, oauthServer } from 'api-conventions/oauth';
import { describe, expect, it } from 'vitest';

const base = {
  scopes: ['books:read'],
  clients: [{ id: 'app', secret: 'app-secret', grants: ['client_credentials' as const] }],
  tokens: { issue: async () => ({ token: 't', expiresIn: 1, jti: 'j', expiresAt: 1 }) },
};

const withBruteForce = (bruteForce: unknown) =>
  oauthServer({ ...base, bruteForce: bruteForce as BruteForceOptions });

describe('oauthServer bruteForce options', () => {
  it('accepts the defaults, false, and consistent limits', () => {
    expect(() => withBruteForce(undefined)).not.toThrow();
    expect(() => withBruteForce(false)).not.toThrow();
    expect(() =>
      withBruteForce({
        maxFailures: 5,
        maxClientFailures: 20,
        windowSeconds: 600,
        maxClientTotalFailures: 500,
        clientWindowSeconds: 7200,
        ipv6Prefix: 48,
      }),
    ).not.toThrow();
  });

  it.each([
    [{ maxFailure: 3 }, /unknown option `maxFailure`\. Did you mean `maxFailures`\?/],
    [{ maxFailures: 0 }, /`bruteForce\.maxFailures` must be a whole number from 1/],
    [{ maxClientFailures: 1.5 }, /`bruteForce\.maxClientFailures` must be a whole number/],
    [
      { windowSeconds: 86_401 },
      /`bruteForce\.windowSeconds` must be a whole number from 1 to 86400/,
    ],
    [
      { windowSeconds: 600, clientWindowSeconds: 300 },
      /`bruteForce\.clientWindowSeconds` must be a whole number from 600/,
    ],
    [{ ipv6Prefix: 129 }, /`bruteForce\.ipv6Prefix` must be a whole number from 1 to 128/],
    [{ store: {} }, /`bruteForce\.store` must be a Store/],
  ])('refuses %j with a TypeError that says how to fix it', (options, message) => {
    expect(() => withBruteForce(options)).toThrow(TypeError);
    expect(() => withBruteForce(options)).toThrow(message);
  });

  it('refuses a client ceiling one network could reach on its own, saying what to raise', () => {
    // 100 per 900 s from one network is up to 500 in 3600 s: a ceiling of 400 would let one
    // address lock the client out for everyone.
    const options = { maxClientTotalFailures: 400 };
    expect(() => withBruteForce(options)).toThrow(
      new TypeError(
        'oauthServer: in `bruteForce`, one network may fail 100 times per 900 s, up to 500 times ' +
          'per 3600 s, so on its own it would reach maxClientTotalFailures (400) and lock the ' +
          'client out for everyone; raise maxClientTotalFailures to at least 500, or lower ' +
          'maxClientFailures or clientWindowSeconds.',
      ),
    );
  });
});

describe('oauthServer store and maxRefreshFamilies', () => {
  const warningsOf = (options: Partial<Parameters<typeof oauthServer>[0]>) => {
    const warnings: string[] = [];
    oauthServer({ ...base, ...options }).setup?.({
      logger: { error() {}, warn: (message: string) => warnings.push(message) },
    } as never);
    return warnings;
  };

  it("warns at start-up about a MemoryStore that refuses new keys when full, saying to use whenFull: 'evict'", () => {
    expect(warningsOf({ store: new MemoryStore() })).toEqual([
      expect.stringMatching(/refuses new keys when full.*whenFull: 'evict'/),
    ]);
    expect(warningsOf({ store: new MemoryStore({ whenFull: 'evict' }) })).toEqual([]);
    expect(warningsOf({})).toEqual([]);
  });

  it.each([0, 1.5, 1001, '10'])('refuses maxRefreshFamilies %j with a TypeError', (value) => {
    expect(() => oauthServer({ ...base, maxRefreshFamilies: value as number })).toThrow(
      /`maxRefreshFamilies` must be a whole number from 1 to 1000/,
    );
  });
});
