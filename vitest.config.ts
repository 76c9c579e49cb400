import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

const src = (p: string) => fileURLToPath(new URL(`./src/${p}`, import.meta.url));

export default defineConfig({
  resolve: {
    alias: [
      { find: /^#core$/, replacement: src('core/index.ts') },
      { find: /^api-conventions\/host$/, replacement: src('host.ts') },
      { find: /^api-conventions\/redis$/, replacement: src('redis.ts') },
      { find: /^api-conventions\/oauth$/, replacement: src('oauth.ts') },
      { find: /^api-conventions\/audit$/, replacement: src('audit/index.ts') },
      { find: /^api-conventions\/spectral$/, replacement: src('spectral/index.ts') },
      { find: /^api-conventions\/otel$/, replacement: src('otel.ts') },
      { find: /^api-conventions\/client$/, replacement: src('client.ts') },
      { find: /^api-conventions\/(.+)$/, replacement: src('adapters/$1.ts') },
      { find: /^api-conventions$/, replacement: src('index.ts') },
    ],
  },
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
