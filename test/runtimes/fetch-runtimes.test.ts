/**
 * The conformance basics on the runtimes docs/adapters.md names for the fetch adapter: Bun,
 * Deno with network permission only, and workerd with the service (rate limiter, OAuth server)
 * built at module scope, each a real binary from its npm package serving the bookshelf.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RuntimeServer, runtimes, startRuntime } from './_runtimes.ts';

const client = `Basic ${Buffer.from('demo-client:demo-secret').toString('base64')}`;

describe.each(runtimes)('the fetch adapter on %s', (runtime) => {
  let server: RuntimeServer | undefined;
  let bearer = '';
  const get = (path: string, init: RequestInit = {}) =>
    fetch(`${server!.url}${path}`, {
      ...init,
      headers: { authorization: bearer, ...(init.headers as Record<string, string>) },
    });

  beforeAll(async () => {
    server = await startRuntime(runtime);
  }, 60_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('answers 401 with a Bearer challenge without a token (RFC 6750 §3)', async () => {
    const res = await fetch(`${server!.url}/v1/books`);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Bearer /);
    expect(((await res.json()) as { errors: unknown[] }).errors).toHaveLength(1);
  });

  it('issues a token from the OAuth server built at module scope (RFC 6749 §4.3)', async () => {
    const res = await fetch(`${server!.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: client, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=password&username=alice&password=wonderland',
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { access_token: string; token_type: string };
    expect(body.token_type).toBe('Bearer');
    bearer = `Bearer ${body.access_token}`;
    const me = await get('/v1/me');
    expect(me.status).toBe(200);
    expect(((await me.json()) as { id: string }).id).toBe('alice');
  });

  it('answers a table route 200 with nosniff and the rate-limit headers (spec 4.8, 4.10)', async () => {
    const res = await get('/v1/books');
    expect(res.status).toBe(200);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('x-ratelimit-limit') ?? res.headers.get('ratelimit')).not.toBeNull();
    expect(res.headers.get('ratelimit-policy')).not.toBeNull();
  });

  it('answers 404 naming the path (spec 4.5)', async () => {
    const res = await get('/v1/nothing-here');
    expect(res.status).toBe(404);
    expect(await res.text()).toContain('/v1/nothing-here');
  });

  it('answers 405 with Allow (RFC 9110 §15.5.6)', async () => {
    const res = await get('/v1/books', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toContain('GET');
  });

  it('answers 406 for a media type it cannot send (RFC 9110 §15.5.7)', async () => {
    const res = await get('/v1/books', { headers: { accept: 'image/png' } });
    expect(res.status).toBe(406);
  });
});
