/** Rate-limit accounting, pure: identities, policy checks, headers, store failure modes (spec section 8). */
import { describe, expect, it } from 'vitest';
import { RequestContext } from '../../src/core/kernel/context.ts';
import { clientNetwork } from '../../src/core/rate-limit/identity.ts';
import {
  ApiError,
  conventions,
  createRateLimiter,
  forbidden,
  type Identity,
  MemoryStore,
  type Plugin,
  type RateLimitOptions,
  rateLimit,
  type Store,
  unauthorized,
} from '../../src/index.ts';
import { thrown } from './_thrown.ts';

const trustNone = () => false;

/** A context for `path` from `address`, with an identity when given. */
function contextFor(address = '192.0.2.1', identity?: Partial<Identity>): RequestContext {
  const ctx = new RequestContext(
    { method: 'GET', url: '/v1/books', headers: new Map(), remoteAddress: address } as never,
    '/v1/books',
    '',
    trustNone,
  );
  if (identity) ctx.identity = { scopes: new Set(), via: 'test', ...identity };
  return ctx;
}

describe('clientNetwork', () => {
  it.each([
    ['192.0.2.1', '192.0.2.1'],
    ['::ffff:192.0.2.1', '192.0.2.1'],
    ['::ffff:c000:201', '192.0.2.1'],
    ['2001:db8:aa:bb01::7', '2001:0db8:00aa:bb00::/56'],
    ['2001:db8:aa:bbff:1:2:3:4', '2001:0db8:00aa:bb00::/56'],
    ['fe80::1%eth0', 'fe80:0000:0000:0000::/56'],
    ['not an address', 'unknown'],
    [undefined, 'unknown'],
  ])('groups %s as %s (IPv6 by /56, IPv4-mapped folded)', (address, network) => {
    expect(clientNetwork(address)).toBe(network);
  });

  it('groups by another prefix when asked', () => {
    expect(clientNetwork('2001:db8:aa:bb01::7', 48)).toBe('2001:0db8:00aa::/48');
    expect(clientNetwork('2001:db8:aa:bb01::7', 60)).toBe('2001:0db8:00aa:bb00::/60');
    expect(clientNetwork('2001:db8:aa:bb1f::7', 60)).toBe('2001:0db8:00aa:bb10::/60');
  });
});

describe('createRateLimiter', () => {
  const make = (options: RateLimitOptions = {}) => {
    let clock = Date.UTC(2026, 0, 31, 9);
    const store = new MemoryStore({ now: () => clock });
    const limiter = createRateLimiter({ store, now: () => clock, ...options });
    return { limiter, store, tick: (ms: number) => (clock += ms), now: () => clock };
  };

  it('keys by verified subject, then client id, then the client network', () => {
    const { limiter, store } = make({ policies: [{ name: 'p', limit: 5, window: 60 }] });
    limiter.check(contextFor('192.0.2.1', { subject: 'alice', clientId: 'app' }));
    limiter.check(contextFor('192.0.2.1', { clientId: 'app' }));
    limiter.check(contextFor('2001:db8:aa:bb01::7'));
    limiter.check(contextFor('2001:db8:aa:bb02::9'));
    expect(store.get('rl:{sub:alice}:p')).toBe('1');
    expect(store.get('rl:{client:app}:p')).toBe('1');
    expect(store.get('rl:{ip:2001:0db8:00aa:bb00::/56}:p')).toBe('2');
  });

  it('checks several policies in one call and reports the tightest', () => {
    const { limiter } = make({
      policies: [
        { name: 'burst', limit: 3, window: 1 },
        { name: 'hourly', limit: 100, window: 3600 },
      ],
    });
    const ctx = contextFor();
    expect(limiter.check(ctx)).toMatchObject({ policy: 'burst', remaining: 2 });
    expect(ctx.responseHeaders.get('x-ratelimit-limit')).toBe('3');
    expect(ctx.responseHeaders.get('x-ratelimit-remaining')).toBe('2');
  });

  it('throws a 429 with Retry-After ≥ 1 and no-store past the limit, Remaining 0 (spec 8.2)', () => {
    const { limiter, tick } = make({ policies: [{ limit: 2, window: 10 }] });
    limiter.check(contextFor());
    limiter.check(contextFor());
    tick(9_999);
    const ctx = contextFor();
    const error = thrown(() => limiter.check(ctx));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 42900 });
    expect((error as ApiError).headers).toMatchObject({
      'retry-after': '1',
      'cache-control': 'no-store',
    });
    expect(ctx.responseHeaders.get('x-ratelimit-remaining')).toBe('0');
    tick(1);
    expect(limiter.check(contextFor())).toMatchObject({ remaining: 1 });
  });

  it('names the policy that refused in the message of its 429', () => {
    const { limiter } = make({
      policies: [
        { name: 'burst', limit: 1, window: 1 },
        { name: 'hourly', limit: 100, window: 3600 },
      ],
    });
    limiter.check(contextFor());
    const error = thrown(() => limiter.check(contextFor())) as ApiError;
    expect(error.message).toBe(
      'Too many requests: the "burst" limit (1 per 1 s) is reached; retry after 1 s.',
    );
  });

  it('leaves a request out of a policy whose identity function returns undefined', () => {
    const { limiter } = make({
      policies: [{ limit: 1, window: 60, identity: (ctx) => ctx.query.get('user') ?? undefined }],
    });
    expect(limiter.check(contextFor())).toBeUndefined();
    expect(limiter.check(contextFor())).toBeUndefined();
  });

  it('skips what skip() says', () => {
    const { limiter } = make({ policies: [{ limit: 1, window: 60 }], skip: () => true });
    limiter.check(contextFor());
    expect(limiter.check(contextFor())).toBeUndefined();
  });

  it('sends the IETF RateLimit and RateLimit-Policy headers when asked', () => {
    const { limiter } = make({
      ietfHeaders: true,
      legacyHeaders: false,
      policies: [
        { name: 'burst', limit: 10, window: 1 },
        { name: 'daily', limit: 1000, window: 86400, algorithm: 'gcra' },
      ],
    });
    const ctx = contextFor();
    limiter.check(ctx);
    expect(ctx.responseHeaders.get('ratelimit-policy')).toBe(
      '"burst";q=10;w=1, "daily";q=1000;w=86400',
    );
    expect(ctx.responseHeaders.get('ratelimit')).toBe('"burst";r=9;t=1');
    expect(ctx.responseHeaders.has('x-ratelimit-limit')).toBe(false);
  });

  describe('when the store fails', () => {
    const broken: Store = {
      get: () => undefined,
      set: () => {},
      delete: () => false,
      hit: () => [],
      take: () => undefined,
      add: () => false,
      limit: () => Promise.reject(new Error('connection refused')),
    };
    const hanging: Store = { ...broken, limit: () => new Promise(() => {}) };

    it('fails closed with a 503 by default', async () => {
      const errors: unknown[] = [];
      const limiter = createRateLimiter({
        store: broken,
        policies: [{ limit: 5, window: 60 }],
        onError: (e) => errors.push(e),
      });
      await expect(limiter.check(contextFor())).rejects.toMatchObject({
        status: 503,
        code: 50301,
      });
      expect(errors).toHaveLength(1);
    });

    it('fails closed within timeoutMs when the store hangs', async () => {
      const limiter = createRateLimiter({
        store: hanging,
        timeoutMs: 20,
        policies: [{ limit: 5, window: 60 }],
      });
      await expect(limiter.check(contextFor())).rejects.toMatchObject({ status: 503 });
    });

    it('lets the request through uncounted when failing open', async () => {
      const limiter = createRateLimiter({
        store: broken,
        onStoreFailure: 'open',
        policies: [{ limit: 1, window: 60 }],
      });
      expect(await limiter.check(contextFor())).toBeUndefined();
      expect(await limiter.check(contextFor())).toBeUndefined();
    });

    it('counts in memory meanwhile with the memory insurance', async () => {
      const limiter = createRateLimiter({
        store: broken,
        onStoreFailure: 'memory',
        policies: [{ limit: 1, window: 60 }],
      });
      expect(await limiter.check(contextFor())).toMatchObject({ remaining: 0 });
      await expect(limiter.check(contextFor())).rejects.toMatchObject({ status: 429 });
    });
  });

  it.each([
    [{ policies: [{ limit: 0, window: 60 }] }, /limit must be a whole number from 1/],
    [{ policies: [{ limit: 5, window: 0.5 }] }, /window \(seconds\) must be a whole number/],
    [{ policies: [{ limit: 5, window: 60, algorithm: 'leaky' }] }, /algorithm must be one of/],
    [{ policies: [{ limit: 5, window: 60, name: 'a b' }] }, /name must be 1 to 64/],
    [
      {
        policies: [
          { limit: 5, window: 60 },
          { limit: 5, window: 60 },
        ],
      },
      /two policies are named "5-per-60s"/,
    ],
    [{ policies: [{ limit: 5, window: 60, windw: 3 }] }, /windw/],
    [{ onStoreFailure: 'maybe' }, /onStoreFailure must be/],
    [{ store: {} }, /no limit\(\) method/],
  ])('refuses a misused option at start-up: %j', (options, message) => {
    expect(() => createRateLimiter(options as never)).toThrow(message);
  });
});

describe('rateLimit plugin', () => {
  it("checks a route's own policies after routing, and refuses a bad one at start-up", async () => {
    let clock = 0;
    const plugin = rateLimit({ now: () => clock, policies: [{ limit: 100, window: 60 }] });
    const api = conventions({
      routes: {
        '/v1/sessions': {
          POST: {
            handler: () => ({ ok: true }),
            config: { rateLimit: [{ name: 'login', limit: 1, window: 60 }] },
          },
        },
      },
      plugins: [plugin],
    });
    const post = () =>
      api.handle({
        method: 'POST',
        url: '/v1/sessions',
        headers: new Map([['content-type', 'application/json']]),
        remoteAddress: '192.0.2.9',
        readBody: async () => new TextEncoder().encode('{}'),
      } as never);
    const first = await post();
    expect(first.status).toBe(200);
    expect(first.headers['x-ratelimit-limit']).toBe('1');
    expect((await post()).status).toBe(429);
    clock += 60_000;
    expect((await post()).status).toBe(200);
    expect(() =>
      conventions({
        routes: { '/v1/x': { GET: { handler: () => 1, config: { rateLimit: [{ limit: -1 }] } } } },
        plugins: [rateLimit()],
      } as never),
    ).toThrow(/route GET \/v1\/x rateLimit policy 0 limit/);
  });
});

describe('rateLimit plugin with credentials', () => {
  // An identity plugin as the bearer plugin is: any Authorization header is credentials still to
  // verify; `Bearer good-<name>` is accepted, anything else refused (401); /v1/admin needs a
  // scope no token has (403 for an accepted token).
  const auth: Plugin = {
    name: 'auth',
    credentials: (ctx) => ctx.headers.get('authorization') != null,
    authenticate(ctx) {
      const header = ctx.headers.get('authorization');
      if (!header) return;
      if (!header.startsWith('Bearer good-')) throw unauthorized('The token is not valid.');
      ctx.identity = {
        subject: header.slice('Bearer good-'.length),
        scopes: new Set(),
        via: 'test',
      };
      if (ctx.path === '/v1/admin') throw forbidden('You may not see this.');
    },
  };
  const build = () => {
    const clock = { now: Date.UTC(2026, 0, 31, 9) };
    const api = conventions({
      lint: 'off',
      logger: { error() {}, warn() {} },
      routes: {
        '/v1/books': { GET: () => ({ books: [] }) },
        '/v1/admin': { GET: () => ({ secrets: [] }) },
      },
      plugins: [
        rateLimit({ now: () => clock.now, policies: [{ name: 'minute', limit: 2, window: 60 }] }),
        auth,
      ],
    });
    const get = async (path: string, authorization?: string) =>
      api.handle({
        method: 'GET',
        url: path,
        headers: new Map(authorization ? [['authorization', authorization]] : []),
        remoteAddress: '192.0.2.50',
      } as never);
    return { get, clock };
  };
  const messageOf = (response: { body: unknown }) =>
    (JSON.parse(String(response.body)) as { errors: { message: string; code: number }[] })
      .errors[0];

  it('counts a caller with credentials as its verified subject, not its address', async () => {
    const { get } = build();
    expect((await get('/v1/books', 'Bearer good-alice')).headers['x-ratelimit-remaining']).toBe(
      '1',
    );
    expect((await get('/v1/books', 'Bearer good-alice')).status).toBe(200);
    expect((await get('/v1/books', 'Bearer good-alice')).status).toBe(429);
    expect((await get('/v1/books', 'Bearer good-bob')).status).toBe(200);
    expect((await get('/v1/books')).headers['x-ratelimit-remaining']).toBe('1');
  });

  it('refuses a network whose credentials keep being refused, before authentication, until the window ends, naming that budget', async () => {
    const { get, clock } = build();
    expect((await get('/v1/books', 'Bearer forged')).status).toBe(401);
    expect((await get('/v1/books', 'Bearer forged')).status).toBe(401);
    const refused = await get('/v1/books', 'Bearer forged');
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^[1-9]\d*$/);
    expect(messageOf(refused)).toEqual({
      message:
        'Too many requests from your network with credentials that were not accepted: the budget for refused credentials of the "minute" limit (2 per 60 s) is spent; retry after 60 s.',
      code: 42900,
    });
    // Credentials never verified are refused unread; none are needed to go on.
    expect((await get('/v1/books', 'Bearer good-carol')).status).toBe(429);
    expect((await get('/v1/books')).status).toBe(200);
    clock.now += 60_000;
    expect((await get('/v1/books', 'Bearer good-carol')).status).toBe(200);
  });

  // Regression: a valid token on 404s spent the network's budget for refused
  // credentials, so the next valid token was refused as not accepted.
  it("counts a valid token's 404s by network, never as refused credentials", async () => {
    const { get } = build();
    expect((await get('/v1/nothing', 'Bearer good-bob')).status).toBe(404);
    expect((await get('/v1/nothing', 'Bearer good-bob')).status).toBe(404);
    const scan = await get('/v1/nothing', 'Bearer good-bob');
    expect(scan.status).toBe(429);
    expect(messageOf(scan)?.message).toBe(
      'Too many requests: the "minute" limit (2 per 60 s) is reached; retry after 60 s.',
    );
    expect((await get('/v1/books', 'Bearer good-bob')).status).toBe(200);
    expect((await get('/v1/books', 'Bearer good-carol')).status).toBe(200);
  });

  // Regression: an accepted token refused for a missing scope (403) was counted as a
  // refused credential, so other valid tokens of the network got 429.
  it('counts an accepted token refused for its scope as its caller, never as refused credentials', async () => {
    const { get } = build();
    expect((await get('/v1/admin', 'Bearer good-bob')).status).toBe(403);
    expect((await get('/v1/admin', 'Bearer good-bob')).status).toBe(403);
    const spent = await get('/v1/books', 'Bearer good-bob');
    expect(spent.status).toBe(429);
    expect(messageOf(spent)?.message).toMatch(/^Too many requests: the "minute" limit/);
    expect((await get('/v1/books', 'Bearer good-carol')).status).toBe(200);
    expect((await get('/v1/books')).headers['x-ratelimit-remaining']).toBe('1');
  });
});
