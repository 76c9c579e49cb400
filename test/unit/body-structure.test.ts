/**
 * The bounds on a body's structure (docs/limits.md): the scan of JSON text
 * before it is parsed agrees with the walk of a value a host parsed, both cost work linear in
 * what they read, forms are bounded alike, and the options are checked at start-up.
 */
import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  compileBodyStructure,
  defaultBodyStructure,
  type StructureLimits,
} from '../../src/core/http/body-structure.ts';
import { parseBody } from '../../src/core/http/parse-body.ts';
import { checkJsonStructure, checkValueStructure } from '../../src/core/http/structure-scan.ts';
import { ApiError, conventions, ErrorCode, isApiError } from '../../src/index.ts';
import { workOf } from '../_work.ts';
import { thrown } from './_thrown.ts';

await vi.hoisted(() => import('../_work.ts').then((work) => work.startWork()));

const limits = (given: Partial<StructureLimits>): StructureLimits => ({
  ...defaultBodyStructure,
  ...given,
});
const codeOf = (fn: () => unknown) => {
  const error = thrown(fn);
  expect(error).toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(413);
  return (error as ApiError).code;
};
const scan = (text: string, given: Partial<StructureLimits> = {}) =>
  checkJsonStructure(text, limits(given));
const deepText = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`;

describe('checkJsonStructure', () => {
  it('reads a body at each bound, and refuses one past it with the code naming the bound', () => {
    expect(() => scan(deepText(3), { maxDepth: 3 })).not.toThrow();
    expect(codeOf(() => scan(deepText(4), { maxDepth: 3 }))).toBe(ErrorCode.BodyTooDeep);
    expect(() => scan('[1, 2 ,3]', { maxItems: 3 })).not.toThrow();
    expect(codeOf(() => scan('[1,2,3,4]', { maxItems: 3 }))).toBe(ErrorCode.ArrayTooLong);
    expect(() => scan('{"a":1,"b":[1,2]}', { maxMembers: 2 })).not.toThrow();
    expect(codeOf(() => scan('{"a":1,"b":2,"c":3}', { maxMembers: 2 }))).toBe(
      ErrorCode.ObjectTooLarge,
    );
    // 2 members + 3 items + 1 item: 6 values, at every depth.
    expect(() => scan('{"a":[1,2,3],"b":{"c":0}}', { maxValues: 6 })).not.toThrow();
    expect(codeOf(() => scan('{"a":[1,2,3],"b":{"c":0}}', { maxValues: 5 }))).toBe(
      ErrorCode.TooManyValues,
    );
  });

  it('counts an empty container as no values, whatever whitespace it holds', () => {
    expect(() => scan('[ \n\t\r ]', { maxItems: 0, maxValues: 0 })).not.toThrow();
    expect(() => scan('{ }', { maxMembers: 0, maxValues: 0 })).not.toThrow();
    expect(codeOf(() => scan('[ 0 ]', { maxItems: 0 }))).toBe(ErrorCode.ArrayTooLong);
  });

  it('counts nothing inside strings: brackets, commas and escaped quotes', () => {
    const text = JSON.stringify({ a: '[[[[,,,,{{{{', b: 'say \\"[,]\\" \\\\', c: '\\' });
    expect(() =>
      scan(text, { maxDepth: 1, maxItems: 0, maxMembers: 3, maxValues: 3 }),
    ).not.toThrow();
  });

  it('leaves text that is not JSON to JSON.parse, at linear cost', () => {
    for (const text of ['"unterminated [[[', ']]]]', ',,,', '[1,2', '{"a":"\\']) {
      expect(() => scan(text)).not.toThrow();
    }
  });

  it('costs work linear in the text, backslash runs and all (docs/limits.md)', async () => {
    const text = (n: number) => JSON.stringify({ s: `${'\\'.repeat(n)}"${'\\"'.repeat(n)}` });
    // V8 block executions of the scan (test/_work.ts): about one per character.
    const once = await workOf(() => scan(text(25_000)), 'http/structure-scan.ts');
    const twice = await workOf(() => scan(text(50_000)), 'http/structure-scan.ts');
    expect(once).toBeLessThanOrEqual(2 * text(25_000).length);
    expect(twice).toBeLessThanOrEqual(2.1 * once);
  });

  it('agrees with the walk of the parsed value on every JSON value and bound (property)', () => {
    const bound = fc.integer({ min: 0, max: 6 });
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 6 }),
        fc.record({
          maxDepth: fc.integer({ min: 1, max: 6 }),
          maxItems: bound,
          maxMembers: bound,
          maxValues: fc.integer({ min: 0, max: 30 }),
        }),
        fc.boolean(),
        (value, bounds, spaced) => {
          const text = JSON.stringify(value, null, spaced ? 2 : undefined);
          const byScan = attempt(() => checkJsonStructure(text, bounds));
          const byWalk = attempt(() => checkValueStructure(JSON.parse(text), bounds));
          expect(byScan === undefined).toBe(byWalk === undefined);
        },
      ),
      { numRuns: 2000 },
    );
  });
});

/** The code of the 413 `fn` threw, or `undefined` when it threw nothing. */
function attempt(fn: () => void): number | undefined {
  try {
    fn();
    return undefined;
  } catch (error) {
    if (!isApiError(error)) throw error;
    return error.code;
  }
}

describe('checkValueStructure', () => {
  it('walks a 100,000-level value without overflowing the stack', () => {
    let value: unknown = [];
    for (let i = 0; i < 100_000; i++) value = [value];
    expect(codeOf(() => checkValueStructure(value, defaultBodyStructure))).toBe(
      ErrorCode.BodyTooDeep,
    );
    expect(() =>
      checkValueStructure(value, limits({ maxDepth: 200_000, maxValues: 200_000 })),
    ).not.toThrow();
  });

  it('ends on a cycle, and on a value that reaches one node by 2^40 paths, within maxValues', () => {
    const cycle: unknown[] = [];
    cycle.push(cycle);
    expect(attempt(() => checkValueStructure(cycle, limits({ maxDepth: 1e9 })))).toBe(
      ErrorCode.TooManyValues,
    );
    let shared: unknown = [];
    for (let i = 0; i < 40; i++) shared = [shared, shared];
    expect(attempt(() => checkValueStructure(shared, limits({ maxDepth: 64 })))).toBe(
      ErrorCode.TooManyValues,
    );
  });

  it('takes bytes and typed arrays as one value, not as their elements', () => {
    expect(() =>
      checkValueStructure({ raw: new Uint8Array(100_000) }, limits({ maxItems: 10 })),
    ).not.toThrow();
  });
});

describe('form bodies', () => {
  const form = (text: string, given: Partial<StructureLimits>) =>
    parseBody(
      new TextEncoder().encode(text),
      'application/x-www-form-urlencoded',
      ['form'],
      limits(given),
    );

  it('bounds the values of a repeated field, the distinct fields and the fields in all', () => {
    expect(form('a=1&a=2&b=3', { maxItems: 2, maxMembers: 2, maxValues: 3 })).toEqual({
      a: ['1', '2'],
      b: '3',
    });
    expect(codeOf(() => form('a=1&a=2&a=3', { maxItems: 2 }))).toBe(ErrorCode.ArrayTooLong);
    expect(codeOf(() => form('a=1&b=2&c=3', { maxMembers: 2 }))).toBe(ErrorCode.ObjectTooLarge);
    expect(codeOf(() => form('a=1&b=2&a=3', { maxValues: 2 }))).toBe(ErrorCode.TooManyValues);
    expect(codeOf(() => form('a=1&a=2', { maxDepth: 1 }))).toBe(ErrorCode.BodyTooDeep);
  });

  it('names the form in the message', () => {
    const error = thrown(() => form('t=1&t=2', { maxItems: 1 })) as ApiError;
    expect(error.message).toBe(
      'A field of the form is repeated more than 1 times, the most this route reads.',
    );
  });
});

describe('bodyStructure options', () => {
  const base = { lint: 'off' as const, logger: { error() {}, warn() {} } };

  it('refuses a misspelt bound, a bound out of range and a value that is no object at start-up', () => {
    expect(() => conventions({ ...base, bodyStructure: { maxDepht: 3 } as never })).toThrow(
      /bodyStructure: unknown option `maxDepht`\. Did you mean `maxDepth`\?/,
    );
    expect(() => conventions({ ...base, bodyStructure: { maxDepth: 0 } })).toThrow(
      'conventions(): bodyStructure.maxDepth must be a whole number from 1 to 2147483647; got 0.',
    );
    expect(() => conventions({ ...base, bodyStructure: 64 as never })).toThrow(TypeError);
    expect(() =>
      conventions({
        ...base,
        routes: {
          '/v1/notes': {
            POST: { handler: () => ({}), config: { bodyStructure: { maxItems: -1 } } },
          },
        },
      }),
    ).toThrow(/Route "POST \/v1\/notes".*bodyStructure\.maxItems must be a whole number/);
  });

  it('merges a route’s bounds over the service’s, key by key', () => {
    expect(compileBodyStructure('x', { maxDepth: 4 }, limits({ maxItems: 2 }))).toEqual(
      limits({ maxDepth: 4, maxItems: 2 }),
    );
  });
});

describe('the body step', () => {
  const post = (body: string, init: { parsedBody?: { value: unknown } } = {}) => ({
    method: 'POST',
    url: '/v1/notes',
    headers: new Headers({ 'content-type': 'application/json' }),
    readBody: () => Promise.resolve(new TextEncoder().encode(body)),
    ...init,
  });
  const echo = { handler: (ctx: { body: unknown }) => ({ received: ctx.body }) };
  const status = async (response: unknown) => {
    const { status, body } = await (response as Promise<{ status: number; body: string }>);
    return status < 400 ? status : [status, JSON.parse(body).errors[0].code];
  };

  it('reads the service-wide bounds, and a route’s own over them key by key', async () => {
    const api = conventions({
      lint: 'off',
      logger: { error() {}, warn() {} },
      bodyStructure: { maxDepth: 2, maxItems: 2 },
      routes: {
        '/v1/notes': { POST: echo },
        '/v1/deep-notes': { POST: { ...echo, config: { bodyStructure: { maxDepth: 4 } } } },
      },
    });
    expect(await status(api.handle(post('[[1,2]]')))).toBe(200);
    expect(await status(api.handle(post('[[[]]]')))).toEqual([413, ErrorCode.BodyTooDeep]);
    expect(await status(api.handle({ ...post('[[[[]]]]'), url: '/v1/deep-notes' }))).toBe(200);
    // The route names maxDepth only: maxItems stays the service's.
    expect(await status(api.handle({ ...post('[1,2,3]'), url: '/v1/deep-notes' }))).toEqual([
      413,
      ErrorCode.ArrayTooLong,
    ]);
  });

  it('bounds a body a host already parsed before the route’s field rules see it', async () => {
    const api = conventions({
      lint: 'off',
      logger: { error() {}, warn() {} },
      bodyStructure: { maxMembers: 2 },
      routes: { '/v1/notes': { POST: { ...echo, config: { body: { a: { type: 'string' } } } } } },
    });
    const parsed = (value: unknown) => post('', { parsedBody: { value } });
    expect(await status(api.handle(parsed({ a: 'x', b: 1, c: 2 })))).toEqual([
      413,
      ErrorCode.ObjectTooLarge,
    ]);
    // Within the bounds, the field rules speak: an unknown field is 400.
    expect(await status(api.handle(parsed({ a: 'x', b: 1 })))).toEqual([
      400,
      ErrorCode.UnknownField,
    ]);
  });
});
