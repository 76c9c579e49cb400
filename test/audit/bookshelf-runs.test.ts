/**
 * The bookshelf, audited with its own OpenAPI document (`GET /v1/openapi`) and every flag on
 * (a token, an origin, client credentials, writes and the burst), fails nothing, in each of 10
 * consecutive runs on node:http and on Fastify: no false failure, and none at
 * random (the 413 of an upload the server stops reading is read every time). The routes
 * Fastify serves itself (`/v1/native`, `/v1/native-public`) are named by an adjective, a 4.1.4
 * violation of the example that is expected, and nothing else.
 */
import { audit, type Finding } from 'api-conventions/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { loadHost, type Running } from '../../examples/bookshelf/hosts/host.ts';
import { appOrigin } from '../../examples/bookshelf/security.ts';
import { authorizationFor } from '../conformance/_auth.ts';

const runs = 10;

/** A finding about the host's own example routes (`GET /v1/native`), not the table's. */
const hostRoute = (f: Finding) => f.path === '/v1/native' || f.path === '/v1/native-public';

describe.each(['node', 'fastify'] as const)(
  'the bookshelf on %s, audited with its own document',
  (adapter) => {
    let running: Running;
    let base: string;
    beforeAll(async () => {
      const serve = await loadHost(adapter);
      // A limit above the 10 runs' requests (about 1,600), so each run meets the same service.
      running = await serve(createBookshelf({ rateLimit: { limit: 10_000, window: 3600 } }), {
        port: 0,
        host: '127.0.0.1',
      });
      base = `http://127.0.0.1:${running.port}`;
    });
    afterAll(() => running?.close());

    it(`fails no check in ${runs} consecutive runs, writes and burst allowed`, async () => {
      const failed: Finding[][] = [];
      let passes = 0;
      for (let run = 0; run < runs; run++) {
        const report = await audit({
          baseUrl: base,
          openapi: `${base}/v1/openapi`,
          headers: { Authorization: (await authorizationFor(base, 'alice')) ?? '' },
          origin: appOrigin,
          client: { id: 'demo-client', secret: 'demo-secret' },
          allowWrites: true,
          allowBurst: true,
        });
        failed.push(report.findings.filter((f) => f.outcome === 'fail' && !hostRoute(f)));
        if (adapter === 'fastify') {
          // The two routes the bookshelf's hosts declare themselves are named by an adjective,
          // not a plural noun: a true 4.1.4 violation of the example, reported every run.
          const there = report.findings.filter((f) => hostRoute(f) && f.outcome === 'fail');
          expect(there.map((f) => [f.rule, f.path])).toEqual([
            ['4.1.4', '/v1/native'],
            ['4.1.4', '/v1/native-public'],
          ]);
        }
        passes = report.findings.filter((f) => f.outcome === 'pass').length;
      }
      expect(failed).toEqual(Array.from({ length: runs }, () => []));
      // The runs did check something: the document's paths, live and static, and the contract.
      expect(passes).toBeGreaterThan(200);
    }, 120_000);
  },
);
