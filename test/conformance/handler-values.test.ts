/** Regressions in what a handler's return value answers, on every host (spec 2.7, 4.3). */
import { expect, it } from 'vitest';
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
