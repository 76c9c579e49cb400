/**
 * The reference's examples, held to the guides' rule: every `@example` in the source is a fenced
 * TypeScript block that compiles as pasted (one program, the project's settings, as
 * test/docs/code-blocks.test.ts checks the guides), and those the reference shows import what
 * they use from the package's own paths (an internal module's may import it by its path); every
 * function and class a service author calls has one that imports it. That is what each entry
 * point exports as a value, `api-conventions/host` apart (it is for adapter authors), but for
 * `bindHost`, the host binding's entry.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  type PublicApi,
  publicApi,
  readSource,
  type SourceExample,
  sourceExamples,
  sourceFiles,
} from './_examples.ts';
import type { CodeBlock } from './_markdown.ts';
import { root } from './_site.ts';
import { typecheckBlocks } from './_typecheck.ts';

const entryPoints: Record<string, string> = {
  'api-conventions': 'src/index.ts',
  'api-conventions/node': 'src/adapters/node.ts',
  'api-conventions/express': 'src/adapters/express.ts',
  'api-conventions/koa': 'src/adapters/koa.ts',
  'api-conventions/nest': 'src/adapters/nest.ts',
  'api-conventions/fastify': 'src/adapters/fastify.ts',
  'api-conventions/fetch': 'src/adapters/fetch.ts',
  'api-conventions/host': 'src/host.ts',
  'api-conventions/oauth': 'src/oauth.ts',
  'api-conventions/redis': 'src/redis.ts',
  'api-conventions/audit': 'src/audit/index.ts',
  'api-conventions/lint': 'src/lint.ts',
  'api-conventions/spectral': 'src/spectral/index.ts',
  'api-conventions/otel': 'src/otel.ts',
  'api-conventions/client': 'src/client.ts',
};

/** Whether `block` imports `name` from the package (the root or a subpath). */
const importsName = (block: CodeBlock, name: string) =>
  new RegExp(`import\\s+(type\\s+)?\\{[^}]*\\b${name}\\b[^}]*\\}\\s*from\\s*'api-conventions`).test(
    block.text,
  );

let examples: SourceExample[];
let api: PublicApi;
let problems: Map<CodeBlock, string[]>;

beforeAll(() => {
  examples = sourceFiles().flatMap((file) => sourceExamples(file, readSource(file)));
  api = publicApi(entryPoints);
  problems = typecheckBlocks(examples.flatMap((e) => e.blocks.filter((b) => !b.ignored)));
}, 120_000);

describe('the examples of the reference', () => {
  it('lists every entry point of typedoc.json', () => {
    const config = JSON.parse(readFileSync(join(root, 'typedoc.json'), 'utf8')) as {
      entryPoints: string[];
    };
    expect(Object.values(entryPoints).sort()).toEqual([...config.entryPoints].sort());
  });

  it('finds the examples of the source, each with its line', () => {
    expect(examples.length).toBeGreaterThan(100);
    const express = examples.find((e) => e.file === 'src/adapters/express.ts');
    expect(express?.blocks[0]?.text).toContain("from 'api-conventions/express'");
    expect(express?.blocks[0]?.line).toBe(express!.line + 1);
  });

  it('writes every @example as a fenced TypeScript block', () => {
    expect(examples.filter((e) => e.blocks.length === 0).map((e) => `${e.file}:${e.line}`)).toEqual(
      [],
    );
  });

  it('shows its imports from the package in every example of the reference', () => {
    const without = examples
      .filter((e) => api.comments.has(`${e.file}:${e.comment}`))
      .flatMap((e) => e.blocks)
      .filter((b) => !/^import\s[^;]*from\s*'api-conventions(\/[a-z]+)?';/m.test(b.text))
      .map((b) => `${b.file}:${b.line}`);
    expect(without).toEqual([]);
  });

  it('type-checks every example as pasted', () => {
    expect([...problems.values()].flat()).toEqual([]);
  });

  it('gives every function and class a service author calls an example that imports it', () => {
    const forAuthors = api.exports.filter(
      (e) => e.module !== 'api-conventions/host' || e.name === 'bindHost',
    );
    expect(forAuthors.length).toBeGreaterThan(90);
    const missing = forAuthors
      .filter((e) => {
        const own = sourceExamples(e.file, e.doc).flatMap((x) => x.blocks);
        return !own.some((b) => importsName(b, e.name));
      })
      .map((e) => `${e.module}: ${e.name} (${e.file})`);
    expect(missing).toEqual([]);
  });
});
