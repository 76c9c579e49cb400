/**
 * Verdicts graded by the spec's wording, one finding per rule, method and path: only a required rule fails; a preferred rule or a pattern is a warning, counted on
 * its own and failing only with --strict; what the document and the live answers say of one
 * operation is one finding that says both; --only and --skip choose rules.
 */
import { audit } from 'api-conventions/audit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findDates } from '../../src/audit/checks/dates.ts';
import { checkPathShape } from '../../src/audit/checks/path-shape.ts';
import { resourceNameProblem } from '../../src/audit/checks/resource-names.ts';
import { main } from '../../src/audit/cli.ts';
import { mergeFindings } from '../../src/audit/merge.ts';
import { type Finding, Findings } from '../../src/audit/report.ts';
import { startNonConforming } from './_nonconforming.ts';
import { apiKey, startExpressUsual } from './apis/express-usual.ts';

const selection = { only: [], skip: [], strict: false };

describe('grading (spec 7.1.5 "a body pattern", 9.2 "the path is preferred")', () => {
  it('fails a required rule and warns on a pattern or a preferred rule', () => {
    const findings = new Findings(selection);
    findings.fail('4.1.3', 'GET /V1/BOOKS', '301 redirect', 301);
    findings.fail('7.1.5', 'GET /v1/x', 'no errors list', 404);
    findings.fail('9.1', 'GET /books', 'no version');
    expect(findings.list.map((f) => [f.rule, f.outcome, f.strength])).toEqual([
      ['4.1.3', 'fail', 'required'],
      ['7.1.5', 'warn', 'pattern'],
      ['9.1', 'warn', 'recommended'],
    ]);
  });

  it('fails every violation when strict', () => {
    const findings = new Findings({ ...selection, strict: true });
    findings.fail('7.1.5', 'GET /v1/x', 'no errors list', 404);
    expect(findings.list[0]).toMatchObject({ outcome: 'fail', strength: 'pattern' });
  });

  it('reports a request that got no answer as could not check, not as a violation', () => {
    const findings = new Findings(selection);
    findings.fail('7.2', 'POST /v1/books (an 8 MiB body)', 'no answer (EPIPE)', 0);
    expect(findings.list).toEqual([
      expect.objectContaining({ outcome: 'skip', detail: 'could not check: no answer (EPIPE)' }),
    ]);
  });
});

describe('one finding per rule, method and path', () => {
  const finding = (over: Partial<Finding>): Finding => ({
    rule: '2.7',
    outcome: 'fail',
    strength: 'required',
    request: 'GET /v1/users',
    detail: 'the body is a bare array of 2 items, not an object',
    method: 'GET',
    path: '/v1/users',
    ...over,
  });

  it('merges what the document and the live answer say, and says both', () => {
    const merged = mergeFindings([
      finding({
        request: 'openapi.json#/paths/~1v1~1users/get/responses/200',
        detail: 'the response schema is a bare array',
      }),
      finding({}),
      finding({ path: '/v1/books' }),
    ]);
    expect(merged).toEqual([
      expect.objectContaining({
        request: 'GET /v1/users',
        document: 'openapi.json#/paths/~1v1~1users/get/responses/200',
        detail:
          'document: the response schema is a bare array; live: the body is a bare array of 2 items, not an object',
      }),
      expect.objectContaining({ path: '/v1/books' }),
    ]);
  });

  it('keeps the worst outcome and the strongest strength of a merged key', () => {
    const [merged] = mergeFindings([
      finding({ outcome: 'pass', detail: 'fine' }),
      finding({ outcome: 'warn', strength: 'pattern', detail: 'a warning' }),
      finding({ detail: 'a failure' }),
    ]);
    expect(merged).toMatchObject({
      outcome: 'fail',
      strength: 'required',
      detail: 'a warning; a failure',
    });
  });
});

describe('an Express app with its document, audited live', () => {
  let app: Awaited<ReturnType<typeof startExpressUsual>>;
  beforeAll(async () => {
    app = await startExpressUsual();
  });
  afterAll(() => app.close());

  it('reports its bare-array list once, from the document and live (spec 2.7)', async () => {
    const report = await audit({
      baseUrl: app.base,
      openapi: `${app.base}/openapi.json`,
      headers: { 'X-API-Key': apiKey },
    });
    const lists = report.findings.filter((f) => f.rule === '2.7' && f.path === '/v1/users');
    expect(lists).toEqual([
      expect.objectContaining({
        outcome: 'fail',
        request: 'GET /v1/users',
        document: `${app.base}/openapi.json#/paths/~1v1~1users/get/responses/200`,
        detail: expect.stringMatching(/^document: .*bare array; live: .*bare array/),
      }),
    ]);
    // No two findings share a rule, method and path.
    const keys = report.findings
      .filter((f) => f.path !== undefined)
      .map((f) => `${f.rule} ${f.method} ${f.path}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('api-conventions audit --strict, --skip', () => {
  let server: Awaited<ReturnType<typeof startNonConforming>>;
  beforeAll(async () => {
    server = await startNonConforming();
  });
  afterAll(() => server.close());
  const run = async (argv: string[]) => {
    let out = '';
    const code = await main(['audit', server.base, ...argv], {
      out: (t) => {
        out += t;
      },
      err: () => undefined,
      isTTY: false,
      env: {},
    });
    return { code, out };
  };

  it('exits 0 on warnings alone, and 1 with --strict (spec 9.2: the path is preferred)', async () => {
    const lenient = await run(['--path', '/books', '--only', '9.1']);
    expect(lenient.code).toBe(0);
    expect(lenient.out).toMatch(/^ {2}WARN 9\.1 +GET \/books \(recommended\)$/m);
    expect(lenient.out).toMatch(/^0 passed, 0 failed, 1 warnings, 0 skipped/m);
    const strict = await run(['--path', '/books', '--only', '9.1', '--strict']);
    expect(strict.code).toBe(1);
    expect(strict.out).toMatch(/^ {2}FAIL 9\.1 +GET \/books \(recommended\)$/m);
  });

  it('leaves out the rules --skip names', async () => {
    const { out } = await run(['--path', '/v1/books', '--skip', '4,7.1.5', '--format', 'json']);
    const rules = (JSON.parse(out) as { findings: Finding[] }).findings.map((f) => f.rule);
    expect(rules.length).toBeGreaterThan(5);
    expect(rules.filter((r) => r.startsWith('4.') || r === '7.1.5')).toEqual([]);
  });
});

describe('the two false failures measured on outside APIs', () => {
  it('takes no URL in a date-named field for a date (spec 2.6, GitHub GET /emojis)', () => {
    const emojis = {
      date: 'https://github.githubassets.com/images/icons/emoji/unicode/1f4c5.png?v8',
    };
    expect(findDates(emojis)).toEqual([]);
    expect(findDates({ date: '11/23/2026' })).toEqual([
      { where: 'date', value: '11/23/2026', ok: false },
    ]);
  });

  it('asks no plural of a protocol that groups operations (spec 4.1.4, /auth/oauth/{provider})', () => {
    const findings = new Findings(selection);
    checkPathShape(findings, '/auth/oauth/{provider}', 'GET /auth/oauth/{provider}');
    checkPathShape(findings, '/v1/order/{id}', 'GET /v1/order/{id}');
    const plural = findings.list.filter((f) => f.rule === '4.1.4');
    expect(plural.map((f) => [f.request, f.outcome])).toEqual([
      ['GET /auth/oauth/{provider}', 'pass'],
      ['GET /v1/order/{id}', 'fail'],
    ]);
  });
});

describe('resource names: singular nouns and verbs (spec 4.1.4, 1)', () => {
  it.each([
    ['/user', /`user` names a resource in the singular/],
    ['/meta', /`meta` names a resource in the singular/],
    ['/rate_limit', /`rate_limit` names a resource in the singular/],
    ['/auth/login', /`login` is a verb/],
    ['/users/invite', /`invite` is a verb/],
    ['/utils/cache/clear', /`clear` is a verb/],
    ['/v1/books/{id}/cover', /`cover` names a resource in the singular/],
  ])('reports %s', (path, message) => {
    expect(resourceNameProblem(path)).toMatch(message);
  });

  it.each([
    '/v1/books',
    '/v1/books/{id}',
    '/v1/books/emma',
    '/v1/me',
    '/v1/openapi',
    '/settings',
    '/user/repos',
    '/gists/public',
    '/v1/oauth2/token',
    '/.well-known/oauth-authorization-server',
    '/v1/books.json',
  ])('passes %s', (path) => {
    expect(resourceNameProblem(path)).toBeUndefined();
  });
});
