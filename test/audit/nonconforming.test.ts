/**
 * The auditor against a deliberately non-conforming Express app of the tests' own: each planted
 * violation is reported under the right section of the spec, as a failure where the
 * spec requires the rule and as a warning where it prefers it or gives a pattern.
 */
import { type AuditReport, audit } from 'api-conventions/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { plantedPaths, startNonConforming } from './_nonconforming.ts';

let server: Awaited<ReturnType<typeof startNonConforming>>;
let report: AuditReport;

beforeAll(async () => {
  server = await startNonConforming();
  report = await audit({
    baseUrl: server.base,
    paths: [...plantedPaths],
    openapi: `${server.base}/openapi.json`,
    headers: { Authorization: 'Bearer not-checked-here' },
    origin: 'https://app.example.com',
    allowWrites: true,
    client: { id: 'demo', secret: 'secret' },
  });
});
afterAll(() => server.close());

/**
 * The violations of `rule` whose request (or document place) contains `request` and whose
 * detail matches `detail`, each a failure when required and a warning otherwise.
 */
function failed(rule: string, request: string, detail: RegExp) {
  return report.findings.filter(
    (f) =>
      f.outcome === (f.strength === 'required' ? 'fail' : 'warn') &&
      f.rule === rule &&
      (f.request.includes(request) || f.document?.includes(request)) &&
      detail.test(f.detail),
  );
}

// [what was planted, rule, request, detail]
const planted: [string, string, string, RegExp][] = [
  [
    'a redirecting upper-case path (spec 4.1.3)',
    '4.1.3',
    'GET /V1/BOOKS',
    /^301 redirect to \/v1\/books$/,
  ],
  ['a served trailing-slash variant (spec 4.1.9)', '4.1.9', 'GET /v1/books/', /is served \(200\)/],
  ['underscores in a path (spec 4.1.6)', '4.1.6', 'GET /v1/book_list', /hyphen/],
  ['a singular collection (spec 4.1.4)', '4.1.4', 'GET /v1/order/1', /`order` names a collection/],
  ['a .php path (spec 4.1.2)', '4.1.2', 'GET /v1/index.php', /extension/],
  [
    'a space in a documented path (spec 4.1.5)',
    '4.1.5',
    '/openapi.json#/paths/~1v1~1my notes',
    /encoding/,
  ],
  ['no version segment (spec 9.1)', '9.1', 'GET /books', /version/],
  [
    'no 405 for a missing method (spec 4.2)',
    '4.2',
    'PATCH /v1/authors',
    /answered 404 text\/html .*expected 405/,
  ],
  ['OPTIONS without Allow (spec 4.2)', '4.2', 'OPTIONS /v1/search', /without Allow/],
  [
    'HEAD unlike GET (spec 4.2)',
    '4.2',
    'HEAD /v1/search',
    /HEAD answered 404 where GET answered 200/,
  ],
  ['a bare-array list (spec 2.7)', '2.7', 'GET /v1/authors', /bare array/],
  [
    'a documented bare-array list (spec 2.7)',
    '2.7',
    '/openapi.json#/paths/~1v1~1authors/get/responses/200',
    /bare array/,
  ],
  [
    'a paged list without hasNext (spec 2.8)',
    '2.8',
    'GET /v1/orders',
    // A total alone says nothing of more pages; the page number does.
    /paged list \(page\) with no flag/,
  ],
  [
    'non-RFC 3339 dates (spec 2.6)',
    '2.6',
    'GET /v1/books',
    /createdAt: "11\/23\/2026".*updatedAt: 1700000000/,
  ],
  [
    'a documented date that is an epoch number (spec 2.6)',
    '2.6',
    '/openapi.json#/paths/~1v1~1notes/get/responses/200',
    /createdAt \(integer\)/,
  ],
  ['a 200 hiding an error (spec 7.1.1)', '7.1.1', 'GET /v1/search', /error object/],
  [
    'HTML 404s (spec 7.1.5)',
    '7.1.5',
    'GET /v1/api-conventions-audit-missing',
    /text\/html, not JSON/,
  ],
  [
    'a documented error schema of its own (spec 7.1.5)',
    '7.1.5',
    '/openapi.json#/paths/~1v1~1authors/get/responses/404',
    /error schema/,
  ],
  [
    'no 406 (spec 4.5)',
    '4.5',
    'GET /v1/authors (Accept: application/x-api-conventions-audit)',
    /expected 406/,
  ],
  ['XML by default (spec 4.5)', '4.5', 'GET /v1/feed', /default format is application\/xml/],
  ['JSON sent as text/plain (spec 4.6)', '4.6', 'GET /v1/notes', /JSON body labelled text\/plain/],
  [
    'no 415 (spec 4.6)',
    '4.6',
    'POST /v1/notes (Content-Type: application/x-api-conventions-audit)',
    /expected 415/,
  ],
  [
    'an ETag that never yields 304 (spec 4.7)',
    '4.7',
    'GET /v1/books (If-None-Match: "v1")',
    /expected 304/,
  ],
  ['no Date (spec 4.7)', '4.7', 'GET /v1/notes', /without Date/],
  ['a directive outside the spec (spec 4.7)', '4.7', 'GET /v1/orders', /immutable/],
  ['no nosniff (spec 4.8)', '4.8', 'GET /v1/authors', /without X-Content-Type-Options: nosniff/],
  ['no security headers (spec 4.8)', '4.8', 'GET /v1/authors', /x-frame-options missing/],
  [
    'a preflight without CORS headers (spec 4.8)',
    '4.8',
    'OPTIONS /v1/authors (CORS preflight)',
    /Access-Control-Allow-Origin: \(absent\)/,
  ],
  [
    'a token for a client without credentials (spec 4.9)',
    '4.9',
    'POST /v1/oauth2/token (no client credentials)',
    /expected 401/,
  ],
  [
    'a Basic challenge (spec 5.8)',
    '5.8',
    'GET /v1/account (no credentials)',
    /without a Bearer challenge/,
  ],
  [
    '403 to an unknown caller (spec 5.8)',
    '5.8',
    'GET /v1/private (no credentials)',
    /403 to an unknown caller/,
  ],
  [
    'no invalid_token (spec 5.6)',
    '5.6',
    'GET /v1/account (Authorization: Bearer malformed)',
    /invalid_token/,
  ],
  [
    'Remaining above Limit (spec 8.3)',
    '8.3',
    'GET /v1/orders',
    /Remaining \(50\) is above Limit \(10\)/,
  ],
  [
    'a sunset a month after the deprecation (spec 9.8)',
    '9.8',
    'GET /v1/orders',
    /less than six months/,
  ],
  [
    'a 414 in plain text (spec 7.2)',
    '7.2',
    'api-conventions-audit=aaa',
    /414: the error body is text\/plain/,
  ],
  [
    'a 413 as an HTML page (spec 7.2)',
    '7.2',
    'POST /v1/notes (an 8 MiB body)',
    /413: the error body is text\/html/,
  ],
  ['a create answered 200 (spec 4.3)', '4.3', 'POST /v1/notes', /expected 201/],
  [
    'a token answer without token_type (spec 4.9)',
    '4.9',
    'POST /v1/oauth2/token',
    /token_type is undefined/,
  ],
];

describe('the auditor on a non-conforming service', () => {
  it.each(planted)('reports %s', (_what, rule, request, detail) => {
    expect(
      failed(rule, request, detail),
      JSON.stringify(report.findings.filter((f) => f.rule === rule && f.request.includes(request))),
    ).not.toEqual([]);
  });

  it('reports a 429 without Retry-After after a burst (spec 8.2)', async () => {
    const burst = await audit({
      baseUrl: `${server.base}/v1/limited`,
      allowBurst: true,
      only: ['8.2'],
    });
    expect(burst.findings).toEqual([
      // The 429 is required; Retry-After is one the spec says a 429 "may include".
      expect.objectContaining({
        rule: '8.2',
        outcome: 'warn',
        strength: 'pattern',
        status: 429,
        detail: '429 without Retry-After',
      }),
    ]);
  });

  it('reports nothing there as a pass that was planted as a failure', () => {
    const passes = report.findings.filter((f) => f.outcome === 'pass');
    for (const [, rule, request] of planted) {
      const exact = passes.filter((f) => f.rule === rule && f.request === request);
      expect(exact, `${rule} ${request}`).toEqual([]);
    }
  });
});
