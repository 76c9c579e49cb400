/**
 * The time budget of a request's checks (docs/limits.md, "Checks in time"):
 * an asynchronous schema, `authorize` or `resourceVersion` that does not settle within
 * `checkTimeout` is a logged 503 (50303) that names the check; a synchronous one costs no timer,
 * and a write already done is answered, without its validators.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { isPromise } from '../../src/core/kernel/steps.ts';
import type { ApiResponse } from '../../src/host.ts';
import { caching, conventions, ErrorCode, ok, type RouteTable } from '../../src/index.ts';

const never = () => new Promise<never>(() => {});
const get = (url: string) => ({ method: 'GET', url, headers: new Headers() });

function make(routes: RouteTable, plugins = [caching()]) {
  const faults: { err?: unknown }[] = [];
  const api = conventions({
    lint: 'off',
    checkTimeout: 20,
    logger: { error: (obj: { err?: unknown }) => faults.push(obj), warn() {} },
    plugins,
    routes,
  });
  return { api, faults };
}

describe('checkTimeout', () => {
  it('refuses a checkTimeout that is no whole number of milliseconds at start-up', () => {
    expect(() => conventions({ lint: 'off', checkTimeout: 0 })).toThrow(
      'checkTimeout must be a whole number from 1 to 2147483647; got 0.',
    );
  });

  it('answers a query schema that never settles with a logged 503 naming it', async () => {
    const { api, faults } = make({
      '/v1/notes': {
        GET: {
          handler: () => ({ notes: [] }),
          config: { query: z.object({ q: z.string() }).refine(never) },
        },
      },
    });
    const res = await api.handle(get('/v1/notes?q=x'));
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body as string)).toEqual({
      errors: [
        {
          message: 'The request could not be checked in time; nothing was done. Try again later.',
          code: ErrorCode.CheckTimeout,
        },
      ],
    });
    const cause = (faults[0]?.err as { cause?: Error } | undefined)?.cause;
    expect(cause?.message).toBe('The query schema did not settle within 20 ms (checkTimeout).');
  });

  it('answers a synchronous check without a promise, and an async one that settles in time as usual', async () => {
    const { api } = make({
      '/v1/notes': { GET: { handler: () => ({ n: 1 }), config: { query: z.object({}) } } },
      '/v1/async-notes': {
        GET: {
          handler: () => ({ n: 2 }),
          config: { query: z.object({}).refine(async () => true) },
        },
      },
    });
    const sync = api.handle(get('/v1/notes'));
    expect(isPromise(sync)).toBe(false);
    expect((sync as ApiResponse).status).toBe(200);
    expect((await api.handle(get('/v1/async-notes'))).status).toBe(200);
  });

  it('answers a write whose resourceVersion does not settle afterwards, without its ETag', async () => {
    const { api } = make({
      '/v1/notes/:id': {
        GET: { handler: () => ({ id: 'n' }), config: { resourceVersion: never } },
        PUT: { handler: () => ok({ id: 'n' }) },
      },
    });
    const res = await api.handle({
      method: 'PUT',
      url: '/v1/notes/n-1',
      headers: new Headers({ 'content-type': 'application/json' }),
      readBody: () => Promise.resolve(new TextEncoder().encode('{}')),
    });
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBeUndefined();
  });
});
