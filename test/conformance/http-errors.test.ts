/** Errors of other libraries (http-errors, as @fastify/sensible and Koa throw them) on every host. */
import { conventions, defineRoutes } from 'api-conventions';
import createError from 'http-errors';
import { expect, it } from 'vitest';
import { describeMatrix } from './_matrix.ts';

const faults: unknown[] = [];

function build() {
  const routes = defineRoutes({
    '/v1/missing-things': {
      GET: () => {
        throw createError(404, 'No thing with id "dune".');
      },
    },
    '/v1/limited-things': {
      GET: () => {
        throw createError(429, 'Slow down.', { headers: { 'Retry-After': 7 } });
      },
    },
    '/v1/guarded-things': {
      GET: async () => {
        throw createError(401, 'Log in first.', {
          headers: { 'WWW-Authenticate': 'Bearer realm="things"', 'X-Broken': 'a\r\nb' },
        });
      },
    },
    '/v1/down-things': {
      GET: () => {
        throw createError(503, 'db at 10.0.0.3 refused', { headers: { 'Retry-After': '60' } });
      },
    },
  });
  return conventions({ routes, logger: { error: (record) => faults.push(record.err), warn() {} } });
}

describeMatrix('errors of other libraries', build, (served) => {
  it('keep their 4xx status and message, with code status × 100 (spec 7.1.1, 7.1.5)', async () => {
    const before = faults.length;
    const res = await served.fetch('/v1/missing-things');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await res.json()).toEqual({
      errors: [{ message: 'No thing with id "dune".', code: 40400 }],
    });
    expect(faults.length).toBe(before);
  });

  it('keep their Retry-After on a 429 (spec 8.2, RFC 9110 §10.2.3)', async () => {
    const res = await served.fetch('/v1/limited-things');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('7');
    expect((await res.json()).errors[0]).toEqual({ message: 'Slow down.', code: 42900 });
  });

  it('keep WWW-Authenticate on a 401 and drop a header that cannot be sent (RFC 9110 §11.6.1)', async () => {
    const res = await served.fetch('/v1/guarded-things');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toBe('Bearer realm="things"');
    expect(res.headers.get('x-broken')).toBeNull();
  });

  it('keep a 5xx status and headers, hide its message and log it as a fault', async () => {
    const before = faults.length;
    const res = await served.fetch('/v1/down-things');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('60');
    const text = await res.text();
    expect(JSON.parse(text)).toEqual({
      errors: [{ message: 'Something went wrong on our side; it has been logged.', code: 50300 }],
    });
    expect(text).not.toContain('10.0.0.3');
    expect(faults.slice(before).map((e) => (e as Error).message)).toEqual([
      'db at 10.0.0.3 refused',
    ]);
  });
});
