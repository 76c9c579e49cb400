import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import { type ApiResponse, compileTrust, resolveOrigin } from '../../src/core/index.ts';
import { formatIp, inRange, parseIp, parseRange } from '../../src/core/origin/ip.ts';
import { conventions, type RequestOrigin, type TrustProxy } from '../../src/index.ts';

const ip = (text: string) => {
  const parsed = parseIp(text);
  if (parsed === undefined) throw new Error(`test setup: ${text} is not an address`);
  return parsed;
};

describe('parseIp', () => {
  it.each([
    ['1.2.3.4', true, '1.2.3.4'],
    ['0.0.0.0', true, '0.0.0.0'],
    ['255.255.255.255', true, '255.255.255.255'],
    ['::1', false, '0:0:0:0:0:0:0:1'],
    ['::', false, '0:0:0:0:0:0:0:0'],
    ['2001:db8::1', false, '2001:db8:0:0:0:0:0:1'],
    ['2001:DB8:0:0:8:800:200C:417A', false, '2001:db8:0:0:8:800:200c:417a'],
    ['fe80::', false, 'fe80:0:0:0:0:0:0:0'],
    ['1:2:3:4:5:6:7::', false, '1:2:3:4:5:6:7:0'],
    ['::2:3:4:5:6:7:8', false, '0:2:3:4:5:6:7:8'],
    ['fe80::1%eth0', false, 'fe80:0:0:0:0:0:0:1'],
    // RFC 4291 §2.2: the last 32 bits in dotted form.
    ['64:ff9b::192.0.2.33', false, '64:ff9b:0:0:0:0:c000:221'],
    // RFC 4291 §2.5.5.2: IPv4-mapped IPv6 is folded to the IPv4 address, in either notation.
    ['::ffff:10.0.0.1', true, '10.0.0.1'],
    ['::FFFF:a00:1', true, '10.0.0.1'],
    ['0:0:0:0:0:ffff:192.0.2.1', true, '192.0.2.1'],
  ])('parses %s (IPv4: %s) as %s', (text, v4, canonical) => {
    const parsed = ip(text);
    expect(parsed.v4).toBe(v4);
    expect(formatIp(parsed)).toBe(canonical);
  });

  it('gives one client one address whichever socket family it came through', () => {
    expect(ip('::ffff:192.0.2.1').bytes).toEqual(ip('192.0.2.1').bytes);
  });

  it.each([
    '',
    'localhost',
    '1.2.3',
    '1.2.3.4.5',
    '256.1.1.1',
    '01.2.3.4',
    '1.2.3.-4',
    ' 1.2.3.4',
    '1.2.3.4 ',
    '1.2.3.4:80',
    ':::',
    '1::2::3',
    '1:2:3:4:5:6:7',
    '1:2:3:4:5:6:7:8:9',
    '1:2:3:4:5:6:7:8::',
    '12345::',
    'g::1',
    '::ffff:1.2.3.256',
    '[::1]',
    'unknown',
    '_hidden',
  ])('refuses %j', (text) => {
    expect(parseIp(text)).toBeUndefined();
  });
});

describe('parseRange and inRange', () => {
  it.each([
    ['10.0.0.0/8', '10.255.1.2', true],
    ['10.0.0.0/8', '11.0.0.0', false],
    ['10.0.0.0/8', '::ffff:10.1.2.3', true],
    ['172.16.0.0/12', '172.31.255.255', true],
    ['172.16.0.0/12', '172.32.0.0', false],
    ['192.168.1.7', '192.168.1.7', true],
    ['192.168.1.7', '192.168.1.8', false],
    ['192.168.1.7/32', '192.168.1.7', true],
    ['0.0.0.0/0', '203.0.113.9', true],
    ['0.0.0.0/0', '::1', false],
    ['::/0', '2001:db8::1', true],
    ['fe80::/10', 'fe80::1', true],
    ['fe80::/10', 'febf::1', true],
    ['fe80::/10', 'fec0::1', false],
    ['fd00::/8', 'fd12:3456::1', true],
    ['fd00::/8', 'fc00::1', false],
    ['::1', '::1', true],
    ['::1', '127.0.0.1', false],
  ])('%s holds %s: %s', (range, address, expected) => {
    expect(inRange(ip(address), parseRange(range))).toBe(expected);
  });

  it('counts an IPv4 prefix in IPv6 bits: /8 is 104', () => {
    expect(parseRange('10.0.0.0/8').bits).toBe(104);
    expect(parseRange('10.0.0.1').bits).toBe(128);
    expect(parseRange('fd00::/8').bits).toBe(8);
  });

  it.each([
    'nope',
    '',
    '10.0.0.0/33',
    '10.0.0.0/-1',
    '10.0.0.0/',
    '10.0.0.0/8.5',
    '10.0.0.0/ 8',
    '10.0.0.0/0x8',
    'fd00::/129',
    '10.0.0/8',
    '/8',
  ])('refuses %j with a TypeError that shows the form to write', (text) => {
    expect(() => parseRange(text)).toThrow(TypeError);
    expect(() => parseRange(text)).toThrow(
      /write one like 10\.0\.0\.1, 10\.0\.0\.0\/8 or fd00::\/8/,
    );
  });
});

describe('compileTrust', () => {
  it.each<[string, TrustProxy | undefined, [string, number][], [string, number][]]>([
    ['undefined trusts no one', undefined, [], [['127.0.0.1', 0]]],
    [
      'false trusts no one',
      false,
      [],
      [
        ['127.0.0.1', 0],
        ['10.0.0.1', 1],
      ],
    ],
    [
      'true trusts every hop',
      true,
      [
        ['203.0.113.9', 0],
        ['garbage', 7],
      ],
      [],
    ],
    ['0 trusts no hop', 0, [], [['127.0.0.1', 0]]],
    [
      '2 trusts the two nearest hops',
      2,
      [
        ['203.0.113.9', 0],
        ['203.0.113.9', 1],
      ],
      [['10.0.0.1', 2]],
    ],
    [
      'an address',
      '10.0.0.5',
      [
        ['10.0.0.5', 0],
        ['::ffff:10.0.0.5', 3],
      ],
      [['10.0.0.6', 0]],
    ],
    [
      'a comma-separated string',
      'loopback, 10.0.0.0/8',
      [
        ['127.0.0.1', 0],
        ['::1', 0],
        ['10.9.9.9', 1],
      ],
      [['192.168.0.1', 0]],
    ],
    [
      'a list',
      ['uniquelocal'],
      [
        ['10.0.0.1', 0],
        ['172.16.0.1', 0],
        ['192.168.1.1', 0],
        ['fd00::1', 0],
      ],
      [
        ['172.32.0.1', 0],
        ['127.0.0.1', 0],
      ],
    ],
    [
      'linklocal',
      'linklocal',
      [
        ['169.254.1.1', 0],
        ['fe80::1', 0],
      ],
      [['169.255.0.1', 0]],
    ],
    [
      'loopback',
      ['loopback'],
      [
        ['127.1.2.3', 0],
        ['::1', 0],
        ['::ffff:127.0.0.1', 0],
      ],
      [
        ['::2', 0],
        ['128.0.0.1', 0],
      ],
    ],
    [
      'an IPv6 range',
      ['fd00::/8'],
      [['fd00::7', 0]],
      [
        ['fe00::7', 0],
        ['10.0.0.1', 0],
      ],
    ],
    [
      'a range and an address that is not one',
      '10.0.0.0/8',
      [],
      [
        ['unknown', 1],
        ['_hidden', 1],
        ['', 0],
      ],
    ],
  ])('%s', (_, option, trusted, untrusted) => {
    const trust = compileTrust(option);
    for (const [address, hop] of trusted) expect(trust(address, hop), address).toBe(true);
    for (const [address, hop] of untrusted) expect(trust(address, hop), address).toBe(false);
  });

  it('uses a function as it is, with the address and the hop', () => {
    const test = vi.fn((address: string, hop: number) => address === '10.0.0.1' && hop < 2);
    expect(compileTrust(test)).toBe(test);
  });

  it.each<[string, unknown, RegExp]>([
    ['a negative number', -1, /a whole number from 0; got -1/],
    ['a fraction', 1.5, /a whole number from 0; got 1.5/],
    ['NaN', Number.NaN, /a whole number from 0; got NaN/],
    ['a name it does not know', 'loopbak', /"loopbak" is not an IP address or range/],
    ['a bad range in a list', ['10.0.0.0/8', '10.0.0.0/40'], /"10.0.0.0\/40" is not an IP address/],
    ['a list with a number', ['loopback', 8], /trustProxy must be true, false, a number of hops/],
    ['an object', { loopback: true }, /trustProxy must be true, false, a number of hops/],
    ['null', null, /trustProxy must be true, false, a number of hops/],
  ])('refuses %s with a TypeError that says what to write', (_, option, message) => {
    expect(() => compileTrust(option as TrustProxy)).toThrow(TypeError);
    expect(() => compileTrust(option as TrustProxy)).toThrow(message);
  });

  it('checks trustProxy once, when conventions() is created', () => {
    expect(() => conventions({ trustProxy: '10.0.0.0/99' })).toThrow(TypeError);
  });
});

describe('resolveOrigin', () => {
  interface Case {
    peer?: string;
    scheme?: 'http' | 'https';
    headers?: Record<string, string>;
    trust?: TrustProxy;
  }
  const resolve = ({ peer, scheme = 'http', headers = {}, trust }: Case): RequestOrigin =>
    resolveOrigin(
      { scheme, peerAddress: peer, headers: new Headers({ host: 'svc.internal', ...headers }) },
      compileTrust(trust),
    );
  const spoof = {
    'x-forwarded-for': '198.51.100.66',
    'x-forwarded-proto': 'https',
    'x-forwarded-host': 'evil.example',
    forwarded: 'for=198.51.100.67;proto=https;host=evil.example',
  };

  it('gives any peer address in the form parseIp and formatIp give it, the quick IPv4 path included', () => {
    const part = fc.oneof(
      fc.integer({ min: 0, max: 300 }).map(String),
      fc.integer({ min: 0, max: 99 }).map((n) => `0${n}`),
    );
    const address = fc.oneof(
      fc.tuple(part, part, part, part).map((p) => p.join('.')),
      fc.tuple(part, part, part, part).map((p) => `::ffff:${p.join('.')}`),
      fc.constantFrom('::1', '2001:DB8::1', 'not an address', '1.2.3', '1.2.3.4.5', ''),
    );
    fc.assert(
      fc.property(address, (peer) => {
        const parsed = parseIp(peer);
        const expected = parsed === undefined ? peer : formatIp(parsed);
        expect(resolve({ peer }).remoteAddress).toBe(expected);
      }),
      { numRuns: 500 },
    );
  });

  it('uses the connection alone when no proxy is trusted', () => {
    expect(resolve({ peer: '203.0.113.9', scheme: 'https' })).toEqual({
      scheme: 'https',
      secure: true,
      host: 'svc.internal',
      remoteAddress: '203.0.113.9',
    });
  });

  it.each<[string, TrustProxy | undefined]>([
    ['no trustProxy', undefined],
    ['a peer outside the trusted range', '10.0.0.0/8'],
    ['a hop count of 0', 0],
    ['a function that refuses the peer', () => false],
  ])('ignores spoofed forwarding headers with %s', (_, trust) => {
    expect(resolve({ peer: '203.0.113.9', headers: spoof, trust })).toEqual({
      scheme: 'http',
      secure: false,
      host: 'svc.internal',
      remoteAddress: '203.0.113.9',
    });
  });

  it('honours X-Forwarded-For, -Proto and -Host from a trusted peer', () => {
    const headers = {
      'x-forwarded-for': '203.0.113.9',
      'x-forwarded-proto': 'https',
      'x-forwarded-host': 'api.example.com',
    };
    expect(resolve({ peer: '10.0.0.1', headers, trust: '10.0.0.0/8' })).toEqual({
      scheme: 'https',
      secure: true,
      host: 'api.example.com',
      remoteAddress: '203.0.113.9',
    });
  });

  it('takes the first untrusted hop from the right, so an address the client prepended is ignored', () => {
    const headers = { 'x-forwarded-for': '192.0.2.1, 203.0.113.9, 10.0.0.2' };
    expect(resolve({ peer: '10.0.0.1', headers, trust: '10.0.0.0/8' }).remoteAddress).toBe(
      '203.0.113.9',
    );
  });

  it('takes the farthest hop when every hop is a trusted proxy', () => {
    const headers = { 'x-forwarded-for': '10.0.0.3, 10.0.0.2' };
    expect(resolve({ peer: '10.0.0.1', headers, trust: '10.0.0.0/8' }).remoteAddress).toBe(
      '10.0.0.3',
    );
  });

  it.each([
    [1, '198.51.100.2'],
    [2, '198.51.100.1'],
    [3, '192.0.2.1'],
    [9, '192.0.2.1'],
  ])('counts hops: trustProxy %i gives %s', (hops, client) => {
    const headers = { 'x-forwarded-for': '192.0.2.1, 198.51.100.1, 198.51.100.2' };
    expect(resolve({ peer: '10.0.0.1', headers, trust: hops }).remoteAddress).toBe(client);
  });

  it('asks a trust function about each hop from the peer outwards, and stops at the first refused', () => {
    const trust = vi.fn((address: string) => address.startsWith('10.'));
    const headers = { 'x-forwarded-for': '192.0.2.1, 203.0.113.9, 10.0.0.2' };
    resolve({ peer: '10.0.0.1', headers, trust });
    expect(trust.mock.calls).toEqual([
      ['10.0.0.1', 0],
      ['10.0.0.2', 1],
      ['203.0.113.9', 2],
    ]);
  });

  it('takes the scheme and host of the client’s hop, lined up from the right', () => {
    const headers = {
      'x-forwarded-for': '203.0.113.9, 10.0.0.2',
      'x-forwarded-proto': 'https, http',
      'x-forwarded-host': 'api.example.com, lb.internal',
    };
    expect(resolve({ peer: '10.0.0.1', headers, trust: '10.0.0.0/8' })).toMatchObject({
      scheme: 'https',
      host: 'api.example.com',
      remoteAddress: '203.0.113.9',
    });
  });

  it('ignores a forwarded scheme other than http or https', () => {
    const headers = { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'gopher' };
    expect(resolve({ peer: '127.0.0.1', scheme: 'https', headers, trust: 'loopback' }).scheme).toBe(
      'https',
    );
  });

  it('folds IPv4-mapped peers and hops to IPv4 before it trusts or reports them', () => {
    const headers = { 'x-forwarded-for': '::ffff:203.0.113.9' };
    expect(resolve({ peer: '::ffff:10.0.0.1', headers, trust: '10.0.0.0/8' }).remoteAddress).toBe(
      '203.0.113.9',
    );
    expect(resolve({ peer: '::ffff:203.0.113.9' }).remoteAddress).toBe('203.0.113.9');
  });

  it('keeps the peer when a trusted peer sends no forwarding header', () => {
    expect(resolve({ peer: '10.0.0.1', trust: '10.0.0.0/8' })).toMatchObject({
      remoteAddress: '10.0.0.1',
      host: 'svc.internal',
    });
  });

  it('has no address when the host knows no peer, and trusts no header then', () => {
    expect(resolve({ headers: spoof, trust: true }).remoteAddress).toBeUndefined();
  });

  // RFC 7239 §4: one element per proxy, the first added by the proxy nearest the client;
  // §5.2 `for`, §5.3 `host`, §5.4 `proto`.
  it('honours Forwarded from a trusted peer (RFC 7239 §4, §5.2)', () => {
    const headers = { forwarded: 'for=192.0.2.60;proto=https;host=api.example.com' };
    expect(resolve({ peer: '127.0.0.1', headers, trust: 'loopback' })).toEqual({
      scheme: 'https',
      secure: true,
      host: 'api.example.com',
      remoteAddress: '192.0.2.60',
    });
  });

  it('walks the elements of Forwarded from the last, nearest the service (RFC 7239 §4)', () => {
    const headers = {
      forwarded:
        'for=198.51.100.17;proto=https, for=192.0.2.61;proto=https, for=10.0.0.2;proto=http',
    };
    expect(resolve({ peer: '10.0.0.1', headers, trust: '10.0.0.0/8' })).toMatchObject({
      scheme: 'https',
      remoteAddress: '192.0.2.61',
    });
  });

  // RFC 7239 §6: an IPv6 node is bracketed and, with its port, quoted.
  it.each([
    ['for="[2001:db8:cafe::17]:4711"', '2001:db8:cafe:0:0:0:0:17'],
    ['for="[2001:db8:cafe::17]"', '2001:db8:cafe:0:0:0:0:17'],
    ['for="192.0.2.43:47011"', '192.0.2.43'],
    ['For="192.0.2.43"', '192.0.2.43'],
    ['proto=https; for=192.0.2.43', '192.0.2.43'],
  ])('reads the node in %s (RFC 7239 §5.2, §6)', (forwarded, client) => {
    expect(resolve({ peer: '::1', headers: { forwarded }, trust: 'loopback' }).remoteAddress).toBe(
      client,
    );
  });

  it('prefers Forwarded to X-Forwarded-For when both are present', () => {
    const headers = { forwarded: 'for=192.0.2.60', 'x-forwarded-for': '198.51.100.9' };
    expect(resolve({ peer: '127.0.0.1', headers, trust: 'loopback' }).remoteAddress).toBe(
      '192.0.2.60',
    );
  });

  it('ignores a spoofed Forwarded element before the first untrusted hop', () => {
    const headers = { forwarded: 'for=127.0.0.1;host=admin.internal, for=203.0.113.9' };
    expect(resolve({ peer: '127.0.0.1', headers, trust: 'loopback' })).toMatchObject({
      remoteAddress: '203.0.113.9',
      host: 'svc.internal',
    });
  });
});

describe('the request origin on the context', () => {
  const api = (trustProxy?: TrustProxy) =>
    conventions({
      trustProxy,
      routes: {
        '/v1/origins': {
          GET: (ctx) => ({
            scheme: ctx.scheme,
            secure: ctx.secure,
            host: ctx.host ?? null,
            remoteAddress: ctx.remoteAddress ?? null,
            peerAddress: ctx.peerAddress ?? null,
          }),
        },
      },
    });
  const ask = (trustProxy: TrustProxy | undefined, scheme?: 'http' | 'https') =>
    JSON.parse(
      (
        api(trustProxy).handle({
          method: 'GET',
          url: '/v1/origins',
          scheme,
          remoteAddress: '127.0.0.1',
          headers: new Headers({
            host: 'svc.internal',
            'x-forwarded-for': '203.0.113.9',
            'x-forwarded-proto': 'https',
            'x-forwarded-host': 'api.example.com',
          }),
        }) as ApiResponse
      ).body as string,
    );

  it('reads the forwarding headers through trustProxy', () => {
    expect(ask('loopback')).toEqual({
      scheme: 'https',
      secure: true,
      host: 'api.example.com',
      remoteAddress: '203.0.113.9',
      peerAddress: '127.0.0.1',
    });
  });

  it('uses the connection’s scheme, Host and peer without trustProxy', () => {
    expect(ask(undefined, 'https')).toEqual({
      scheme: 'https',
      secure: true,
      host: 'svc.internal',
      remoteAddress: '127.0.0.1',
      peerAddress: '127.0.0.1',
    });
    expect(ask(undefined)).toMatchObject({ scheme: 'http', secure: false });
  });
});
