/**
 * One logger: every line the library logs goes through the `logger` of `conventions()`, which
 * each plugin gets at set-up; a plugin's own `logger` option still overrides it. Issue 33, item 5.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  accessChecks,
  bearer,
  conventions,
  createJobs,
  createTokenKeys,
  payloads,
} from '../../src/index.ts';
import { sourceFiles } from './_source-files.ts';

/** A logger of pino's shape that keeps what it is told. */
function collecting() {
  const warnings: string[] = [];
  const errors: { record: unknown; message: string }[] = [];
  const logger = {
    error: (record: unknown, message: string) => errors.push({ record, message }),
    warn: (message: string) => warnings.push(message),
  };
  return { warnings, errors, logger };
}

const issuer = 'https://auth.example.com';
const audience = 'https://api.example.com';
const routes = { '/v1/books': { GET: () => ({ books: [] }) } };
const get = (headers: Record<string, string> = {}) => ({
  method: 'GET',
  url: '/v1/books',
  headers: new Headers(headers),
});

describe("the service's logger", () => {
  // Regression: bearer logged refusals to a console of its own, so
  // conventions({ logger: pino }) missed them.
  it("receives bearer's refusal lines", async () => {
    const { warnings, logger } = collecting();
    const keys = await createTokenKeys({ logger: { error() {}, warn() {} } });
    const api = conventions({
      lint: 'off',
      logger,
      routes,
      plugins: [bearer({ keys, issuer, audience, logRefusals: true })],
    });
    const refused = await api.handle(get({ authorization: 'Bearer not.a.token' }));
    expect(refused.status).toBe(401);
    expect(warnings).toEqual([expect.stringMatching(/^bearer: access token refused: /)]);
  });

  it('receives the development-key warning of the keys bearer verifies with', async () => {
    const { warnings, logger } = collecting();
    const keys = await createTokenKeys();
    conventions({
      lint: 'off',
      logger,
      routes,
      plugins: [bearer({ keys, issuer, audience, logRefusals: false })],
    });
    expect(warnings).toEqual([expect.stringMatching(/DEVELOPMENT TOKEN KEY/)]);
  });

  it("receives access checks' start-up warnings", () => {
    const { warnings, logger } = collecting();
    conventions({ lint: 'off', logger, routes, plugins: [accessChecks()] });
    expect(warnings).toEqual([expect.stringMatching(/GET \/v1\/books" has no access check/)]);
  });

  it("receives the payload checker's warnings", async () => {
    const { warnings, logger } = collecting();
    const api = conventions({
      lint: 'off',
      logger,
      routes: { '/v1/books/:id': { GET: () => ({ first_name: 'a', lastName: 'b' }) } },
      plugins: [payloads({ checkPayloads: true })],
    });
    await api.handle({ method: 'GET', url: '/v1/books/a', headers: new Headers() });
    expect(warnings).toEqual([expect.stringMatching(/^payload check: GET \/v1\/books\/:id: /)]);
  });

  it("receives the faults of jobs' work", async () => {
    const { errors, logger } = collecting();
    const jobs = createJobs({ path: '/v1/runs' });
    const fault = new Error('the work broke');
    const api = conventions({
      lint: 'off',
      logger,
      routes: { '/v1/runs': { POST: () => jobs.start(() => Promise.reject(fault)) } },
      plugins: [jobs],
    });
    const started = await api.handle({ method: 'POST', url: '/v1/runs', headers: new Headers() });
    expect(started.status).toBe(202);
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(errors).toEqual([{ record: { err: fault, path: '/v1/runs' }, message: 'a job failed' }]);
  });
});

describe('the console', () => {
  const src = new URL('../../src/', import.meta.url).pathname;
  /** The code of a module without its comments (doc comments hold examples that use the console). */
  const code = (text: string) =>
    text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');

  it('is used by no module but the default logger (src/core/errors/logger.ts)', () => {
    const users = sourceFiles(src)
      .filter((file) => /\bconsole\b/.test(code(readFileSync(file, 'utf8'))))
      .map((file) => relative(src, file));
    expect(users).toEqual(['core/errors/logger.ts']);
  });
});
