import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));
let project: string;

// A throw-away project whose node_modules/api-conventions points at this package, so Node
// resolves it through package.json "exports" exactly as it would once installed.
beforeAll(() => {
  project = mkdtempSync(join(tmpdir(), 'api-conventions-consumer-'));
  mkdirSync(join(project, 'node_modules'));
  symlinkSync(root, join(project, 'node_modules', 'api-conventions'), 'dir');
  cpSync(fileURLToPath(new URL('./consumer', import.meta.url)), project, { recursive: true });
  // The consumers import the frameworks, pino and http-errors themselves, and the optional peer
  // dependency of api-conventions/otel; link the repository's.
  const linked = [
    'fastify',
    'express',
    'hono',
    'pino',
    'http-errors',
    '@opentelemetry/api',
    '@hono/node-server',
    '@nestjs/common',
    '@nestjs/core',
    'reflect-metadata',
  ];
  for (const name of linked) {
    const link = join(project, 'node_modules', name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(root, 'node_modules', name), link, 'dir');
  }
  cpSync(fileURLToPath(new URL('./consumer-types', import.meta.url)), join(project, 'types'), {
    recursive: true,
  });
});

afterAll(() => {
  rmSync(project, { recursive: true, force: true });
});

function run(file: string): Record<string, unknown> {
  const out = execFileSync(process.execPath, [file], {
    cwd: project,
    encoding: 'utf8',
    timeout: 15_000,
  });
  return JSON.parse(out.trim().split('\n').at(-1)!);
}

/** Type-checks a consumer project in types/ with the project's TypeScript; returns its diagnostics. */
function typecheck(tsconfig = 'types'): string {
  const tsc = join(root, 'node_modules', 'typescript', 'bin', 'tsc');
  try {
    execFileSync(process.execPath, [tsc, '-p', tsconfig, '--pretty', 'false'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 60_000,
    });
    return '';
  } catch (error) {
    return String((error as { stdout?: string }).stdout || error);
  }
}

describe('consumers of the built package', () => {
  it('keeps http-errors statuses and headers and logs 5xx through pino on every host', () => {
    const quota = [429, '7', { message: 'Slow down, please.', code: 42900 }];
    const secret = [503, false];
    const answers = { quota, secret };
    const result = run('ecosystem.mjs');
    expect(result).toMatchObject({
      node: answers,
      express: answers,
      fastify: answers,
      fetch: answers,
    });
    // One fault per host: the 503, logged with pino's err (message and stack), never the 429.
    expect(result.logged).toEqual(
      Array.from({ length: 4 }, () => [
        'GET /v1/secrets failed',
        'database password is hunter2',
        'string',
      ]),
    );
  });

  // What every subpath gives, each used for its purpose.
  const served = {
    fetchStatus: 200,
    fetchBody: { books: [], hasNext: false },
    isApiError: true,
    express: ['after', 'before', 'guard', 'mount', 'route'],
    fastifyStatus: 200,
    host: true,
    oauth: ['function', true, 'sha256'],
    redis: ['function', 'function'],
    audit: ['function', 'function'],
    // An upper-case path is an error, a clean one no finding; a list under a singular name one.
    lint: [true, [], 1],
    clientErrors: ['function', 65536],
    otel: ['function', 200, 'r-1'],
    client: [false, 404, true, 40401],
  };

  it('imports every subpath from ESM and serves a request', () => {
    expect(run('esm.mjs')).toEqual({ ...served, nodeStatus: 404 });
  });

  it('requires every subpath from CommonJS and serves a request', () => {
    expect(run('cjs.cjs')).toEqual({ ...served, node: 'function' });
  });

  // NestJS 12 is ES modules only: a CommonJS app, and the CommonJS build of api-conventions/nest,
  // load it with require().
  const nestServed = {
    nest: '12',
    status: [200, { ok: true }],
    secret: [401, 'Bearer realm="api"'],
    missing: [404, 40401],
  };

  it('serves a Nest app on NestJS 12 from CommonJS, through require() of its ES modules', () => {
    expect(run('nest.cjs')).toEqual(nestServed);
  });

  it('serves a Nest app on NestJS 12 from ESM', () => {
    expect(run('nest.mjs')).toEqual(nestServed);
  });

  // fastify.d.mts and fastify.d.cts each declared Fastify's config.conventions with their own
  // RouteConfig; once a project extended RouteConfig the two differed: TS2717 with skipLibCheck
  // off, and with it on an extension made in one module system unseen from the other.
  it('type-checks every subpath, and Fastify route settings in a project mixing .mts and .cts that extends RouteConfig', () => {
    expect(typecheck()).toBe('');
  }, 60_000);

  // Each feature adds its route settings to RouteConfig beside its own code, by declaration
  // merging; the declaration bundle must keep every one of them, in the ESM and the CJS types,
  // and a service must be able to add its own the same way.
  it('types every feature route setting and request field, and a service’s own, on RouteConfig from ESM and CJS', () => {
    expect(typecheck('types/tsconfig.settings.json')).toBe('');
  }, 60_000);
});
