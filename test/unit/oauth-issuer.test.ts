/** The OAuth server's `issuer` option: fixed, fixed once known, or (development) the request's origin. */
import { conventions, type RequestContext } from 'api-conventions';
import { oauthServer } from 'api-conventions/oauth';
import { afterEach, describe, expect, it } from 'vitest';
import { oauthOptions } from '../compliance/_oauth-app.ts';

const asked = (host: string) => ({ scheme: 'http', host }) as unknown as RequestContext;

function collecting() {
  const warnings: string[] = [];
  return { warnings, logger: { error() {}, warn: (message: string) => warnings.push(message) } };
}

describe('oauthServer issuer', () => {
  const before = process.env.NODE_ENV;
  afterEach(() => {
    process.env.NODE_ENV = before;
  });

  it('keeps a fixed issuer whatever Host a request names', () => {
    const oauth = oauthServer(oauthOptions({ issuer: 'https://auth.example.com/' }));
    expect(oauth.issuerOf(asked('evil.example'))).toBe('https://auth.example.com');
    expect(oauth.audienceOf(asked('evil.example'))).toBe('https://auth.example.com');
  });

  it('asks a function until it gives a URL, then keeps that one', () => {
    let origin: string | undefined;
    let calls = 0;
    const oauth = oauthServer(
      oauthOptions({
        issuer: () => {
          calls++;
          return origin as string;
        },
      }),
    );
    expect(() => oauth.issuerOf(asked('a.example'))).toThrow(TypeError);
    origin = 'http://127.0.0.1:4321';
    expect(oauth.issuerOf(asked('evil.example'))).toBe('http://127.0.0.1:4321');
    origin = 'http://elsewhere.example';
    expect(oauth.issuerOf(asked('evil.example'))).toBe('http://127.0.0.1:4321');
    expect(calls).toBe(2);
  });

  it.each([['not a url'], [42], ['']])('refuses the issuer %j at start-up', (issuer) => {
    expect(() => oauthServer(oauthOptions({ issuer: issuer as string }))).toThrow(
      /`issuer` must be an absolute URL/,
    );
  });

  it("warns under NODE_ENV=production when the issuer comes from the request, through the service's logger", () => {
    process.env.NODE_ENV = 'production';
    const { warnings, logger } = collecting();
    const oauth = oauthServer(oauthOptions());
    expect(warnings).toEqual([]);
    conventions({ lint: 'off', logger, plugins: [oauth] });
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/no `issuer`.*Set `issuer`/);
    // What it warns about: each request's Host names the issuer.
    expect(oauth.issuerOf(asked('a.example'))).toBe('http://a.example');
    expect(oauth.issuerOf(asked('b.example'))).toBe('http://b.example');
    expect(warnings).toHaveLength(1);
  });

  it('does not warn with a fixed issuer, nor outside production', () => {
    process.env.NODE_ENV = 'production';
    const fixed = collecting();
    const oauth = oauthServer(oauthOptions({ issuer: 'https://auth.example.com' }));
    conventions({ lint: 'off', logger: fixed.logger, plugins: [oauth] });
    expect(fixed.warnings).toEqual([]);
    process.env.NODE_ENV = 'development';
    const development = collecting();
    conventions({
      lint: 'off',
      logger: development.logger,
      plugins: [oauthServer(oauthOptions())],
    });
    expect(development.warnings).toEqual([]);
  });
});
