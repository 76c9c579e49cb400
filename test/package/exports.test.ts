import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import tsup from '../../tsup.config.ts';

const require = createRequire(import.meta.url);
const readJson = (file: string) =>
  JSON.parse(readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8'));

// Every subpath of package.json "exports" but ./package.json, by its build name: `.` is index.
const subpaths = Object.keys(readJson('package.json').exports)
  .filter((key) => key !== './package.json')
  .map((key) => (key === '.' ? 'index' : key.slice(2)));

async function namesOf(file: string): Promise<string[]> {
  const module = await import(
    /* @vite-ignore */ new URL(`../../dist/${file}`, import.meta.url).href
  );
  return Object.keys(module).sort();
}

describe('package surface', () => {
  it('builds and documents every subpath of "exports", and nothing else', () => {
    // `core` is the private module behind `#core` ("imports") and `bin` the command ("bin"):
    // built, never subpaths.
    const { core, bin, ...entry } = (tsup as { entry: Record<string, string> }).entry;
    expect(core).toBe('src/core/index.ts');
    expect(bin).toBe('src/bin.ts');
    expect(readJson('package.json').bin['api-conventions']).toBe('./dist/bin.mjs');
    expect(readJson('package.json').imports['#core'].import.default).toBe('./dist/core.mjs');
    expect(Object.keys(entry).sort()).toEqual([...subpaths].sort());
    expect([...readJson('typedoc.json').entryPoints].sort()).toEqual(Object.values(entry).sort());
  });

  it.each(subpaths)('exports the same names from ESM and CJS builds of %s', async (name) => {
    const esm = await namesOf(`${name}.mjs`);
    const cjs = Object.keys(require(`../../dist/${name}.cjs`)).sort();
    expect(cjs).toEqual(esm);
  });

  // The root is what a service author learns first: test helpers, host seams, route lint and
  // the OAuth server live elsewhere.
  it('keeps the root entry to at most 50 runtime values', async () => {
    expect((await namesOf('index.mjs')).length).toBeLessThanOrEqual(50);
  });

  // api-conventions/host is for a host of one's own: the binding and what its steps take and
  // give, nothing an adapter of this package needs beside it (adapters import the core).
  it('keeps api-conventions/host to at most 30 names, types included', () => {
    const declared = readFileSync(new URL('../../dist/host.d.mts', import.meta.url), 'utf8');
    const names = /export \{([^}]*)\}/.exec(declared)?.[1]?.split(',') ?? [];
    expect(names.length).toBeGreaterThan(0);
    expect(names.length).toBeLessThanOrEqual(30);
  });

  it('keeps the export names of every subpath', async () => {
    const surface: Record<string, string[]> = {};
    for (const name of subpaths) surface[name] = await namesOf(`${name}.mjs`);
    expect(surface).toMatchSnapshot();
  });
});
