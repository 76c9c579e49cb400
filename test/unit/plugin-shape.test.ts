/**
 * One plugin shape: every built-in plugin is an instance of a class
 * `<Name>Plugin` that implements `Plugin`, made by its lower-case factory, in a file named after
 * it (`RateLimitPlugin` in rate-limit.ts, made by `rateLimit()`).
 */
import { readFileSync } from 'node:fs';
import { basename, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  accessChecks,
  bearer,
  caching,
  cors,
  createJobs,
  createTokenKeys,
  csrf,
  negotiation,
  type Plugin,
  payloads,
  rateLimit,
  securityHeaders,
  serveOpenApi,
  versioning,
} from '../../src/index.ts';
import { oauthServer } from '../../src/oauth.ts';
import { oauthOptions } from '../compliance/_oauth-app.ts';
import { sourceFiles } from './_source-files.ts';

const src = new URL('../../src/core/', import.meta.url).pathname;
/** `RateLimit` → `rate-limit`, `OAuthServer` → `oauth-server`. */
const kebab = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();

describe('the built-in plugins', () => {
  it('are each a class <Name>Plugin, in the file <name>.ts', () => {
    const classes = sourceFiles(src).flatMap((file) =>
      [
        ...readFileSync(file, 'utf8').matchAll(
          /class (\w+) implements (Plugin|OAuthServer|Jobs)\b/g,
        ),
      ].map(([, name]) => ({ name: name!, file: relative(src, file) })),
    );
    expect(classes.length).toBeGreaterThanOrEqual(13);
    for (const { name, file } of classes) {
      expect(name).toMatch(/^\w+Plugin$/);
      expect(basename(file, '.ts')).toBe(kebab(name!.replace(/Plugin$/, '')));
    }
  });

  it('are made by their factories, never as object literals', async () => {
    const keys = await createTokenKeys({ logger: { error() {}, warn() {} } });
    const made: [string, Plugin][] = [
      [
        'BearerPlugin',
        bearer({ keys, issuer: 'https://a.example', audience: 'https://a.example' }),
      ],
      ['RateLimitPlugin', rateLimit({ policies: [{ limit: 1, window: 1 }] })],
      ['CorsPlugin', cors({ origins: '*' })],
      ['CsrfPlugin', csrf({ secret: 'x'.repeat(32) })],
      ['SecurityHeadersPlugin', securityHeaders()],
      ['AccessChecksPlugin', accessChecks()],
      ['CachingPlugin', caching()],
      ['NegotiationPlugin', negotiation()],
      ['VersioningPlugin', versioning()],
      ['PayloadsPlugin', payloads()],
      ['ServeOpenApiPlugin', serveOpenApi({ info: { title: 'Books', version: '1.0.0' } })],
      ['OAuthServerPlugin', oauthServer(oauthOptions())],
      ['JobsPlugin', createJobs({ path: '/v1/jobs' })],
    ];
    for (const [name, plugin] of made) {
      expect(Object.getPrototypeOf(plugin)).not.toBe(Object.prototype);
      expect(plugin.constructor.name).toBe(name);
    }
  });
});
