/**
 * Caps before work, on every host: a body's depth, array lengths, object sizes
 * and number of values are bounded while it is parsed, so no Standard Schema (zod, valibot,
 * arktype), field rule or handler sees a body past them (413 naming the bound, docs/limits.md);
 * an asynchronous check that never settles answers 503 within `checkTimeout`; a handler's value
 * too deep to write is a logged 500 with the generic message, and the server goes on serving.
 */
import type { StandardSchemaV1 } from '@standard-schema/spec';
import { type } from 'arktype';
import * as v from 'valibot';
import { expect, it } from 'vitest';
import { z } from 'zod';
import {
  accessChecks,
  caching,
  conventions,
  created,
  ErrorCode,
  type RequestContext,
} from '../../src/index.ts';
import { describeMatrix } from './_matrix.ts';

/** Every value a schema was asked to validate, by route: a body past a cap must never get here. */
const validated: Record<string, unknown[]> = {};

/** The schema as it is, with each value it is asked to validate recorded under `name`. */
function recorded<S extends StandardSchemaV1>(name: string, schema: S): S {
  const props = schema['~standard'];
  validated[name] = [];
  return {
    '~standard': {
      version: 1,
      vendor: props.vendor,
      validate: (value: unknown) => {
        validated[name]!.push(value);
        return props.validate(value);
      },
    },
  } as unknown as S;
}

const tagSchemas = {
  zod: recorded('zod', z.object({ tags: z.array(z.string()) })),
  valibot: recorded('valibot', v.object({ tags: v.array(v.string()) })),
  arktype: recorded('arktype', type({ tags: 'string[]' })),
};

interface Tree {
  children: Tree[];
}
const tree: z.ZodType<Tree> = z.lazy(() => z.object({ children: z.array(tree) }));

// An async check that never settles, as a lookup in a store that hangs would.
const hanging = z.object({ item: z.string() }).refine(() => new Promise<boolean>(() => {}));
const never = () => new Promise<never>(() => {});

const faults: unknown[] = [];

/** `[[…[]…]]`, `levels` arrays deep, as text (JSON.stringify would overflow the test's stack). */
const deepText = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

/** `[[…[]…]]`, `levels` arrays deep, built without recursion. */
function deepValue(levels: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

const count = (ctx: RequestContext) =>
  created('/v1/tags/t-1', { tags: (ctx.body as { tags: unknown[] }).tags.length });

function build() {
  return conventions({
    lint: 'off',
    checkTimeout: 100,
    logger: { error: (obj: { err?: unknown }) => faults.push(obj.err), warn: () => {} },
    plugins: [caching(), accessChecks({ unchecked: 'off' })],
    routes: {
      '/v1/zod-tags': { POST: { handler: count, config: { body: tagSchemas.zod } } },
      '/v1/valibot-tags': { POST: { handler: count, config: { body: tagSchemas.valibot } } },
      '/v1/arktype-tags': { POST: { handler: count, config: { body: tagSchemas.arktype } } },
      '/v1/echoes': {
        POST: {
          handler: (ctx: RequestContext) => ({ received: ctx.body }),
          config: { accepts: ['json', 'form'] },
        },
      },
      '/v1/short-lists': {
        POST: {
          handler: (ctx: RequestContext) => ({ received: ctx.body }),
          config: { accepts: ['json', 'form'], bodyStructure: { maxItems: 3, maxDepth: 3 } },
        },
      },
      '/v1/trees': {
        POST: { handler: () => ({ planted: true }), config: { body: tree } },
      },
      '/v1/hanging-orders': {
        POST: { handler: () => ({ ordered: true }), config: { body: hanging } },
      },
      '/v1/hanging-versions/:id': {
        GET: { handler: () => ({ id: 'v' }), config: { resourceVersion: never } },
      },
      '/v1/hanging-checks': {
        GET: { handler: () => ({ checked: true }), config: { authorize: never } },
      },
      '/v1/deep-values': { GET: () => ({ deep: deepValue(5000) }) },
      '/v1/pings': { GET: () => ({ pong: true }) },
    },
  });
}

const json = (body: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body,
});
const form = (body: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/x-www-form-urlencoded' },
  body,
});

// The body: 1 MiB of `{"tags":[0,0,…]}`, about 520,000 items.
const millionTags = `{"tags":[${new Array(520_000).fill('0').join(',')}]}`;

describeMatrix('caps before work', build, (served) => {
  it.each(['zod', 'valibot', 'arktype'] as const)(
    'answers a 1 MiB body of 520,000 items with 413 (41303) before the %s schema sees it, and a small request beside it with 201',
    async (lib) => {
      const before = validated[lib]!.length;
      const [big, small] = await Promise.all([
        served.fetchAs('anonymous', `/v1/${lib}-tags`, json(millionTags)),
        served.fetchAs('anonymous', `/v1/${lib}-tags`, json('{"tags":["a","b"]}')),
      ]);
      expect(big.status).toBe(413);
      expect(await big.json()).toEqual({
        errors: [
          {
            message:
              'An array in the request body holds more than 10000 items, the most this route reads.',
            code: ErrorCode.ArrayTooLong,
          },
        ],
      });
      expect(small.status).toBe(201);
      expect(await small.json()).toEqual({ tags: 2 });
      // The schema saw the small body only: no work was done on the big one.
      expect(validated[lib]!.slice(before)).toEqual([{ tags: ['a', 'b'] }]);
    },
  );

  it('answers a 5,000-level body with 413 (41302) at parse, before any handler runs', async () => {
    const res = await served.fetchAs('anonymous', '/v1/echoes', json(deepText(5000)));
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({
      errors: [
        {
          message:
            'The request body nests arrays and objects deeper than 64 levels, the most this route reads.',
          code: ErrorCode.BodyTooDeep,
        },
      ],
    });
  });

  it('stops a 10,000-level body before a recursive (lazy) schema runs', async () => {
    let body = '{"children":[]}';
    for (let i = 0; i < 5000; i++) body = `{"children":[${body}]}`;
    const res = await served.fetchAs('anonymous', '/v1/trees', json(body));
    expect(res.status).toBe(413);
    expect((await res.json()).errors[0].code).toBe(ErrorCode.BodyTooDeep);
    // Within the bound, the same schema reads the tree.
    const fits = await served.fetchAs(
      'anonymous',
      '/v1/trees',
      json('{"children":[{"children":[]}]}'),
    );
    expect(fits.status).toBe(200);
  });

  it('answers an object of more members than the cap with 413 (41304), and a body of more values with 41305', async () => {
    const wide = JSON.stringify(
      Object.fromEntries(Array.from({ length: 10_001 }, (_, i) => [`k${i}`, i])),
    );
    const res = await served.fetchAs('anonymous', '/v1/echoes', json(wide));
    expect(res.status).toBe(413);
    expect((await res.json()).errors[0].code).toBe(ErrorCode.ObjectTooLarge);
    // 30 arrays of 1,000 items: every one within its cap, 30,000 values in all.
    const many = JSON.stringify({
      lists: Array.from({ length: 30 }, () => new Array(1000).fill(0)),
    });
    const all = await served.fetchAs('anonymous', '/v1/echoes', json(many));
    expect(all.status).toBe(413);
    expect((await all.json()).errors[0].code).toBe(ErrorCode.TooManyValues);
  });

  it('bounds a form body alike: a field repeated past the cap is 413 (41303)', async () => {
    const res = await served.fetchAs('anonymous', '/v1/echoes', form('tag=a&'.repeat(10_001)));
    expect(res.status).toBe(413);
    expect((await res.json()).errors[0]).toEqual({
      message: 'A field of the form is repeated more than 10000 times, the most this route reads.',
      code: ErrorCode.ArrayTooLong,
    });
    const fits = await served.fetchAs('anonymous', '/v1/echoes', form('tag=a&tag=b'));
    expect(await fits.json()).toEqual({ received: { tag: ['a', 'b'] } });
  });

  it("reads a route's own bodyStructure beside bodyLimit", async () => {
    const four = await served.fetchAs('anonymous', '/v1/short-lists', json('{"a":[1,2,3,4]}'));
    expect(four.status).toBe(413);
    expect((await four.json()).errors[0].code).toBe(ErrorCode.ArrayTooLong);
    const deep = await served.fetchAs('anonymous', '/v1/short-lists', json('[[[[]]]]'));
    expect((await deep.json()).errors[0].code).toBe(ErrorCode.BodyTooDeep);
    const fits = await served.fetchAs('anonymous', '/v1/short-lists', json('{"a":[1,2,[3]]}'));
    expect(await fits.json()).toEqual({ received: { a: [1, 2, [3]] } });
    const formFields = await served.fetchAs(
      'anonymous',
      '/v1/short-lists',
      form('t=1&t=2&t=3&t=4'),
    );
    expect(formFields.status).toBe(413);
  });

  it('answers an async body check that never settles with 503 (50303) and the error body', async () => {
    const res = await served.fetchAs('anonymous', '/v1/hanging-orders', json('{"item":"tea"}'));
    expect(res.status).toBe(503);
    expect(await res.json()).toEqual({
      errors: [
        {
          message: 'The request could not be checked in time; nothing was done. Try again later.',
          code: ErrorCode.CheckTimeout,
        },
      ],
    });
  });

  it('answers a resourceVersion and an authorize check that never settle with 503 (50303)', async () => {
    for (const path of ['/v1/hanging-versions/v-1', '/v1/hanging-checks']) {
      const res = await served.fetchAs('anonymous', path);
      expect(res.status).toBe(503);
      expect((await res.json()).errors[0].code).toBe(ErrorCode.CheckTimeout);
    }
  });

  it('answers a handler that returns a 5,000-level value with a logged 500 and the generic message, and goes on serving', async () => {
    const before = faults.length;
    const res = await served.fetchAs('anonymous', '/v1/deep-values');
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      errors: [{ message: 'Something went wrong on our side; it has been logged.', code: 50000 }],
    });
    expect(faults.length).toBe(before + 1);
    const next = await served.fetchAs('anonymous', '/v1/pings');
    expect(await next.json()).toEqual({ pong: true });
  });
});
