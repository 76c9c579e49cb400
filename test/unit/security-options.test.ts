import { cors, csrf, securityHeaders } from 'api-conventions';
import { describe, expect, it } from 'vitest';

describe('securityHeaders() options', () => {
  it('compiles the spec’s header set into always-on headers (spec 4.8)', () => {
    expect(securityHeaders().headers).toEqual({
      'x-xss-protection': '1; mode=block',
      'x-frame-options': 'deny',
      'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
      'referrer-policy': 'no-referrer',
      'cross-origin-resource-policy': 'same-origin',
    });
    expect(Object.isFrozen(securityHeaders().headers)).toBe(true);
  });

  it('changes or leaves out Referrer-Policy and Cross-Origin-Resource-Policy by option', () => {
    const changed = securityHeaders({
      referrerPolicy: 'strict-origin-when-cross-origin',
      crossOriginResourcePolicy: 'cross-origin',
    }).headers;
    expect(changed?.['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(changed?.['cross-origin-resource-policy']).toBe('cross-origin');
    const off = securityHeaders({
      referrerPolicy: false,
      crossOriginResourcePolicy: false,
    }).headers;
    expect(off).not.toHaveProperty('referrer-policy');
    expect(off).not.toHaveProperty('cross-origin-resource-policy');
  });

  it('has no pre-routing hook when nothing depends on the scheme', () => {
    expect(securityHeaders({ hsts: false }).onRequest).toBeUndefined();
    expect(securityHeaders().onRequest).toBeTypeOf('function');
  });

  it.each([
    [{ xssProtection: '1' }, /xssProtection must be '1; mode=block' or '0'/],
    [{ frameOptions: 'allow-from x' }, /frameOptions must be 'deny' or 'sameorigin'/],
    [{ contentSecurityPolicy: '' }, /contentSecurityPolicy must be a policy/],
    [{ referrerPolicy: 'none' }, /referrerPolicy must be 'no-referrer' or .* or false/],
    [{ referrerPolicy: 'false' }, /referrerPolicy must be/],
    [{ crossOriginResourcePolicy: 'same' }, /crossOriginResourcePolicy must be 'same-origin'/],
    [{ crossOriginResourcePolicy: true }, /or false \(no header\)/],
    [{ hsts: { maxAge: -1 } }, /hsts.maxAge must be a whole number/],
    [{ hsts: { maxAge: 600, preload: true } }, /preload needs includeSubDomains/],
    [{ hsts: { maxage: 600 } }, /Did you mean `maxAge`/],
    [
      { publicKeyPins: { pins: ['d6qzRu9zOECb90Uez27xWltNsj0e1Md7GkYYkVoZWmM='] } },
      /at least two pins/,
    ],
    [{ publicKeyPins: { pins: ['abc', 'def'] } }, /not the base64 of a SHA-256 digest/],
    [{ requireHTTPS: true }, /Did you mean `requireHttps`/],
    [{ requireHttps: 'yes' }, /requireHttps must be true or false/],
  ])('refuses %j at start-up with a TypeError that says how to fix it', (options, message) => {
    expect(() => securityHeaders(options as never)).toThrow(TypeError);
    expect(() => securityHeaders(options as never)).toThrow(message);
  });
});

describe('cors() options', () => {
  it.each([
    [{}, /needs `origins`/],
    [{ origins: '*', credentials: true }, /'\*' with credentials/],
    [{ origins: /app\.example\.com/ }, /must be anchored/],
    [{ origins: [/^https:\/\/app\.example\.com/] }, /must be anchored/],
    [{ origins: 'https://app.example.com/' }, /is not an origin/],
    [{ origins: 'app.example.com' }, /is not an origin/],
    [{ origins: ['https://a.example', '*'] }, /'\*' stands alone/],
    [{ origins: [] }, /origins must be/],
    [{ origins: 'https://a.example', exposeHeaders: ['bad header'] }, /list of header names/],
    [{ origins: 'https://a.example', maxAge: 1.5 }, /maxAge must be a whole number/],
    [{ origins: 'https://a.example', credential: true }, /Did you mean `credentials`/],
  ])('refuses %j at start-up with a TypeError', (options, message) => {
    expect(() => cors(options as never)).toThrow(TypeError);
    expect(() => cors(options as never)).toThrow(message);
  });

  it('accepts exact origins, anchored RegExps and functions', () => {
    expect(
      cors({ origins: ['https://app.example.com', /^https:\/\/[a-z]+\.example\.com$/] }).name,
    ).toBe('cors');
    expect(
      cors({ origins: (origin) => origin.endsWith('.example.com'), credentials: true }).name,
    ).toBe('cors');
  });
});

describe('csrf() options', () => {
  const secret = 'x'.repeat(32);
  it.each([
    [{}, /needs a `secret` of at least 32 bytes/],
    [{ secret: 'short' }, /at least 32 bytes/],
    [{ secret, trustedOrigins: ['app.example.com'] }, /write origins such as/],
    [{ secret, oneTimeTtlMs: 10 }, /oneTimeTtlMs must be a whole number/],
    [{ secret, session: 'sid' }, /session must be a function/],
    [
      { secret, headerName: 'x-csrf-token', store: undefined, fieldname: '_csrf' },
      /Did you mean `fieldName`/,
    ],
  ])('refuses %j at start-up with a TypeError', (options, message) => {
    expect(() => csrf(options as never)).toThrow(TypeError);
    expect(() => csrf(options as never)).toThrow(message);
  });

  it('refuses to issue one-time tokens without a store, saying what to pass', async () => {
    await expect(csrf({ secret }).issueOneTimeToken('s1')).rejects.toThrow(/need a `store`/);
  });

  it('issues per-session tokens that differ each time', async () => {
    const plugin = csrf({ secret });
    const [a, b] = [await plugin.issueToken('s1'), await plugin.issueToken('s1')];
    expect(a).toMatch(/^s\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(a).not.toBe(b);
  });
});
