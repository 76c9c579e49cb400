/**
 * Query parameters a list route does not read, under the default policy ('typos'): cache-busters
 * and tracking parameters pass, likely misspellings of the route's own parameters are a 400
 * naming the one meant (spec 4.4 parameters, spec 7 error body), on every host.
 */
import { expect, it } from 'vitest';
import { conventions, ErrorCode, listOf, payloads, type RequestContext } from '../../src/index.ts';
import { describeMatrix } from './_matrix.ts';

describeMatrix(
  'unknown query parameters on a list route (the default policy)',
  () =>
    conventions({
      lint: 'off',
      logger: { error: () => {}, warn: () => {} },
      plugins: [payloads()],
      routes: {
        '/v1/things': {
          GET: {
            handler: (ctx: RequestContext) =>
              listOf('things', [{ page: ctx.query.get('page') }], { hasNext: false }),
            config: { list: { name: 'things', styles: ['page'], sort: ['name'] } },
          },
        },
      },
    }),
  (served) => {
    const get = (query: string) => served.fetchAs('anonymous', `/v1/things?${query}`);

    it('lets a cache-buster and tracking parameters through', async () => {
      const res = await get('_=1700000000&utm_source=newsletter&utm_medium=email&page=1');
      expect(res.status).toBe(200);
    });

    it.each([
      ['per_pgae=5', 'per_page'],
      ['sortt=name', 'sort'],
      ['perPage=5', 'per_page'],
    ])('answers %s with 400 naming the parameter meant', async (query, meant) => {
      const res = await get(query);
      expect(res.status).toBe(400);
      const { errors } = await res.json();
      expect(errors[0]).toMatchObject({ code: ErrorCode.UnknownParameter });
      expect(errors[0].message).toContain(`did you mean "${meant}"`);
    });
  },
);
