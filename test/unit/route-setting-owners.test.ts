/**
 * A route setting whose plugin is not installed is a start-up TypeError that names the plugin
 * to add (`deprecation` without `versioning()` says "add versioning()", not "unknown option"),
 * and the table of owners agrees with what each built-in plugin declares it reads.
 */
import { describe, expect, it } from 'vitest';
import { settingOwners } from '../../src/core/routing/check-config.ts';
import {
  accessChecks,
  bearer,
  caching,
  conventions,
  createTokenKeys,
  negotiation,
  type Plugin,
  payloads,
  rateLimit,
  securityHeaders,
  versioning,
} from '../../src/index.ts';

const keys = createTokenKeys({ logger: { warn() {}, error() {} } });
const plugins: Record<string, Plugin> = {
  'payloads()': payloads(),
  'versioning()': versioning(),
  'negotiation()': negotiation(),
  'bearer()': bearer({ keys, issuer: 'https://a.example', audience: 'https://a.example' }),
  'caching()': caching(),
  'rateLimit()': rateLimit({ policies: [{ limit: 1, window: 1 }] }),
  'accessChecks()': accessChecks({ unchecked: 'off' }),
  'securityHeaders()': securityHeaders(),
};

describe('route settings of a plugin that is not installed', () => {
  it('lists every setting each built-in plugin reads, under that plugin, and nothing else', () => {
    const expected: Record<string, string> = {};
    for (const [name, plugin] of Object.entries(plugins)) {
      for (const key of plugin.routeConfig ?? []) expected[key] = name;
    }
    expect(settingOwners).toEqual(expected);
  });

  it.each([
    [
      'deprecation',
      { announced: '2026-01-01', sunset: '2099-01-01', successor: null },
      'versioning()',
    ],
    ['scopes', ['books:write'], 'bearer()'],
    ['cacheControl', { maxAge: 60 }, 'caching()'],
    ['list', { paging: 'page' }, 'payloads()'],
  ])('names the plugin to add for `%s`', (key, value, plugin) => {
    const build = () =>
      conventions({
        lint: 'off',
        routes: {
          '/v1/things': { GET: { handler: () => ({}), config: { [key]: value } as never } },
        },
      });
    expect(build).toThrow(TypeError);
    expect(build).toThrow(`add ${plugin} to \`plugins\``);
  });

  it('still calls a setting nobody reads an unknown option', () => {
    expect(() =>
      conventions({
        lint: 'off',
        routes: { '/v1/things': { GET: { handler: () => ({}), config: { cahce: 1 } as never } } },
      }),
    ).toThrow(/unknown option `cahce`/);
  });
});
