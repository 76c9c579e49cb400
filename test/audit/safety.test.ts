/**
 * The auditor is safe by default: only GET, HEAD, OPTIONS and requests the server must
 * refuse; never more than --max-requests; bounded concurrency; a timeout per request; no redirect
 * followed off the base origin; --header never sent to another host.
 */
import { AuditUnreachableError, audit } from 'api-conventions/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { json, type Recorder, startRecorder } from './_recorder.ts';

let service: Recorder;
let other: Recorder;
const secret = 'Bearer secret-for-the-service-only';

beforeAll(async () => {
  other = await startRecorder((req, res) => {
    if (req.url === '/openapi.json') {
      json(res, 200, { openapi: '3.0.3', paths: { '/v1/items': { get: { responses: {} } } } });
    } else json(res, 200, { items: [], hasNext: false });
  });
  service = await startRecorder((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    const allow = { allow: 'GET, HEAD, OPTIONS' };
    if (path === '/v1/slow') return; // never answers
    if (path === '/v1/items' || path === '/v1/slow-later') {
      if (req.method === 'OPTIONS') return json(res, 204, null, allow);
      if (req.method === 'GET' || req.method === 'HEAD') {
        // Held a moment so that requests overlap and the concurrency bound shows.
        setTimeout(() => json(res, 200, { items: [], hasNext: false }), 20);
        return;
      }
      return json(res, 405, { errors: [{ message: 'No.', code: 40500 }] }, allow);
    }
    // Off-origin answers the auditor must not follow.
    if (path === '/V1/ITEMS') {
      res.writeHead(301, { location: `${other.base}/v1/items` });
      return res.end();
    }
    if (path === '/.well-known/oauth-authorization-server') {
      return json(res, 200, { token_endpoint: `${other.base}/token` });
    }
    json(res, 404, { errors: [{ message: `Nothing at ${path}.`, code: 40400 }] });
  });
});
afterAll(async () => {
  await service.close();
  await other.close();
});

describe('the auditor is safe by default', () => {
  it('sends only GET, HEAD, OPTIONS and requests the server must refuse, and no body but the token refusal', async () => {
    service.seen.length = 0;
    await audit({
      baseUrl: service.base,
      paths: ['/v1/items'],
      headers: { Authorization: secret },
    });
    const writes = service.seen.filter((s) => !['GET', 'HEAD', 'OPTIONS'].includes(s.method));
    for (const write of writes) {
      if (write.url === '/v1/oauth2/token') {
        // The token endpoint probe: no credentials of any kind, so it must be refused.
        expect(write.headers.authorization).toBeUndefined();
      } else {
        // A method the path's Allow does not list, with no body.
        expect(['GET', 'HEAD', 'OPTIONS']).not.toContain(write.method);
        expect(write.bodyBytes).toBe(0);
        expect(write.url).toBe('/v1/items');
      }
    }
    expect(writes.map((w) => w.method)).toEqual(expect.arrayContaining(['PATCH', 'POST']));
  });

  it('never follows a redirect off the base origin, nor sends --header to another host', async () => {
    other.seen.length = 0;
    const report = await audit({
      baseUrl: service.base,
      paths: ['/v1/items'],
      openapi: `${other.base}/openapi.json`,
      headers: { Authorization: secret },
    });
    // The redirect to the other host was reported, not followed.
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        rule: '4.1.3',
        outcome: 'fail',
        detail: `301 redirect to ${other.base}/v1/items`,
      }),
    );
    // The other host saw only the document fetch, without the caller's header; the token
    // endpoint the metadata names there was never asked.
    expect(other.seen.map((s) => `${s.method} ${s.url}`)).toEqual(['GET /openapi.json']);
    expect(other.seen[0]?.headers.authorization).toBeUndefined();
    // The service itself got the header.
    expect(service.seen.some((s) => s.headers.authorization === secret)).toBe(true);
  });

  it('sends at most --max-requests requests and says what it skipped', async () => {
    service.seen.length = 0;
    const report = await audit({ baseUrl: service.base, paths: ['/v1/items'], maxRequests: 5 });
    expect(service.seen.length).toBeLessThanOrEqual(5);
    expect(report.requests).toBe(5);
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        outcome: 'skip',
        detail: expect.stringContaining('--max-requests'),
      }),
    );
  });

  it('keeps at most --concurrency requests in flight', async () => {
    service.peak = 0;
    await audit({ baseUrl: service.base, paths: ['/v1/items', '/v1/slow-later'], concurrency: 2 });
    expect(service.peak).toBeGreaterThan(0);
    expect(service.peak).toBeLessThanOrEqual(2);
  });

  it('gives up on a request that never answers and reports it could not check it, not a violation', async () => {
    const report = await audit({
      baseUrl: service.base,
      paths: ['/v1/items', '/v1/slow'],
      timeoutMs: 300,
      only: ['4.2'],
    });
    expect(report.findings).toContainEqual(
      expect.objectContaining({
        rule: '4.2',
        outcome: 'skip',
        request: 'OPTIONS /v1/slow',
        detail: expect.stringMatching(/^could not check: .*timed out/),
      }),
    );
  });

  it('rejects with AuditUnreachableError when the base URL does not answer', async () => {
    const closed = await startRecorder(() => undefined);
    await closed.close();
    await expect(audit({ baseUrl: closed.base, paths: ['/v1/items'] })).rejects.toBeInstanceOf(
      AuditUnreachableError,
    );
  });
});
