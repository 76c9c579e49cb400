/** A host binding given wrongly is a start-up TypeError that says how to give it (CONTRIBUTING rule 6). */
import { conventions } from 'api-conventions';
import { describe, expect, it } from 'vitest';
import { type AppRoute, bindHost, type HostBinding, type RequestInput } from '../../src/host.ts';

const api = conventions({ routes: {} });
const input = (native: RequestInput) => native;
const routes: AppRoute[] = [{ method: 'GET', pattern: '/v1/things' }];

describe('bindHost', () => {
  it.each([
    [
      'values in place of functions',
      { size: 1, list: routes },
      'appRoutes.size must be a function',
    ],
    [
      'a list given as an array',
      { size: () => 1, list: routes },
      'appRoutes.list must be a function',
    ],
    ['null', null, 'appRoutes.size must be a function'],
  ])('refuses appRoutes with %s, naming the shape to give', (_, appRoutes, problem) => {
    const binding = { input, appRoutes } as unknown as HostBinding<RequestInput>;
    expect(() => bindHost(api, binding)).toThrow(TypeError);
    expect(() => bindHost(api, binding)).toThrow(problem);
    expect(() => bindHost(api, binding)).toThrow('{ size: (native) => routes.length');
  });

  it('refuses a binding without an input function', () => {
    const binding = {} as unknown as HostBinding<RequestInput>;
    expect(() => bindHost(api, binding)).toThrow(/binding\.input must be a function/);
  });

  it('takes appRoutes as two functions and hands the list to the route view', async () => {
    const host = bindHost<RequestInput>(api, {
      input,
      appRoutes: { size: () => routes.length, list: () => routes },
    });
    const request: RequestInput = {
      method: 'DELETE',
      url: '/v1/things',
      headers: { get: () => undefined },
    };
    expect(await host.enter(request)).toBeUndefined();
    const answer = await host.serve(request);
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toContain('GET');
  });
});
