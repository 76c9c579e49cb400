/**
 * `mixedCaseParameters`: ids from other systems keep their upper-case letters in parameter
 * values (`/v1/things/AbC123`), while literal segments stay lower-case only (spec 4.1.3: an
 * upper-case path is 404, no redirect). Off by default, as the spec says.
 */
import { expect, it } from 'vitest';
import { conventions, ErrorCode, type RequestContext } from '../../src/index.ts';
import { describeMatrix } from './_matrix.ts';

const routes = {
  '/v1/things/:id': { GET: (ctx: RequestContext) => ({ id: ctx.param('id') }) },
  '/v1/things/:id/parts/:part': {
    GET: (ctx: RequestContext) => ({ id: ctx.param('id'), part: ctx.param('part') }),
  },
};
const quiet = { error: () => {}, warn: () => {} };

describeMatrix(
  'mixedCaseParameters: true',
  () => conventions({ lint: 'off', logger: quiet, mixedCaseParameters: true, routes }),
  (served) => {
    const get = (path: string, method = 'GET') => served.fetchAs('anonymous', path, { method });

    it('passes upper-case letters in parameter values through to the handler', async () => {
      const one = await get('/v1/things/AbC123');
      expect(one.status).toBe(200);
      expect(await one.json()).toEqual({ id: 'AbC123' });
      const two = await get('/v1/things/XyZ/parts/Q7');
      expect(await two.json()).toEqual({ id: 'XyZ', part: 'Q7' });
    });

    it('still answers 404 for an upper-case literal segment (spec 4.1.3)', async () => {
      for (const path of ['/V1/things/abc', '/v1/Things/AbC', '/v1/things/AbC/Parts/x']) {
        const res = await get(path);
        expect(res.status, path).toBe(404);
        expect((await res.json()).errors[0].code).toBe(ErrorCode.UpperCasePath);
      }
    });

    it('answers 405 with Allow for another method on a mixed-case id (spec 4.2)', async () => {
      const res = await get('/v1/things/AbC', 'DELETE');
      expect(res.status).toBe(405);
      expect(res.headers.get('allow')).toContain('GET');
    });
  },
);

describeMatrix(
  'the default: any upper-case letter is 404',
  () => conventions({ lint: 'off', logger: quiet, routes }),
  (served) => {
    it('answers 404 for an upper-case parameter value (spec 4.1.3)', async () => {
      const res = await served.fetchAs('anonymous', '/v1/things/AbC123');
      expect(res.status).toBe(404);
      expect((await res.json()).errors[0].code).toBe(ErrorCode.UpperCasePath);
    });
  },
);
