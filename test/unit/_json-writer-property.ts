/**
 * The JSON writer property, shared by the in-process test (where Node compiles code, so each
 * object's replacer is a generated function) and a child process started with
 * `--disallow-code-generation-from-strings` (the closures that Workers run): whatever the
 * value, a writer compiled from a schema writes exactly `JSON.stringify`'s text.
 */
import fc from 'fast-check';
import { z } from 'zod';
import { compileJsonWriter } from '../../src/core/http/compiled-json.ts';
import { standardJsonSchema } from '../../src/core/openapi/json-schema.ts';

/** `JSON.stringify`'s text, or the class of what it throws. */
export function builtIn(value: unknown): string {
  try {
    return JSON.stringify(value) ?? 'null';
  } catch (error) {
    return `throws ${(error as Error).constructor.name}`;
  }
}

/** A writer's text, or the class of what it throws. */
export function ours(write: (value: unknown) => string, value: unknown): string {
  try {
    return write(value);
  } catch (error) {
    return `throws ${(error as Error).constructor.name}`;
  }
}

// A schema of every kind the compiler specialises: nested objects, arrays of objects, strings,
// date-times, numbers, and a member it leaves to the general writer (an enum).
export const noteSchema = standardJsonSchema(
  z.object({
    id: z.string(),
    at: z.date(),
    count: z.number().int(),
    ratio: z.number(),
    kind: z.enum(['a', 'b']),
    tags: z.array(z.object({ name: z.string(), since: z.date() })),
    owner: z.object({ name: z.string(), joined: z.date() }).partial(),
    maybe: z.date().nullable(),
    either: z.union([z.object({ at: z.date() }), z.array(z.date())]),
  }),
  'output',
);

/** An object whose own enumerable member `__proto__` holds `value` (as JSON.parse makes one). */
function withProtoMember(value: unknown): Record<string, unknown> {
  const object: Record<string, unknown> = { id: 'p' };
  Object.defineProperty(object, '__proto__', {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
  return object;
}

/** Throws (fast-check's report, or a mismatch) when a writer's text is not JSON.stringify's. */
export function checkWriters(numRuns = 500): void {
  const date = fc.date({ min: new Date(-8.64e15), max: new Date(8.64e15) });
  const value = fc.letrec((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      fc.jsonValue({ maxDepth: 2 }),
      date,
      fc.constant(new Date(Number.NaN)),
      fc.string({ unit: 'binary' }),
      fc.array(tie('value'), { maxLength: 4 }),
      fc.dictionary(
        fc.constantFrom('id', 'at', 'count', 'tags', 'owner', 'name', 'maybe', 'either', 'x'),
        tie('value'),
        { maxKeys: 5 },
      ),
      fc.record({
        id: fc.string(),
        at: fc.oneof(date, fc.string()),
        count: fc.oneof(fc.integer(), fc.double()),
        tags: fc.array(fc.record({ name: fc.string(), since: date }), { maxLength: 3 }),
      }),
      date.map(withProtoMember),
    ),
  })).value;
  const schemas: Record<string, unknown>[] = [
    noteSchema,
    { type: 'array', items: noteSchema },
    { type: 'string', format: 'date-time' },
    {},
    // A date-time member named __proto__: an own member of the copy, never its prototype.
    {
      type: 'object',
      properties: {
        ['__proto__']: { type: 'string', format: 'date-time' },
        id: { type: 'string' },
      },
    },
  ];
  const writers = schemas.map((s) => compileJsonWriter(s));
  fc.assert(
    fc.property(value, fc.integer({ min: 0, max: writers.length - 1 }), (v, i) => {
      const got = ours(writers[i]!, v);
      const want = builtIn(v);
      if (got !== want) throw new Error(`writer ${i} wrote ${got}, JSON.stringify ${want}`);
    }),
    { numRuns },
  );
}

// Run as a script (the child process): check, then say whether code was compiled.
if (process.argv[1]?.endsWith('_json-writer-property.ts')) {
  const { compilesCode } = await import('../../src/core/internal/platform.ts');
  checkWriters();
  console.log(`writers ok (compilesCode: ${compilesCode})`);
}
