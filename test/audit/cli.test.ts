/** The `api-conventions audit` command in process: exit status 0, 1 and 2, the JSON and text formats, colour only on a terminal. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/audit/cli.ts';
import { startNonConforming } from './_nonconforming.ts';

let server: Awaited<ReturnType<typeof startNonConforming>>;
beforeAll(async () => {
  server = await startNonConforming();
});
afterAll(() => server.close());

async function run(argv: string[], { isTTY = false, env = {} as Record<string, string> } = {}) {
  let out = '';
  let err = '';
  const code = await main(argv, {
    out: (text) => {
      out += text;
    },
    err: (text) => {
      err += text;
    },
    isTTY,
    env,
  });
  return { code, out, err };
}

describe('api-conventions audit', () => {
  it('exits 1 when a check fails and prints one JSON object in the documented shape', async () => {
    const { code, out } = await run([
      'audit',
      server.base,
      '--path',
      '/v1/authors',
      '--format',
      'json',
    ]);
    expect(code).toBe(1);
    const report = JSON.parse(out) as { findings: Record<string, unknown>[] };
    expect(Object.keys(report)).toEqual(['findings']);
    for (const finding of report.findings) {
      // A violation also says how to fix it.
      const keys = ['rule', 'outcome', 'strength', 'request', 'detail'];
      expect(Object.keys(finding).slice(0, 5)).toEqual(keys);
      const optional = ['method', 'path', 'document', 'fix'];
      expect(
        Object.keys(finding)
          .slice(5)
          .every((k) => optional.includes(k)),
      ).toBe(true);
      expect('fix' in finding).toBe(finding.outcome === 'fail' || finding.outcome === 'warn');
      expect(finding.rule).toMatch(/^\d+(\.\d+)*$/);
      expect(['pass', 'fail', 'warn', 'skip']).toContain(finding.outcome);
      expect(['required', 'recommended', 'pattern']).toContain(finding.strength);
    }
    expect(report.findings).toContainEqual({
      rule: '4.1.3',
      outcome: 'fail',
      strength: 'required',
      request: 'GET /V1/AUTHORS',
      detail: '301 redirect to /v1/authors',
      method: 'GET',
      path: '/v1/authors',
      fix: 'Use lower-case paths, and answer an upper-case one with 404, not a redirect.',
    });
  });

  it('exits 0 when no check fails (--only selects the rules)', async () => {
    const { code, out } = await run([
      'audit',
      `${server.base}/v1/authors`,
      '--only',
      '9.1,4.1.2',
      '--format',
      'json',
    ]);
    expect(code).toBe(0);
    const rules = (JSON.parse(out) as { findings: { rule: string }[] }).findings.map((f) => f.rule);
    expect(rules.sort()).toEqual(['4.1.2', '9.1']);
  });

  it('prints failures and skips grouped by section, with evidence and a summary, and no colour off a terminal', async () => {
    const { out } = await run([
      'audit',
      server.base,
      '--path',
      '/v1/authors',
      '--header',
      'Authorization: Bearer x',
    ]);
    expect(out).toMatch(/^4\.1 Paths$/m);
    expect(out).toMatch(/^2 Fields and payloads$/m);
    expect(out).toMatch(/^ {2}FAIL 4\.1\.3 +GET \/V1\/AUTHORS → 301 \(required\)$/m);
    expect(out).toContain('Location: /v1/authors');
    expect(out).not.toMatch(/^ {2}PASS /m);
    expect(out).toMatch(/^\d+ passed, \d+ failed, \d+ warnings, \d+ skipped \(\d+ requests\)$/m);
    expect(out).not.toContain('\u001b[');
    const all = await run(['audit', server.base, '--path', '/v1/authors', '--all']);
    expect(all.out).toMatch(/^ {2}PASS /m);
  });

  it('colours the text on a terminal, unless NO_COLOR is set', async () => {
    const argv = ['audit', server.base, '--path', '/v1/authors', '--only', '4.1'];
    expect((await run(argv, { isTTY: true })).out).toContain('\u001b[31mFAIL\u001b[0m');
    expect((await run(argv, { isTTY: true, env: { NO_COLOR: '1' } })).out).not.toContain('\u001b[');
  });

  it.each([
    [[], /no command given/],
    [['audit'], /give the base URL/],
    [['lint', 'http://x'], /unknown command "lint"/],
    [['audit', 'http://x', '--nope'], /Unknown option '--nope'/],
    [['audit', 'http://x', '--format', 'xml'], /--format is text, json, junit, sarif, github/],
    [['audit', 'http://x', '--header', 'no-colon'], /--header takes 'Name: value'/],
    [['audit', 'http://x', '--max-requests', 'many'], /--max-requests takes a whole number/],
    [['audit', 'ftp://x', '--path', '/v1/a'], /baseUrl must be an http\(s\) URL/],
    [['audit', 'http://x'], /give paths to audit/],
    [['audit', 'http://x', '--path', 'v1/a'], /each path must start with "\/"/],
  ])('exits 2 on the usage error %j', async (argv, message) => {
    const { code, err } = await run(argv as string[]);
    expect(code).toBe(2);
    expect(err).toMatch(message);
  });

  it('exits 2 when the base URL does not answer', async () => {
    const closed = await startNonConforming();
    await closed.close();
    const { code, err } = await run(['audit', closed.base, '--path', '/v1/authors']);
    expect(code).toBe(2);
    expect(err).toMatch(/did not answer/);
  });

  it('exits 2 when the OpenAPI document cannot be read or is not JSON', async () => {
    expect((await run(['audit', server.base, '--openapi', '/nonexistent/openapi.json'])).code).toBe(
      2,
    );
    const notJson = await run(['audit', server.base, '--openapi', `${server.base}/v1/feed`]);
    expect(notJson.code).toBe(2);
    expect(notJson.err).toMatch(/not JSON/);
  });

  it('prints its usage with --help and exits 0', async () => {
    const { code, out } = await run(['--help']);
    expect(code).toBe(0);
    expect(out).toContain('Usage: api-conventions audit <base-url>');
  });
});
