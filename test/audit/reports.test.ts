/**
 * Reports CI systems read: SARIF 2.1.0 valid against the official schema
 * (OASIS, vendored in test/audit/sarif), JUnit XML read by a JUnit parser (junit2json), GitHub
 * Actions annotations; each failure names its fix, and the plugin to add where the service is
 * built with this library.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Ajv from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import { conventions, listOf } from 'api-conventions';
import {
  type AuditReport,
  audit,
  formatGithub,
  formatJunit,
  formatSarif,
} from 'api-conventions/audit';
import { toNodeHandler } from 'api-conventions/node';
import { parse as parseJunit, type TestSuites } from 'junit2json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/audit/cli.ts';
import { isViolation } from '../../src/audit/report.ts';
import { startHostile } from './_hostile.ts';
import { plantedPaths, startNonConforming } from './_nonconforming.ts';

const schema = JSON.parse(
  readFileSync(new URL('./sarif/sarif-schema-2.1.0.json', import.meta.url), 'utf8'),
) as object;

let server: Awaited<ReturnType<typeof startNonConforming>>;
let report: AuditReport;
const failures = () => report.findings.filter((f) => f.outcome === 'fail');
const violations = () => report.findings.filter(isViolation);

beforeAll(async () => {
  server = await startNonConforming();
  report = await audit({
    baseUrl: server.base,
    paths: [...plantedPaths],
    openapi: `${server.base}/openapi.json`,
    origin: 'https://app.example.com',
    allowWrites: true,
  });
});
afterAll(() => server.close());

describe('SARIF (OASIS SARIF 2.1.0)', () => {
  it('validates against the SARIF 2.1.0 JSON schema, one result per violation (SARIF §3.27)', () => {
    const ajv = new Ajv.default({ allErrors: true, strict: false });
    addFormats.default(ajv);
    const validate = ajv.compile(schema);
    const sarif = JSON.parse(formatSarif(report)) as {
      runs: {
        tool: { driver: { rules: { id: string; help: { text: string } }[] } };
        results: {
          ruleId: string;
          ruleIndex: number;
          level: string;
          locations: { physicalLocation?: { artifactLocation: { uri: string } } }[];
        }[];
      }[];
    };
    expect(validate(sarif), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    const [run] = sarif.runs;
    expect(run!.results).toHaveLength(violations().length);
    expect(failures().length).toBeGreaterThan(20);
    // A failure is an error, a warning (a preferred rule or a pattern) a warning.
    expect(run!.results.filter((r) => r.level === 'error')).toHaveLength(failures().length);
    expect(run!.results.filter((r) => r.level === 'warning').length).toBeGreaterThan(0);
    // Each result names its rule, described with the help that says how to fix it.
    for (const result of run!.results) {
      const rule = run!.tool.driver.rules[result.ruleIndex];
      expect(rule?.id).toBe(result.ruleId);
      expect(rule?.help.text.length).toBeGreaterThan(20);
    }
    // A static check points at the document, a live one at the URL it requested.
    const uris = run!.results.map((r) => r.locations[0]?.physicalLocation?.artifactLocation.uri);
    expect(uris).toContain(`${server.base}/openapi.json`);
    expect(uris).toContain(`${server.base}/V1/BOOKS`);
  });

  it("stays valid with a hostile server's text in it", async () => {
    const hostile = await startHostile('127.0.0.1:9', 'dot-slash');
    try {
      const hostileReport = await audit({ baseUrl: hostile.base, paths: ['/v1/victims'] });
      const ajv = new Ajv.default({ strict: false });
      addFormats.default(ajv);
      expect(ajv.validate(schema, JSON.parse(formatSarif(hostileReport)))).toBe(true);
      // biome-ignore lint/suspicious/noControlCharactersInRegex: no raw control character may remain
      expect(formatSarif(hostileReport)).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    } finally {
      await hostile.close();
    }
  });
});

describe('JUnit XML', () => {
  it('is read by a JUnit parser: a suite per section, a test case per finding, failures with their fix', async () => {
    const parsed = (await parseJunit(formatJunit(report))) as TestSuites;
    const skipped = report.findings.filter((f) => f.outcome === 'skip').length;
    expect(parsed.tests).toBe(report.findings.length);
    expect(parsed.failures).toBe(failures().length);
    const suites = parsed.testsuite ?? [];
    expect(suites.map((s) => s.name)).toContain('4.1 Paths');
    const cases = suites.flatMap((s) => s.testcase ?? []);
    expect(cases).toHaveLength(report.findings.length);
    expect(cases.filter((c) => c.skipped).length).toBe(skipped);
    const redirect = cases.find((c) => c.name === '4.1.3 GET /V1/BOOKS');
    expect(redirect?.failure?.[0]?.message).toBe('301 redirect to /v1/books');
    expect(redirect?.failure?.[0]?.inner).toMatch(/Fix: Use lower-case paths/);
  });
});

describe('GitHub Actions annotations', () => {
  it('writes one ::error per failure, escaped as workflow commands require, and a summary notice', () => {
    const lines = formatGithub(report).trimEnd().split('\n');
    const errors = lines.filter((l) => l.startsWith('::error '));
    expect(errors).toHaveLength(failures().length);
    expect(lines.at(-1)).toMatch(/^::notice title=api-conventions audit::\d+ passed, \d+ failed/);
    // Properties never carry a raw ':' or ',' that would end them early.
    for (const line of errors) {
      const [, properties] = /^::error (.*?)::/.exec(line) ?? [];
      expect(properties?.split(',').every((p) => /^(file|title)=[^:,]*$/.test(p))).toBe(true);
    }
    expect(errors).toContainEqual(
      expect.stringMatching(
        /^::error title=api-conventions 4\.1\.3 Lower-case paths::GET \/V1\/BOOKS: 301 redirect/,
      ),
    );
  });
});

describe('the fix each failure names', () => {
  it("names the plugin to add where the service is built with this library (the README's smallest service)", async () => {
    const api = conventions({
      routes: {
        '/v1/books': {
          GET: () => listOf('books', [{ id: 'dune', title: 'Dune' }], { hasNext: false }),
        },
      },
    });
    const own = createServer(toNodeHandler(api));
    await new Promise<void>((resolve) => own.listen(0, '127.0.0.1', resolve));
    try {
      const base = `http://127.0.0.1:${(own.address() as AddressInfo).port}`;
      const result = await audit({ baseUrl: `${base}/v1/books` });
      const fixes = result.findings.filter(isViolation).map((f) => `${f.rule}: ${f.fix}`);
      expect(fixes).toContainEqual(
        expect.stringMatching(/^4\.8: .*With api-conventions: add the securityHeaders\(\) plugin/),
      );
      expect(fixes).toContainEqual(
        expect.stringMatching(/^4\.5: .*With api-conventions: add the negotiation\(\) plugin/),
      );
    } finally {
      own.closeAllConnections();
      await new Promise((resolve) => own.close(resolve));
    }
  });

  it('says how to fix it, without a plugin, for a service built otherwise', () => {
    const fix = violations().find((f) => f.rule === '4.8')?.fix;
    expect(fix).toMatch(/X-Frame-Options/);
    expect(fix).not.toMatch(/api-conventions/);
  });
});

describe('api-conventions audit --format', () => {
  it.each(['junit', 'sarif', 'github'])(
    'prints %s and exits 1 when a check fails',
    async (format) => {
      let out = '';
      const code = await main(['audit', `${server.base}/v1/authors`, '--format', format], {
        out: (t) => {
          out += t;
        },
        err: () => undefined,
        isTTY: false,
        env: {},
      });
      expect(code).toBe(1);
      if (format === 'sarif') expect(JSON.parse(out).version).toBe('2.1.0');
      if (format === 'junit') expect((await parseJunit(out))?.failures).toBeGreaterThan(0);
      if (format === 'github') expect(out).toMatch(/^::error /m);
    },
  );
});
