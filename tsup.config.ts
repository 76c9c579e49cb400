import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    node: 'src/adapters/node.ts',
    express: 'src/adapters/express.ts',
    fastify: 'src/adapters/fastify.ts',
    fetch: 'src/adapters/fetch.ts',
    koa: 'src/adapters/koa.ts',
    nest: 'src/adapters/nest.ts',
    host: 'src/host.ts',
    oauth: 'src/oauth.ts',
    redis: 'src/redis.ts',
    audit: 'src/audit/index.ts',
    lint: 'src/lint.ts',
    // A Spectral ruleset: plain functions, no Spectral import (the user's Spectral runs them).
    spectral: 'src/spectral/index.ts',
    // Loads @opentelemetry/api (an optional peer dependency, so external) and nothing else.
    otel: 'src/otel.ts',
    // Depends on nothing but fetch and jose's base64url (PKCE): it imports only types from the core.
    client: 'src/client.ts',
    // The `api-conventions` command (package.json "bin"), not a subpath.
    bin: 'src/bin.ts',
    // The one copy of the core that every subpath re-exports or imports (package.json "imports").
    core: 'src/core/index.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: false,
  target: 'node20',
  platform: 'node',
  splitting: false,
  treeshake: true,
  // Entries and adapters import the core through `#core` (package.json "imports", private to the
  // package) and the root by the package's own name, so every subpath shares one copy of the core
  // (one ApiError class, one Conventions class) instead of bundling its own.
  external: ['#core', 'api-conventions', 'api-conventions/host', 'api-conventions/lint'],
  outExtension: ({ format }) =>
    format === 'cjs' ? { js: '.cjs', dts: '.d.cts' } : { js: '.mjs', dts: '.d.mts' },
});
