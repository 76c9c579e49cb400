import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { sharedSuites } from './scripts/suites.mjs';

// The suites the first group runs, read once.
const shared = sharedSuites();
const src = (p: string) => fileURLToPath(new URL(`./src/${p}`, import.meta.url));

/**
 * A test project that runs the Nest conformance (`nest.test.ts`, `fail-closed-nest.test.ts`) on an
 * older NestJS (`major`), whose packages live in `test/nest<major>` beside the NestJS 12 of the
 * other tests: aliases make the app's and the library's imports of Nest's packages `names` those of
 * that folder, whose packages require each other by their own names.
 */
function olderNest(
  major: number,
  names: readonly string[],
  groupOrder: number,
): TestProjectInlineConfiguration {
  const base = new URL(`./test/nest${major}/`, import.meta.url);
  const require = createRequire(base);
  // Where npm ci has not installed the folder yet, only this project's files fail (to import).
  const entry = (name: string) => {
    try {
      return require.resolve(name);
    } catch {
      return fileURLToPath(new URL(`node_modules/${name}`, base));
    }
  };
  const alias = names.flatMap((name) => [
    { find: new RegExp(`^@nestjs/${name}$`), replacement: entry(`@nestjs/${name}`) },
    {
      find: new RegExp(`^@nestjs/${name}/package\\.json$`),
      replacement: fileURLToPath(new URL(`node_modules/@nestjs/${name}/package.json`, base)),
    },
  ]);
  return {
    extends: true,
    resolve: { alias },
    test: {
      name: `nest${major}`,
      include: ['test/conformance/nest.test.ts', 'test/conformance/fail-closed-nest.test.ts'],
      env: { API_CONVENTIONS_NEST: String(major) },
      maxWorkers: 1,
      sequence: { groupOrder },
    },
  };
}

export default defineConfig({
  resolve: {
    alias: [
      { find: /^#core$/, replacement: src('core/index.ts') },
      { find: /^api-conventions\/host$/, replacement: src('host.ts') },
      { find: /^api-conventions\/redis$/, replacement: src('redis.ts') },
      { find: /^api-conventions\/oauth$/, replacement: src('oauth.ts') },
      { find: /^api-conventions\/audit$/, replacement: src('audit/index.ts') },
      { find: /^api-conventions\/lint$/, replacement: src('lint.ts') },
      { find: /^api-conventions\/spectral$/, replacement: src('spectral/index.ts') },
      { find: /^api-conventions\/otel$/, replacement: src('otel.ts') },
      { find: /^api-conventions\/client$/, replacement: src('client.ts') },
      { find: /^api-conventions\/(.+)$/, replacement: src('adapters/$1.ts') },
      { find: /^api-conventions$/, replacement: src('index.ts') },
    ],
  },
  test: {
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Two groups, one after the other (CONTRIBUTING.md, "How the suite runs"). First the suites
    // that run on every Node line, two files at a time in two workers that each keep one module
    // graph (importing the library and the frameworks again for every file was most of their CPU
    // time). Then the rest, one file at a time, each in a module graph of its own: the suites with
    // time bounds (Redis under the store budget, lingering closes, real token lifetimes), other
    // runtimes and programs (Bun, Deno, workerd, Chromium, tsc, Prism, APM agents), and the files
    // that count the library's work.
    projects: [
      {
        extends: true,
        test: {
          name: 'shared',
          include: shared,
          isolate: false,
          maxWorkers: 2,
          sequence: { groupOrder: 0 },
        },
      },
      {
        extends: true,
        test: {
          name: 'isolated',
          include: ['test/**/*.test.ts'],
          exclude: shared,
          maxWorkers: 1,
          sequence: { groupOrder: 1 },
        },
      },
      // NestJS 11 on both platforms, @nestjs/swagger 11.
      olderNest(11, ['common', 'core', 'platform-express', 'platform-fastify', 'swagger'], 2),
      // NestJS 10 on platform-express (its Fastify platform is built on Fastify 4), @nestjs/swagger 8.
      olderNest(10, ['common', 'core', 'platform-express', 'swagger'], 3),
    ],
  },
});
