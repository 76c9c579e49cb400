/**
 * What the binding decides for every host, from plain values: wildcard translation, the router
 * errors the route view answers, companions found by name, the settings of declared and
 * dispatched routes, and the headers the conventions add to the app's own responses.
 */
import { conventions, rateLimit, securityHeaders } from 'api-conventions';
import { describe, expect, it, vi } from 'vitest';
import { answeredByRouteView } from '../../src/core/host/router-errors.ts';
import {
  appHeaders,
  bindHost,
  catchAllPath,
  dispatchedSettings,
  type RequestInput,
  tablePattern,
  useDeclaredRoutes,
} from '../../src/core/index.ts';

const input = (native: RequestInput) => native;
const request = (method: string, url: string): RequestInput => ({
  method,
  url,
  headers: { get: () => undefined },
});
const quiet = () => ({ debug: vi.fn(), info: vi.fn(), warn: vi.fn(), error: vi.fn() });

describe('wildcard translation', () => {
  it.each([
    ['/v1/files/*', '/v1/files/*rest'],
    ['*', '*rest'],
    ['/v1/books/:id', '/v1/books/:id'],
  ])('reads the host path %s as the table pattern %s', (path, pattern) => {
    expect(tablePattern(path)).toBe(pattern);
  });

  it.each([
    ['/v1/files/*path', '/v1/files/*'],
    ['/v1/books/:id', '/v1/books/:id'],
  ])('gives the table pattern %s to a catch-all router as %s', (pattern, path) => {
    expect(catchAllPath(pattern, 'Fastify')).toBe(path);
  });

  it.each(['/v1/books{/:id}', '/v1/a\\:b', '/v1/*inner/tail', '/v1/files/*'])(
    'refuses %s with a TypeError naming the host',
    (pattern) => {
      expect(() => catchAllPath(pattern, 'Fastify')).toThrow(TypeError);
      expect(() => catchAllPath(pattern, 'Fastify')).toThrow(/Fastify has no optional groups/);
    },
  );
});

describe('router errors', () => {
  const never = () => false;
  it.each([
    ['a path the core cannot route', { code: 'FST_ERR_BAD_URL' }, undefined, true, true],
    ['a path the core routes', { code: 'FST_ERR_BAD_URL' }, undefined, false, false],
    [
      'a body method on no route',
      { code: 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE' },
      true,
      false,
      true,
    ],
    [
      'a body method on a route',
      { code: 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE' },
      false,
      false,
      false,
    ],
    ['another error', { code: 'FST_ERR_CTP_INVALID_JSON_BODY' }, true, true, false],
    ['no error object', undefined, true, true, false],
  ])('tells whether the route view answers %s', (_, error, unmatched, unroutable, answered) => {
    expect(answeredByRouteView(error, unmatched, unroutable ? () => true : never)).toBe(answered);
  });

  it('answers a router error about an unmatched request with the route view’s 404', async () => {
    const api = conventions({ routes: { '/v1/things': { GET: () => ({ things: [] }) } } });
    const host = bindHost<RequestInput>(api, { input });
    const native = request('QUERY', '/v1/nothing');
    const error = Object.assign(new Error('missing'), {
      code: 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE',
      statusCode: 415,
    });
    const answer = await host.fail(native, error, { unmatched: true });
    expect(answer.status).toBe(404);
  });
});

describe('companions found by name', () => {
  it('takes each one the host has, once, and warns where it doubles a plugin up', () => {
    const logger = quiet();
    const api = conventions({ logger, plugins: [securityHeaders(), rateLimit()] });
    const host = bindHost<RequestInput>(api, { input });
    const present = new Set(['@fastify/helmet', '@fastify/compress']);
    const found = host.findCompanions((name) => present.has(name));
    expect([...found].sort()).toEqual(['@fastify/compress', '@fastify/helmet']);
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn.mock.calls[0]![0]).toMatch(/@fastify\/helmet sets security headers/);
  });

  it('refuses @fastify/cors beside the cors() plugin with a TypeError saying which to keep', async () => {
    const { cors } = await import('api-conventions');
    const api = conventions({ plugins: [cors({ origins: ['https://app.example.com'] })] });
    const host = bindHost<RequestInput>(api, { input });
    expect(() => host.findCompanions((name) => name === '@fastify/cors')).toThrow(TypeError);
    expect(() => host.findCompanions((name) => name === '@fastify/cors')).toThrow(/keep one/);
  });
});

describe('declared and dispatched routes', () => {
  it('compiles each declared route by its key, so twins on one path keep their own settings', () => {
    const api = conventions({ logger: quiet() });
    const host = bindHost<RequestInput>(api, { input });
    const open = {};
    const closed = {};
    useDeclaredRoutes(host, [
      { key: open, method: 'GET', url: '/v1/report', config: { bodyLimit: 1024 } },
      { key: closed, method: ['GET', 'HEAD'], url: '/v1/report' },
    ]);
    const at = (key: object) =>
      dispatchedSettings(
        host,
        { key, method: 'GET', url: '/v1/report', config: undefined },
        'register(api)',
      );
    expect(at(open).config.bodyLimit).toBe(1024);
    expect(at(closed).config.bodyLimit).toBeUndefined();
    expect(api.appRoutes.map((route) => route.method)).toEqual(['GET', 'HEAD']);
  });

  it('names a route it never saw declared once, and still checks it on its settings', () => {
    const logger = quiet();
    const api = conventions({ logger });
    const host = bindHost<RequestInput>(api, { input });
    const own = {};
    const dispatch = (method: string) =>
      dispatchedSettings(
        host,
        { key: own, method, url: '/v1/early/*', config: { bodyLimit: 1024 } },
        'toFastifyPlugin(api)',
      );
    expect(dispatch('GET').config.bodyLimit).toBe(1024);
    expect(dispatch('HEAD').pattern).toBe('/v1/early/*rest');
    const warnings = logger.warn.mock.calls.map(([line]) => String(line));
    const named = warnings.filter((line) => line.includes('declared before toFastifyPlugin(api)'));
    expect(named).toHaveLength(1);
  });
});

describe('headers of the app’s own responses', () => {
  it('gives the always-on headers when asked, and nothing gathered for a request never opened', () => {
    const api = conventions({ plugins: [securityHeaders()] });
    const host = bindHost<RequestInput>(api, { input });
    const native = request('GET', '/v1/health');
    expect(appHeaders(host, native)).toEqual({});
    expect(appHeaders(host, native, true)).toEqual(host.alwaysOnHeaders);
    expect(Object.keys(host.alwaysOnHeaders).length).toBeGreaterThan(0);
  });
});
