import { conventions } from 'api-conventions';
import { createExpressMiddleware, toExpressMiddleware } from 'api-conventions/express';
import { fastifyConventions, toFastifyPlugin } from 'api-conventions/fastify';
import { toClientErrorHandler, toServerErrorHandler } from 'api-conventions/fetch';
import { nodeServerOptions, serverOptions } from 'api-conventions/node';
import Fastify from 'fastify';
import { afterEach, describe, expect, it, vi } from 'vitest';

// Each old adapter name keeps working for one minor version and says once which name replaces
// it, as a Node DeprecationWarning (docs/adapters.md, "Names"). Each alias is used twice here,
// in a module loaded once per file, so "once" is counted from its first use.
const quiet = { logger: { error() {}, warn() {} } };
const api = conventions({ ...quiet, routes: { '/v1/books': { GET: () => ({ books: [] }) } } });

/** The deprecation warnings `process.emitWarning` was given, by message. */
function deprecations(spy: { mock: { calls: unknown[][] } }): string[] {
  return spy.mock.calls
    .filter((call) => (call[1] as { type?: string } | undefined)?.type === 'DeprecationWarning')
    .map((call) => String(call[0]));
}

describe('deprecated adapter names', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('createExpressMiddleware works as toExpressMiddleware and warns once, naming it', () => {
    const spy = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const first = createExpressMiddleware(api);
    const second = createExpressMiddleware(api);
    expect(Object.keys(first).sort()).toEqual(Object.keys(toExpressMiddleware(api)).sort());
    expect(second.after).toHaveLength(2);
    const warned = deprecations(spy);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(
      /^createExpressMiddleware .* is deprecated .*use toExpressMiddleware/,
    );
  });

  it('fastifyConventions serves as toFastifyPlugin(api) does and warns once, naming it', async () => {
    const spy = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const statuses: number[] = [];
    for (const plugin of [fastifyConventions, fastifyConventions]) {
      const app = Fastify();
      await app.register(plugin, { api });
      statuses.push((await app.inject('/v1/books')).statusCode);
      await app.close();
    }
    const current = Fastify();
    await current.register(toFastifyPlugin(api));
    statuses.push((await current.inject('/v1/books')).statusCode);
    await current.close();
    expect(statuses).toEqual([200, 200, 200]);
    const warned = deprecations(spy);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/^fastifyConventions .* is deprecated .*use toFastifyPlugin\(api\)/);
  });

  it('toServerErrorHandler answers as toClientErrorHandler and warns once, naming it', async () => {
    const spy = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    const refused = Object.assign(new Error('Missing host header'), { name: 'RequestError' });
    const old = await Promise.all([
      toServerErrorHandler(api)(refused),
      toServerErrorHandler(api)(refused),
    ]);
    const current = await toClientErrorHandler(api)(refused);
    expect(typeof toServerErrorHandler(api).wrap).toBe('function');
    expect(old.map((r) => r.status)).toEqual([current.status, current.status]);
    expect(await old[0]!.json()).toEqual(await current.json());
    const warned = deprecations(spy);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/^toServerErrorHandler .* is deprecated .*use toClientErrorHandler/);
  });

  it('nodeServerOptions holds the settings of serverOptions and warns once, naming it', () => {
    const spy = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    expect({ ...nodeServerOptions }).toEqual(serverOptions);
    expect(nodeServerOptions.maxHeaderSize).toBe(serverOptions.maxHeaderSize);
    const warned = deprecations(spy);
    expect(warned).toHaveLength(1);
    expect(warned[0]).toMatch(/^nodeServerOptions .* is deprecated .*use serverOptions/);
  });

  it('the names that replace them do not warn', () => {
    const spy = vi.spyOn(process, 'emitWarning').mockImplementation(() => {});
    toExpressMiddleware(api);
    toFastifyPlugin(api);
    toClientErrorHandler(api)(new Error('x'));
    expect({ ...serverOptions }.maxHeaderSize).toBe(65536);
    expect(deprecations(spy)).toEqual([]);
  });
});
