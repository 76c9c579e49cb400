import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { sharedSuites } from './scripts/suites.mjs';

// The suites the first group runs, read once.
const shared = sharedSuites();
// The suites that run again on each older NestJS.
const nestSuites = ['test/conformance/nest.test.ts', 'test/conformance/fail-closed-nest.test.ts'];
const src = (p: string) => fileURLToPath(new URL(`./src/${p}`, import.meta.url));

/**
 * The aliases that make a test project's imports of Nest's packages (the app's and the library's)
 * those of an older NestJS, in a folder of its own beside the NestJS 12 of the other tests: its
 * packages require each other by their own names, which NestJS 12 holds at the top level.
 */
function olderNest(folder: string, names: readonly string[]) {
  const base = new URL(`./test/${folder}/`, import.meta.url);
  const resolve = createRequire(base).resolve;
  return names.flatMap((name) => [
    { find: new RegExp(`^@nestjs/${name}$`), replacement: resolve(`@nestjs/${name}`) },
    {
      find: new RegExp(`^@nestjs/${name}/package\\.json$`),
      replacement: fileURLToPath(new URL(`node_modules/@nestjs/${name}/package.json`, base)),
    },
  ]);
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
      {
        // The Nest conformance on NestJS 11 (platform-express and platform-fastify).
        extends: true,
        resolve: {
          alias: olderNest('nest11', [
            'common',
            'core',
            'platform-express',
            'platform-fastify',
            'swagger',
          ]),
        },
        test: {
          name: 'nest11',
          include: nestSuites,
          env: { API_CONVENTIONS_NEST: '11' },
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
      {
        // The Nest conformance on NestJS 10 (platform-express: its Fastify platform is built on
        // Fastify 4).
        extends: true,
        resolve: { alias: olderNest('nest10', ['common', 'core', 'platform-express', 'swagger']) },
        test: {
          name: 'nest10',
          include: nestSuites,
          env: { API_CONVENTIONS_NEST: '10' },
          maxWorkers: 1,
          sequence: { groupOrder: 3 },
        },
      },
    ],
  },
});
