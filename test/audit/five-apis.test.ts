/**
 * No false failure, no missed violation: the auditor against the tests'
 * own versions of the kinds of API it was measured on (a json-server-like API, a Prism-like mock
 * of the Petstore, a Fastify app documented by @fastify/swagger, an Express app written the usual
 * way), each over real HTTP on port 0 and each with the written list of the violations it really
 * has: every listed violation is reported, and nothing else fails. The bookshelf, audited with
 * its own document, is bookshelf-runs.test.ts.
 */
import { type AuditOptions, type AuditReport, audit } from 'api-conventions/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Started } from './apis/_listen.ts';
import { apiKey, startExpressUsual } from './apis/express-usual.ts';
import { startFastifySwaggerLike } from './apis/fastify-swagger-like.ts';
import { startJsonServerLike } from './apis/json-server-like.ts';
import { startPrismLike } from './apis/prism-like.ts';

/** A violation: its rule, a part of the finding's request, and what its detail says. */
type Violation = [rule: string, request: string, detail: RegExp];

const securityHeaders = /security headers: .*x-frame-options missing/;
const noErrorsList = /error body has no non-empty "errors" list/;

/** Audits `start`'s app with `options`, and holds the report for the checks below. */
function auditOf(
  start: () => Promise<Started>,
  options: (base: string) => Omit<AuditOptions, 'baseUrl'>,
) {
  const state: { app?: Started; report?: AuditReport } = {};
  beforeAll(async () => {
    state.app = await start();
    state.report = await audit({ baseUrl: state.app.base, ...options(state.app.base) });
  });
  afterAll(() => state.app?.close());
  return state;
}

/**
 * Every listed violation is reported (a failure where the spec requires its rule, a warning
 * where it prefers it or gives a pattern), and every violation reported is a listed one.
 */
function expectExactly(report: AuditReport | undefined, violations: Violation[]): void {
  const failures = (report?.findings ?? []).filter(
    (f) => f.outcome === 'fail' || f.outcome === 'warn',
  );
  for (const f of failures) expect(f.outcome).toBe(f.strength === 'required' ? 'fail' : 'warn');
  // A finding is one per rule, method and path: it may be named by its request, its place in
  // the document or its method and path.
  const matches = (v: Violation, f: (typeof failures)[number]) =>
    f.rule === v[0] &&
    (f.request.includes(v[1]) ||
      f.document?.includes(v[1]) === true ||
      `${f.method} ${f.path}` === v[1]) &&
    v[2].test(f.detail);
  const missed = violations.filter((v) => !failures.some((f) => matches(v, f)));
  const unlisted = failures
    .filter((f) => !violations.some((v) => matches(v, f)))
    .map((f) => `${f.rule} ${f.request}: ${f.detail}`);
  expect({ missed: missed.map((v) => `${v[0]} ${v[1]} ${v[2]}`), unlisted }).toEqual({
    missed: [],
    unlisted: [],
  });
}

describe('a json-server-like API (json-server 0.17 defaults)', () => {
  const state = auditOf(startJsonServerLike, () => ({
    paths: ['/posts', '/posts/1'],
    origin: 'https://app.example.com',
    allowWrites: true,
  }));
  // What it really breaks, path by path.
  const perPath = (p: string): Violation[] => [
    ['9.1', `GET ${p}`, /version/],
    ['4.2', `OPTIONS ${p}`, /without Allow/],
    // Without Allow, TRACE (a safe method) is tried: Express answers 404, not 405.
    ['4.2', `TRACE ${p}`, /answered 404 .*expected 405/],
    ['7.1.5', `TRACE ${p}`, noErrorsList],
    ['4.1.3', `GET ${p.toUpperCase()}`, /answered 200 .*expected 404/],
    ['4.1.9', `GET ${p}/`, /is served \(200\)/],
    ['4.5', `GET ${p} (Accept:`, /expected 406/],
    ['4.8', `GET ${p}`, securityHeaders],
  ];
  it('reports each of its violations, and nothing else (spec 2.7, 4.2, 4.3, 4.5, 4.6, 4.8, 7.1.5)', () => {
    expectExactly(state.report, [
      ...perPath('/posts'),
      ...perPath('/posts/1'),
      ['2.7', 'GET /posts', /bare array/],
      ['7.1.5', 'GET /api-conventions-audit-missing', noErrorsList],
      ['7.1.3', 'GET /api-conventions-audit-missing', /does not name/],
      // Any origin, reflected, with credentials: any page can read the API as its visitor.
      [
        '4.8',
        'CORS preflight from https://api-conventions-audit.invalid',
        /allowed with credentials/,
      ],
      // A body of a type it cannot read still creates a record, and its delete is 200 {}.
      [
        '4.6',
        'POST /posts (Content-Type: application/x-api-conventions-audit)',
        /201 .*expected 415/,
      ],
      ['4.3', 'DELETE /posts/', /200 .*expected 204/],
      // No credentials were given, and the writes went through (spec 5.1).
      ['5.1', 'POST /posts', /accepted \(201\) without any credentials/],
      ['7.2', 'POST /posts (an 8 MiB body)', /413: the error body is text\/html/],
    ]);
  });
});

describe('an Express app written the usual way', () => {
  const state = auditOf(startExpressUsual, (base) => ({
    paths: ['/v1/users/1', '/v1/reports', '/v1/docs'],
    openapi: `${base}/openapi.json`,
    headers: { 'X-API-Key': apiKey },
    allowWrites: true,
  }));
  const express404 = (p: string): Violation[] => [
    ['4.2', `PATCH ${p}`, /answered 404 text\/html .*expected 405/],
    ['4.1.3', `GET ${p.toUpperCase()}`, /expected 404/],
  ];
  it('reports each of its violations, and nothing else (spec 2.6, 2.7, 4.3, 4.7, 5.1, 7.2)', () => {
    expectExactly(state.report, [
      ['2.7', '#/paths/~1v1~1users/get/responses/200', /bare array/],
      ...express404('/v1/users/1'),
      ...express404('/v1/users'),
      ...express404('/v1/reports'),
      ...express404('/v1/docs'),
      ['4.1.9', 'GET /v1/users/1/', /is served/],
      ['4.1.9', 'GET /v1/users/', /is served/],
      ['4.1.9', 'GET /v1/docs/', /is served/],
      ['4.5', 'GET /v1/users/1 (Accept:', /expected 406/],
      ['4.5', 'GET /v1/users (Accept:', /expected 406/],
      ['2.7', 'GET /v1/users', /bare array/],
      // Epoch milliseconds in a field named lastLogin.
      ['2.6', 'GET /v1/users/1', /lastLogin: 1714550400000/],
      ['2.6', 'GET /v1/users', /lastLogin: 1714550400000/],
      // String and HTML errors.
      ['7.1.5', 'GET /v1/users/1', /text\/html, not JSON/],
      ['7.1.5', 'GET /v1/users', /text\/html, not JSON/],
      ['7.1.5', 'GET /v1/reports', /text\/html, not JSON/],
      ['7.1.5', 'PATCH /v1/docs', /text\/html, not JSON/],
      ['7.1.5', 'GET /v1/api-conventions-audit-missing', /text\/html, not JSON/],
      ['4.8', 'GET /v1/users/1', /without X-Content-Type-Options: nosniff/],
      ['4.8', 'GET /v1/users', /without X-Content-Type-Options: nosniff/],
      ['4.8', 'GET /v1/users/1', securityHeaders],
      ['4.8', 'GET /v1/users', securityHeaders],
      ['4.8', 'GET /v1/reports', /security headers: .*x-frame-options missing/],
      ['4.8', 'GET /v1/docs', securityHeaders],
      // No Cache-Control at all, on the API and on its page.
      ['4.7', 'GET /v1/users/1', /without Cache-Control/],
      ['4.7', 'GET /v1/users', /without Cache-Control/],
      ['4.7', 'GET /v1/docs', /without Cache-Control/],
      // The route that throws: a 5xx on an audited GET is a failure.
      ['7.2', 'GET /v1/reports', /answered 500 .*server error/],
      // An API key, in the document and in the credentials given.
      ['5.1', 'OpenAPI securitySchemes', /ApiKey .*not OAuth 2\.0/],
      ['5.1', '--header x-api-key', /API key in x-api-key/],
      // Writes, from a body made from the document's schema (it has no example).
      [
        '4.3',
        "POST /v1/users (a body made from the document's schema)",
        /answered 200 .*expected 201/,
      ],
      ['4.3', 'DELETE /v1/users/', /answered 200 .*expected 204/],
      ['4.6', 'POST /v1/users (Content-Type: application/x-api-conventions-audit)', /expected 415/],
      ['7.2', 'POST /v1/users (an 8 MiB body)', /413: the error body is text\/html/],
      ['7.1.5', 'POST /v1/users (a body without the required "name")', /text\/html, not JSON/],
    ]);
  });

  it("does not call the HTML page's format a violation (spec 4.5), nor fail a 304 Express gives its own ETag (spec 4.7)", () => {
    const findings = state.report?.findings ?? [];
    expect(findings).toContainEqual(
      expect.objectContaining({
        rule: '4.5',
        outcome: 'skip',
        method: 'GET',
        path: '/v1/docs',
        detail: expect.stringContaining('a page or asset (text/html), not API data'),
      }),
    );
    // The conditional GET's 304 is merged into the path's one 4.7 finding: it is no violation.
    const conditional = findings.filter(
      (f) => f.rule === '4.7' && f.path === '/v1/users/1' && /validator|304/.test(f.detail),
    );
    expect(conditional).toEqual([]);
    expect(findings).toContainEqual(
      expect.objectContaining({ rule: '4.7', method: 'GET', path: '/v1/users/1', outcome: 'warn' }),
    );
  });
});

describe('a Fastify app documented with @fastify/swagger', () => {
  const state = auditOf(startFastifySwaggerLike, (base) => ({
    openapi: `${base}/openapi.json`,
    origin: 'https://app.example.com',
    allowWrites: true,
  }));
  const perPath = (p: string): Violation[] => [
    ['4.2', `OPTIONS ${p}`, /404 .*without Allow/],
    ['4.2', `PATCH ${p}`, /answered 404 .*expected 405/],
    ['4.5', `GET ${p} (Accept:`, /expected 406/],
    [
      '4.8',
      `OPTIONS ${p} (CORS preflight) from https://app.example.com`,
      /Access-Control-Allow-Origin: \(absent\)/,
    ],
    ['7.1.5', `OPTIONS ${p}`, noErrorsList],
    ['4.8', `GET ${p}`, /without X-Content-Type-Options: nosniff/],
    ['4.8', `GET ${p}`, securityHeaders],
  ];
  it('reports each of its violations, and nothing else (spec 4.2, 4.5, 4.8, 7.1.5, the contract)', () => {
    expectExactly(state.report, [
      // Its error schemas, followed through allOf: Fastify's shape, not the spec's.
      ['7.1.5', '#/paths/~1v1~1products/get/responses/400', /error schema/],
      ['7.1.5', '#/paths/~1v1~1products~1{id}/get/responses/404', /error schema/],
      ...perPath('/v1/products'),
      ...perPath('/v1/products/1'),
      ['7.1.5', 'GET /v1/api-conventions-audit-missing', noErrorsList],
      // Values its schemas forbid are refused, but with Fastify's error body.
      ['7.1.5', 'GET /v1/products', /400: the error body has no non-empty "errors" list/],
      ['7.1.5', 'GET /v1/products/{id}', /400: the error body has no non-empty "errors" list/],
    ]);
  });

  it("reads Fastify's 404 message before saying it names nothing (spec 7.1.3)", () => {
    expect(state.report?.findings).toContainEqual(
      expect.objectContaining({
        rule: '7.1.3',
        outcome: 'pass',
        detail: expect.stringContaining('Route GET:/v1/api-conventions-audit-missing not found'),
      }),
    );
  });
});

describe('a Prism-like mock of the Petstore, as its document is published (servers: /v2)', () => {
  const state = auditOf(startPrismLike, (base) => ({
    openapi: `${base}/openapi.json`,
    headers: { api_key: 'special-key' },
  }));
  it('reports that every documented GET answers 404, instead of passing their checks', () => {
    expectExactly(state.report, [
      ['4.1.4', '#/paths/~1pet~1{petId}', /plural/],
      ['4.1.4', 'GET /v2/pet/1', /plural/],
      ['4.1.3', '#/paths/~1pet~1findByStatus', /upper-case/],
      ['4.1.3', 'GET /v2/pet/findByStatus', /upper-case/],
      // "find": the operation in the path, which the method states (spec 4.1.4, 1).
      ['4.1.4', 'GET /v2/pet/findByStatus', /`findByStatus` is a verb/],
      ['2.7', '#/paths/~1pet~1findByStatus/get/responses/200', /bare array/],
      ['4.1', 'GET /v2/pet/1', /answers 404, so none of its checks ran/],
      ['4.1', 'GET /v2/pet/findByStatus?status=available', /answers 404/],
      ['7.1.5', 'GET /v2/api-conventions-audit-missing', noErrorsList],
      ['5.1', 'OpenAPI securitySchemes', /api_key .*not OAuth 2\.0/],
      ['5.1', '--header api_key', /API key/],
    ]);
  });
});

describe('a Prism-like mock of the Petstore, with the servers it serves', () => {
  const state = auditOf(startPrismLike, (base) => ({
    openapi: `${base}/openapi-local.json`,
    headers: { api_key: 'special-key' },
    allowWrites: true,
  }));
  const perPath = (p: string): Violation[] => [
    ['9.1', `GET ${p}`, /version/],
    ['4.2', `OPTIONS ${p}`, /204 without Allow/],
    ['4.2', `PATCH ${p}`, /405 without Allow/],
    ['4.5', `GET ${p} (Accept:`, /expected 406/],
    ['7.1.5', `GET ${p.split('?')[0]!.toUpperCase()}`, noErrorsList],
    ['4.8', `GET ${p}`, /without X-Content-Type-Options: nosniff/],
    ['4.8', `GET ${p}`, securityHeaders],
    ['4.7', `GET ${p}`, /without Cache-Control/],
  ];
  it('reports each of its violations, and nothing else (spec 4.2, 4.7, 5.1, 5.6, 5.8, 7.1.5, 9.1)', () => {
    expectExactly(state.report, [
      ['4.1.4', '#/paths/~1pet~1{petId}', /plural/],
      ['9.1', '#/paths/~1pet~1{petId}', /version/],
      ['4.1.3', '#/paths/~1pet~1findByStatus', /upper-case/],
      ['9.1', '#/paths/~1pet~1findByStatus', /version/],
      ['2.7', '#/paths/~1pet~1findByStatus/get/responses/200', /bare array/],
      ['4.1.4', 'GET /pet/1', /plural/],
      ...perPath('/pet/1'),
      ...perPath('/pet/findByStatus?status=available'),
      ['4.1.3', 'GET /pet/findByStatus', /upper-case/],
      ['4.1.4', 'GET /pet/findByStatus', /`findByStatus` is a verb/],
      ['2.7', 'GET /pet/findByStatus?status=available', /bare array/],
      // The operation takes OAuth 2.0 too, yet challenges with api_key and takes any token.
      ['5.8', 'GET /pet/1 (no credentials)', /without a Bearer challenge/],
      ['5.6', 'GET /pet/1 (Authorization: Bearer malformed)', /answered 200 .*expected 401/],
      ['7.1.5', 'GET /api-conventions-audit-missing', noErrorsList],
      ['5.1', 'OpenAPI securitySchemes', /api_key .*not OAuth 2\.0/],
      ['5.1', '--header api_key', /API key/],
      ['7.1.5', 'GET /pet/{petId}', noErrorsList],
      // Prism refuses a value its schema forbids with 422; wrong parameters are a 400.
      ['7.1.4', 'GET /pet/api-conventions-audit', /422 .*wrong parameters are a 400/],
    ]);
  });
});
