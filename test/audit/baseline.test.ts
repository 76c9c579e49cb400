/**
 * Baselines: `--baseline FILE` writes today's violations when the file is
 * absent and fails nothing; later runs fail only on violations not in it, and list those gone.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/audit/cli.ts';
import type { Finding } from '../../src/audit/report.ts';
import { startNonConforming } from './_nonconforming.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));
let server: Awaited<ReturnType<typeof startNonConforming>>;
let file: string;
beforeAll(async () => {
  server = await startNonConforming();
  mkdirSync(join(root, '.test-tmp'), { recursive: true });
  file = join(mkdtempSync(join(root, '.test-tmp', 'baseline-')), 'baseline.json');
});
afterAll(() => server.close());

async function audit(...extra: string[]) {
  let out = '';
  let err = '';
  const code = await main(
    [
      'audit',
      server.base,
      '--path',
      '/v1/books',
      '--path',
      '/v1/authors',
      '--baseline',
      file,
      ...extra,
    ],
    { out: (t) => (out += t), err: (t) => (err += t), isTTY: false, env: {} },
  );
  return { code, out, err };
}

describe('api-conventions audit --baseline', () => {
  it('writes the baseline when it is absent, and fails nothing', async () => {
    const { code, err } = await audit('--format', 'json');
    expect(code).toBe(0);
    expect(err).toContain(`wrote the baseline ${file}`);
    const baseline = JSON.parse(readFileSync(file, 'utf8')) as {
      version: number;
      findings: Finding[];
    };
    expect(baseline.version).toBe(1);
    expect(baseline.findings).toContainEqual(
      expect.objectContaining({ rule: '4.1.3', method: 'GET', path: '/v1/books', outcome: 'fail' }),
    );
    expect(baseline.findings.every((f) => f.outcome === 'fail' || f.outcome === 'warn')).toBe(true);
  });

  it('fails nothing the baseline holds', async () => {
    const { code, out } = await audit();
    expect(code).toBe(0);
    expect(out).toMatch(/^ {2}FAIL 4\.1\.3 +GET \/V1\/BOOKS → 301 \(required, in the baseline\)$/m);
    expect(out).toMatch(/baseline: \d+ known, 0 gone\)$/m);
  });

  it('fails on a violation the baseline does not hold, and lists the ones gone', async () => {
    const baseline = JSON.parse(readFileSync(file, 'utf8')) as { findings: Finding[] };
    baseline.findings = baseline.findings.filter(
      (f) => !(f.rule === '4.1.3' && f.path === '/v1/books'),
    );
    baseline.findings.push({ ...baseline.findings[0]!, rule: '4.9', path: '/v1/oauth2/token' });
    writeFileSync(file, JSON.stringify(baseline));
    const { code, out } = await audit('--format', 'json');
    expect(code).toBe(1);
    const report = JSON.parse(out) as { findings: Finding[]; gone: Finding[] };
    const upper = report.findings.find(
      (f) => f.rule === '4.1.3' && f.method === 'GET' && f.path === '/v1/books',
    );
    expect(upper).toMatchObject({ outcome: 'fail' });
    expect(upper?.baselined).toBeUndefined();
    expect(report.findings.filter((f) => f.baselined).length).toBeGreaterThan(5);
    expect(report.gone).toEqual([
      expect.objectContaining({ rule: '4.9', path: '/v1/oauth2/token' }),
    ]);
  });

  it('exits 2 on a file that is no baseline', async () => {
    writeFileSync(file, '{"findings": 3}');
    const { code, err } = await audit();
    expect(code).toBe(2);
    expect(err).toMatch(/is not an api-conventions baseline/);
  });
});
