import { defineConfig } from 'tsup';

export default defineConfig({
  entry: {
    index: 'src/index.ts',
    node: 'src/adapters/node.ts',
    express: 'src/adapters/express.ts',
    fastify: 'src/adapters/fastify.ts',
    fetch: 'src/adapters/fetch.ts',
    host: 'src/host.ts',
  },
  format: ['esm', 'cjs'],
  dts: true,
  clean: true,
  sourcemap: false,
  target: 'node20',
  platform: 'node',
  splitting: false,
  treeshake: true,
  // The adapters import the core by the package's own name, so every subpath shares one copy of
  // it (one ApiError class, one Conventions class) instead of bundling its own.
  external: ['api-conventions'],
  outExtension: ({ format }) =>
    format === 'cjs' ? { js: '.cjs', dts: '.d.cts' } : { js: '.mjs', dts: '.d.mts' },
});
