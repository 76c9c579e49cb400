/**
 * The bookshelf audits clean on every host: with a token, an origin, client
 * credentials, its OpenAPI document and writes allowed, every check passes or is skipped.
 */
import { fileURLToPath } from 'node:url';
import { audit, type Finding } from 'api-conventions/audit';
import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { appOrigin } from '../../examples/bookshelf/security.ts';
import { describeMatrix } from '../conformance/_matrix.ts';

const openapi = fileURLToPath(new URL('./bookshelf.openapi.json', import.meta.url));
const failures = (findings: Finding[]) => findings.filter((f) => f.outcome === 'fail');

describeMatrix(
  'the bookshelf audits clean',
  () => createBookshelf(),
  (served) => {
    it('passes every check it runs, at least 30, with no failure', async () => {
      const report = await audit({
        baseUrl: served.url(''),
        paths: ['/v1/me', '/v1/reviews'],
        openapi,
        headers: { Authorization: (await served.authorization()) ?? '' },
        origin: appOrigin,
        client: { id: 'demo-client', secret: 'demo-secret' },
        allowWrites: true,
      });
      expect(failures(report.findings)).toEqual([]);
      const passed = report.findings.filter((f) => f.outcome === 'pass');
      expect(passed.length).toBeGreaterThanOrEqual(30);
      // Every family of checks ran and passed somewhere, the writes and the static ones included.
      const rules = new Set(passed.map((f) => f.rule));
      for (const rule of [
        '4.1.3',
        '4.1.9',
        '9.1',
        '4.2',
        '4.3',
        '2.6',
        '2.7',
        '2.8',
        '7.1.1',
        '7.1.3',
        '7.1.5',
        '4.5',
        '4.6',
        '4.7',
        '4.8',
        '4.9',
        '5.6',
        '5.8',
        '7.2',
        '8.3',
        '9.8',
      ]) {
        expect(rules, rule).toContain(rule);
      }
      expect(passed.some((f) => f.request.startsWith(`${openapi}#/paths/`))).toBe(true);
      expect(report.requests).toBeLessThanOrEqual(500);
    });
  },
);

describeMatrix(
  'the bookshelf answers a burst with 429 (spec 8.2)',
  () => createBookshelf({ rateLimit: { limit: 12, window: 3600 } }),
  (served) => {
    it('reports a pass for 429 with Retry-After and the error body', async () => {
      const report = await audit({
        baseUrl: served.url('/v1/books'),
        headers: { Authorization: (await served.authorization()) ?? '' },
        allowBurst: true,
        only: ['8.2'],
      });
      expect(report.findings).toEqual([
        expect.objectContaining({ rule: '8.2', outcome: 'pass', status: 429 }),
      ]);
    });
  },
);
