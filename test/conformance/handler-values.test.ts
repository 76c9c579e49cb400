/** Regressions in what a handler's return value answers, on every host (spec 2.7, 4.3). */
import createError from 'http-errors';
import { expect, it } from 'vitest';
import { conventions, ErrorCode, notFound } from '../../src/index.ts';
import { describeMatrix } from './_matrix.ts';
import { createProbe, handlerValues, type Logged } from './_probe.ts';

describeMatrix(
  'values a handler returns',
  () => createProbe({ errors: [] }),
  (served) => {
    it.each(Object.entries(handlerValues))(
      'answers 200 with JSON when a handler returns the %s value %j, never a 204 or a text/plain body',
      async (kind, value) => {
        const res = await served.fetch(`/v1/values/${kind}`);
        expect(res.status).toBe(200);
        expect(res.headers.get('content-type')).toBe('application/json');
        const text = await res.text();
        expect(text).toBe(JSON.stringify(value));
        expect(JSON.parse(text)).toBe(value);
      },
    );
  },
);

const logged: Required<Logged> = { errors: [], warnings: [] };
const draftWarnings = () => logged.warnings.filter((w) => w.includes('POST /v1/drafts'));

describeMatrix(
  'a POST handler that returns nothing',
  () => createProbe(logged),
  (served) => {
    it('answers 204 with no body, and warns once in development naming the route, not once per request (spec 4.3)', async () => {
      const before = draftWarnings().length;
      for (let i = 0; i < 3; i++) {
        const res = await served.fetch('/v1/drafts', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        expect(res.status).toBe(204);
        expect(await res.text()).toBe('');
      }
      const warnings = draftWarnings().slice(before);
      expect(warnings).toHaveLength(1);
      expect(warnings[0]).toMatch(/^POST \/v1\/drafts returned nothing, so it answered 204; /);
      expect(warnings[0]).toContain('created(location, data)');
    });
  },
);

describeMatrix(
  'a handler that returns an error instead of throwing it',
  () =>
    conventions({
      lint: 'off',
      logger: { error: () => {}, warn: () => {} },
      routes: {
        '/v1/missing': { GET: () => notFound('No book with id "x".') },
        '/v1/taken': { GET: () => createError(409, 'That name is taken.') },
        '/v1/broken': { GET: () => new Error('a returned plain error') },
      },
    }),
  (served) => {
    it('answers a returned ApiError with its status and error body, as if thrown (spec 7)', async () => {
      const res = await served.fetchAs('anonymous', '/v1/missing');
      expect(res.status).toBe(404);
      expect(await res.json()).toEqual({
        errors: [{ message: 'No book with id "x".', code: ErrorCode.NotFound }],
      });
    });

    it('answers a returned http-errors error with its status (spec 7)', async () => {
      const res = await served.fetchAs('anonymous', '/v1/taken');
      expect(res.status).toBe(409);
      expect((await res.json()).errors[0].message).toBe('That name is taken.');
    });

    it('answers a returned plain Error as a logged 500 without its message, never 200 {}', async () => {
      const res = await served.fetchAs('anonymous', '/v1/broken');
      expect(res.status).toBe(500);
      expect(await res.text()).not.toContain('a returned plain error');
    });
  },
);
