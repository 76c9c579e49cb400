import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const subpaths = ['index', 'node', 'express', 'fastify', 'fetch'] as const;

async function namesOf(file: string): Promise<string[]> {
  const module = await import(
    /* @vite-ignore */ new URL(`../../dist/${file}`, import.meta.url).href
  );
  return Object.keys(module).sort();
}

describe('package surface', () => {
  it.each(subpaths)('exports the same names from ESM and CJS builds of %s', async (name) => {
    const esm = await namesOf(`${name}.mjs`);
    const cjs = Object.keys(require(`../../dist/${name}.cjs`)).sort();
    expect(cjs).toEqual(esm);
  });

  it('keeps the export names of every subpath', async () => {
    const surface: Record<string, string[]> = {};
    for (const name of subpaths) surface[name] = await namesOf(`${name}.mjs`);
    expect(surface).toMatchSnapshot();
  });
});
