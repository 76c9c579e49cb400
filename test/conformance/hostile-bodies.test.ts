/**
 * No hostile body gets a 500 (CONTRIBUTING.md rule 7), on every host: deep,
 * wide, unterminated, escaped or random JSON and forms, against zod, valibot and arktype schemas,
 * a recursive (lazy) schema, field rules and a route that echoes what it got. Every 4xx carries
 * the spec's error body, and the parser work a body costs is linear in its length, counted, not
 * timed (docs/limits.md, "What each parser costs").
 */
import { type } from 'arktype';
import fc from 'fast-check';
import * as v from 'valibot';
import { expect, it, vi } from 'vitest';
import { z } from 'zod';
import { conventions, type RequestContext } from '../../src/index.ts';
import { requestParsers, workOf } from '../_work.ts';
import { describeMatrix } from './_matrix.ts';

await vi.hoisted(() => import('../_work.ts').then((work) => work.startWork()));

interface Tree {
  children: Tree[];
}
const tree: z.ZodType<Tree> = z.lazy(() => z.object({ children: z.array(tree) }));
const echo = (ctx: RequestContext) => ({ received: ctx.body ?? null });
const both = ['json', 'form'] as const;

const build = () =>
  conventions({
    lint: 'off',
    logger: { error() {}, warn() {} },
    routes: {
      '/v1/zod-tags': {
        POST: { handler: echo, config: { body: z.object({ tags: z.array(z.string()) }) } },
      },
      '/v1/valibot-tags': {
        POST: { handler: echo, config: { body: v.object({ tags: v.array(v.string()) }) } },
      },
      '/v1/arktype-tags': { POST: { handler: echo, config: { body: type({ tags: 'string[]' }) } } },
      '/v1/trees': { POST: { handler: echo, config: { body: tree } } },
      '/v1/notes': {
        POST: { handler: echo, config: { accepts: both, body: { text: { type: 'string' } } } },
      },
      '/v1/echoes': { POST: { handler: echo, config: { accepts: both } } },
    },
  });

const depth = fc.integer({ min: 1, max: 20_000 });
const count = fc.integer({ min: 0, max: 40_000 });
const scalar = fc.constantFrom('0', '"a"', 'true', 'null', '{}', '[]', '"[,{\\"]"');
const bodies = fc.oneof(
  depth.map((d) => `${'['.repeat(d)}${']'.repeat(d)}`),
  depth.map((d) => `${'{"children":['.repeat(d)}${']}'.repeat(d)}`),
  depth.map((d) => '['.repeat(d)),
  fc.tuple(count, scalar).map(([n, item]) => `{"tags":[${new Array(n).fill(item).join(',')}]}`),
  count.map((n) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`),
  fc
    .tuple(fc.integer({ min: 1, max: 300 }), fc.integer({ min: 1, max: 300 }))
    .map(([outer, inner]) =>
      JSON.stringify({ tags: Array.from({ length: outer }, () => new Array(inner).fill('x')) }),
    ),
  count.map((n) => `"${'\\'.repeat(n)}"`),
  fc.jsonValue({ maxDepth: 8 }).map((value) => JSON.stringify(value)),
  fc.string({ unit: 'binary', maxLength: 200 }),
  count.map((n) => 'tags=a&'.repeat(n)),
  count.map((n) => Array.from({ length: n }, (_, i) => `f${i}=${i}`).join('&')),
);
const json = 'application/json';
const deepEcho = { path: '/v1/echoes', type: json, body: `${'['.repeat(5000)}${']'.repeat(5000)}` };
const deepTree = {
  path: '/v1/trees',
  type: json,
  body: `${'{"children":['.repeat(5000)}${']}'.repeat(5000)}`,
};
const requests = fc.record({
  path: fc.constantFrom(
    '/v1/zod-tags',
    '/v1/valibot-tags',
    '/v1/arktype-tags',
    '/v1/trees',
    '/v1/notes',
    '/v1/echoes',
  ),
  type: fc.constantFrom('application/json', 'application/x-www-form-urlencoded'),
  body: bodies,
});

// The parsers' work in V8 block executions (test/_work.ts): the scan before JSON.parse and the
// form reader visit each byte once, a few blocks each; a rescan grows with the square.
const perByte = 8;

describeMatrix('hostile bodies', build, (served) => {
  it('answers every hostile body below 500, with the error body on every 4xx, in parser work linear in its length', async () => {
    await fc.assert(
      fc.asyncProperty(requests, async ({ path, type, body }) => {
        let res: Response | undefined;
        let text = '';
        const work = await workOf(async () => {
          res = await served.fetchAs('anonymous', path, {
            method: 'POST',
            headers: { 'content-type': type },
            body,
          });
          text = await res.text();
        }, requestParsers);
        if (res === undefined) throw new Error('no response');
        expect(res.status, text.slice(0, 200)).toBeLessThan(500);
        if (res.status >= 400) {
          const { errors } = JSON.parse(text) as { errors: unknown[] };
          expect(errors.length).toBeGreaterThan(0);
          for (const entry of errors) {
            expect(entry).toEqual({ message: expect.any(String), code: expect.any(Number) });
          }
        }
        // A few blocks of the parsers per byte of the body, and of the head (a few hundred bytes).
        const length = new TextEncoder().encode(body).byteLength;
        expect(work, 'parser work').toBeLessThanOrEqual(perByte * length + 4096);
      }),
      // The cases always run: 5,000 levels echoed back, 10,000 in a recursive schema.
      { numRuns: 60, examples: [[deepEcho], [deepTree]] },
    );
  });
});
