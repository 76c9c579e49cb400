/**
 * The bookshelf, audited with its own OpenAPI document (`GET /v1/openapi`) and every flag on
 * (a token, an origin, client credentials, writes and the burst), fails nothing, in each of 10
 * consecutive runs on node:http and on Fastify (issue 35, item 2): no false failure, and none at
 * random (the 413 of an upload the server stops reading is read every time).
 */
import { audit, type Finding } from 'api-conventions/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { loadHost, type Running } from '../../examples/bookshelf/hosts/host.ts';
import { appOrigin } from '../../examples/bookshelf/security.ts';
import { authorizationFor } from '../conformance/_auth.ts';

const runs = 10;

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
        failed.push(report.findings.filter((f) => f.outcome === 'fail'));
        passes = report.findings.filter((f) => f.outcome === 'pass').length;
      }
      expect(failed).toEqual(Array.from({ length: runs }, () => []));
      // The runs did check something: the document's paths, live and static, and the contract.
      expect(passes).toBeGreaterThan(200);
    }, 120_000);
  },
);
