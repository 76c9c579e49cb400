import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { sharedSuites } from './scripts/suites.mjs';

// The suites the first group runs, read once.
const shared = sharedSuites();
const src = (p: string) => fileURLToPath(new URL(`./src/${p}`, import.meta.url));
// NestJS 10, in a folder of its own beside the NestJS 11 of the other tests (its packages
// require each other by their own names, which NestJS 11 holds at the top level).
const nest10 = fileURLToPath(new URL('./test/nest10/node_modules/@nestjs/', import.meta.url));

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
        // The Nest conformance on NestJS 10 (platform-express): the app's and the library's
        // imports of Nest's packages are NestJS 10's.
        extends: true,
        resolve: {
          alias: [
            {
              find: /^@nestjs\/(common|core|platform-express)$/,
              replacement: `${nest10}$1/index.js`,
            },
            {
              find: /^@nestjs\/(common|core|platform-express)\/package\.json$/,
              replacement: `${nest10}$1/package.json`,
            },
          ],
        },
        test: {
          name: 'nest10',
          include: ['test/conformance/nest.test.ts', 'test/conformance/fail-closed-nest.test.ts'],
          env: { API_CONVENTIONS_NEST: '10' },
          maxWorkers: 1,
          sequence: { groupOrder: 2 },
        },
      },
    ],
  },
});
