import { describe, expect, it } from 'vitest';
import { maxErrorEntries } from '../../src/core/errors/api-error.ts';
import { type CheckFieldsOptions, checkFields } from '../../src/core/validation/check-fields.ts';
import {
  ApiError,
  compileFields,
  ErrorCode,
  type FieldRule,
  type FieldSchema,
  invalidRequest,
} from '../../src/index.ts';
import { thrown } from './_thrown.ts';

/** The entries of the 400 that `checkFields` throws, or `[]` when the body fits. */
function problems(body: unknown, schema: FieldSchema, options?: CheckFieldsOptions) {
  try {
    checkFields(body, schema, options);
    return [];
  } catch (error) {
    if (!(error instanceof ApiError)) throw error;
    expect(error.status).toBe(400);
    expect(error.code).toBe(error.errors[0]?.code);
    return error.toJSON().errors;
  }
}

/** The problems of one field `f` with one rule. */
const one = (value: unknown, rule: FieldRule) => problems({ f: value }, { f: rule });

describe('checkFields: types', () => {
  it.each([
    ['string', 'Dune'],
    ['string', ''],
    ['integer', 0],
    ['integer', -7],
    ['integer', 1965],
    ['integer', 2.0],
    ['number', 3.5],
    ['number', -0.25],
    ['number', 1e21],
    ['boolean', true],
    ['boolean', false],
    ['object', {}],
    ['object', { name: 'Frank' }],
    ['array', []],
    ['array', [1, 'two']],
  ] as [FieldRule['type'], unknown][])('accepts a %s: %j', (type, value) => {
    expect(one(value, { type })).toEqual([]);
  });

  it.each([
    ['string', 1, 'a string'],
    ['string', true, 'a string'],
    ['string', {}, 'a string'],
    ['integer', 3.5, 'an integer'],
    ['integer', '3', 'an integer'],
    ['integer', Number.NaN, 'an integer'],
    ['number', '3.5', 'a number'],
    ['number', Number.POSITIVE_INFINITY, 'a number'],
    ['number', Number.NaN, 'a number'],
    ['boolean', 'true', 'true or false'],
    ['boolean', 1, 'true or false'],
    ['object', [], 'an object'],
    ['object', 'x', 'an object'],
    ['array', {}, 'an array'],
    ['array', 'a,b', 'an array'],
  ] as [FieldRule['type'], unknown, string][])(
    'rejects as a %s the value %j: "must be %s"',
    (type, value, wanted) => {
      expect(one(value, { type })).toEqual([
        { message: `The field "f" must be ${wanted}.`, code: 40002 },
      ]);
    },
  );

  it('throws a TypeError for a rule of unknown type: a programming error', () => {
    expect(() => checkFields({ f: 1 }, { f: { type: 'uuid' as FieldRule['type'] } })).toThrow(
      new TypeError(
        'Field "f" has an unknown type "uuid"; use one of string, integer, number, boolean, object, array, date-time.',
      ),
    );
  });
});

describe('checkFields: date-time (spec 2.6, RFC 3339 §5.6)', () => {
  const wanted = 'an RFC 3339 date-time such as 2026-01-31T09:00:00Z';

  it.each([
    '1985-04-12T23:20:50.52Z',
    '1996-12-19T16:39:57-08:00',
    '1937-01-01T12:00:27.87+00:20',
    '2026-01-31T09:00:00Z',
    '2026-01-31T09:00:00.123456789Z',
    '2026-01-31T09:00:00+14:00',
    '2026-01-31t09:00:00z',
    '2024-02-29T00:00:00Z',
  ])('accepts %s (RFC 3339 §5.8)', (value) => {
    expect(one(value, { type: 'date-time' })).toEqual([]);
  });

  it.each(['1990-12-31T23:59:60Z', '1990-12-31T15:59:60-08:00'])(
    'accepts the leap second %s, an example of RFC 3339 §5.8',
    (value) => {
      expect(one(value, { type: 'date-time' })).toEqual([]);
    },
  );

  it.each([
    '2026-01-31',
    '09:00:00Z',
    '2026-01-31T09:00:00',
    '2026-01-31T09:00Z',
    '2026-01-31 09:00:00Z',
    '2026-01-31T09:00:00+0100',
    '2026-01-31T09:00:00.Z',
    '2026-13-01T00:00:00Z',
    '2026-00-10T00:00:00Z',
    '2026-01-32T00:00:00Z',
    '2026-01-31T24:00:00Z',
    '2026-01-31T09:60:00Z',
    '2026-01-31T09:00:61Z',
    '26-01-31T09:00:00Z',
    'Sat, 31 Jan 2026 09:00:00 GMT',
    '',
  ])('rejects %j', (value) => {
    expect(one(value, { type: 'date-time' })).toEqual([
      { message: `The field "f" must be ${wanted}.`, code: 40002 },
    ]);
  });

  it.each([1769850000000, new Date('2026-01-31T09:00:00Z')])(
    'rejects the non-string %j',
    (value) => {
      expect(one(value, { type: 'date-time' })).toEqual([
        { message: `The field "f" must be ${wanted}.`, code: 40002 },
      ]);
    },
  );

  it.each([
    '2026-02-29T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '2026-04-31T00:00:00Z',
    '2100-02-29T00:00:00Z',
  ])('rejects %s, a day its month does not have (RFC 3339 §5.7)', (value) => {
    expect(one(value, { type: 'date-time' })).toEqual([
      { message: `The field "f" must be ${wanted}.`, code: 40002 },
    ]);
  });
});

describe('checkFields: presence and null', () => {
  it('reports a missing required field with code 40003', () => {
    expect(problems({}, { title: { type: 'string', required: true } })).toEqual([
      { message: 'The field "title" is required.', code: 40003 },
    ]);
  });

  it('lets an optional field be absent', () => {
    expect(problems({}, { title: { type: 'string' } })).toEqual([]);
  });

  it('treats every field as optional when partial, as for PATCH (spec 4.2)', () => {
    expect(problems({}, { title: { type: 'string', required: true } }, { partial: true })).toEqual(
      [],
    );
  });

  it('still checks the fields a partial body does carry', () => {
    expect(
      problems({ year: 'x' }, { year: { type: 'integer', required: true } }, { partial: true }),
    ).toEqual([{ message: 'The field "year" must be an integer.', code: 40002 }]);
  });

  it.each([{ required: true }, { required: false }])(
    'rejects null for a field that is not nullable (%j)',
    (extra) => {
      expect(problems({ f: null }, { f: { type: 'string', ...extra } })).toEqual([
        { message: 'The field "f" must not be null.', code: 40002 },
      ]);
    },
  );

  it('accepts null for a nullable field, whatever its type and bounds', () => {
    expect(one(null, { type: 'string', nullable: true, required: true, min: 3 })).toEqual([]);
  });
});

describe('checkFields: bounds, pattern and enum', () => {
  it.each([
    [{ type: 'integer', min: 1 }, 0, 'at least 1'],
    [{ type: 'integer', max: 10 }, 11, 'at most 10'],
    [{ type: 'number', min: 0.5 }, 0.4, 'at least 0.5'],
    [{ type: 'number', max: -1 }, 0, 'at most -1'],
    [{ type: 'string', min: 2 }, 'a', 'at least 2 characters'],
    [{ type: 'string', max: 3 }, 'abcd', 'at most 3 characters'],
    [{ type: 'array', min: 1 }, [], 'at least 1 items'],
    [{ type: 'array', max: 2 }, [1, 2, 3], 'at most 2 items'],
    [{ type: 'string', pattern: /^[a-z-]+$/ }, 'Not-Lower', 'a string matching /^[a-z-]+$/'],
    [{ type: 'string', enum: ['draft', 'published'] }, 'gone', 'one of "draft", "published"'],
    [{ type: 'integer', enum: [1, 2] }, 3, 'one of 1, 2'],
  ] as [FieldRule, unknown, string][])(
    'rule %o rejects %j: "must be %s"',
    (rule, value, wanted) => {
      expect(one(value, rule)).toEqual([
        { message: `The field "f" must be ${wanted}.`, code: 40002 },
      ]);
    },
  );

  it('checks enum on a boolean field too, where there is no size to bound', () => {
    expect(one(false, { type: 'boolean', enum: [true] })).toEqual([
      { message: 'The field "f" must be one of true.', code: 40002 },
    ]);
  });

  it.each([
    [{ type: 'integer', min: 1, max: 10 }, 1],
    [{ type: 'integer', min: 1, max: 10 }, 10],
    [{ type: 'string', min: 2, max: 3 }, 'ab'],
    [{ type: 'string', min: 2, max: 3 }, 'abc'],
    [{ type: 'string', max: 1 }, 'é'],
    [{ type: 'string', max: 1 }, '😀'],
    [{ type: 'string', min: 1, max: 1 }, '\u{1F600}'],
    [{ type: 'array', min: 1, max: 1 }, ['x']],
    [{ type: 'string', pattern: /^[a-z-]+$/ }, 'book-imports'],
    [{ type: 'string', enum: ['draft', 'published'] }, 'draft'],
  ] as [FieldRule, unknown][])('rule %o accepts %j (bounds are inclusive)', (rule, value) => {
    expect(one(value, rule)).toEqual([]);
  });

  it('reports the type problem only when the value has the wrong type', () => {
    expect(one('11', { type: 'integer', max: 10 })).toEqual([
      { message: 'The field "f" must be an integer.', code: 40002 },
    ]);
  });
});

describe('checkFields: unknown fields and body shape', () => {
  const schema: FieldSchema = { title: { type: 'string' } };

  it('rejects a field the schema does not name with code 40004', () => {
    expect(problems({ title: 'Dune', colour: 'red' }, schema)).toEqual([
      { message: 'The field "colour" is not known.', code: 40004 },
    ]);
  });

  it('rejects a "__proto__" field read from JSON as unknown', () => {
    expect(problems(JSON.parse('{"__proto__":{"admin":true}}'), schema)).toEqual([
      { message: 'The field "__proto__" is not known.', code: 40004 },
    ]);
  });

  it('allows unknown fields when rejectUnknown is false and returns the body as it is', () => {
    const body = { title: 'Dune', colour: 'red' };
    expect(checkFields(body, schema, { rejectUnknown: false })).toBe(body);
  });

  it('returns the body itself when it fits', () => {
    const body = { title: 'Dune' };
    expect(checkFields(body, schema)).toBe(body);
  });

  it('answers a missing body with 400 code 40007', () => {
    expect(problems(undefined, schema)).toEqual([
      { message: 'The request needs a JSON object body.', code: 40007 },
    ]);
  });

  it.each([null, [], [{ title: 'Dune' }], 'Dune', 42, true])(
    'answers the non-object body %j with 400 code 40002',
    (body) => {
      expect(problems(body, schema)).toEqual([
        { message: 'The request body must be a JSON object.', code: 40002 },
      ]);
    },
  );

  it('reports every problem at once, one entry each, in schema order then unknown fields (spec 7.1.5)', () => {
    const bookSchema: FieldSchema = {
      title: { type: 'string', required: true },
      year: { type: 'integer', min: 0 },
      status: { type: 'string', enum: ['draft', 'published'] },
      authorId: { type: 'string', required: true },
      publishedAt: { type: 'date-time' },
    };
    const body = { year: -1, status: 'gone', colour: 'red', publishedAt: 'yesterday', size: 2 };
    expect(problems(body, bookSchema)).toEqual([
      { message: 'The field "title" is required.', code: 40003 },
      { message: 'The field "year" must be at least 0.', code: 40002 },
      { message: 'The field "status" must be one of "draft", "published".', code: 40002 },
      { message: 'The field "authorId" is required.', code: 40003 },
      {
        message:
          'The field "publishedAt" must be an RFC 3339 date-time such as 2026-01-31T09:00:00Z.',
        code: 40002,
      },
      { message: 'The field "colour" is not known.', code: 40004 },
      { message: 'The field "size" is not known.', code: 40004 },
    ]);
  });

  it('gives the error the code and message of its first entry', () => {
    try {
      checkFields(
        {},
        { a: { type: 'string', required: true }, b: { type: 'string', required: true } },
      );
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({
        status: 400,
        code: 40003,
        message: 'The field "a" is required.',
      });
    }
  });
});

describe('checkFields: string lengths count characters (code points)', () => {
  const emoji = (n: number) => '😀'.repeat(n);

  it('regression: accepts 150 emoji under max 150, which UTF-16 counted as 300', () => {
    expect(one(emoji(150), { type: 'string', max: 150 })).toEqual([]);
  });

  it('rejects 151 emoji under max 150', () => {
    expect(one(emoji(151), { type: 'string', max: 150 })).toEqual([
      { message: 'The field "f" must be at most 150 characters.', code: 40002 },
    ]);
  });

  it('regression: rejects 1 emoji under min 2, which UTF-16 counted as 2', () => {
    expect(one(emoji(1), { type: 'string', min: 2 })).toEqual([
      { message: 'The field "f" must be at least 2 characters.', code: 40002 },
    ]);
  });

  it('counts a lone surrogate as one character', () => {
    expect(one('\uD800\uD800', { type: 'string', max: 2 })).toEqual([]);
    expect(one('\uD800\uD800', { type: 'string', max: 1 })).toEqual([
      { message: 'The field "f" must be at most 1 characters.', code: 40002 },
    ]);
  });

  it('counts items of an array, not the characters inside them', () => {
    expect(one([emoji(3), 'ab'], { type: 'array', max: 2 })).toEqual([]);
  });
});

describe('checkFields: a bounded error body (spec 7.1.5)', () => {
  const manyUnknown = (n: number) =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, i]));

  it('regression: a body with 91,919 unknown keys gives 101 entries and a bounded body, not 91,919', () => {
    const entries = problems(manyUnknown(91_919), { title: { type: 'string' } });
    expect(entries).toHaveLength(maxErrorEntries + 1);
    expect(entries.slice(0, maxErrorEntries)).toEqual(
      Array.from({ length: maxErrorEntries }, (_, i) => ({
        message: `The field "k${i}" is not known.`,
        code: 40004,
      })),
    );
    expect(entries[maxErrorEntries]).toEqual({
      message: 'More problems were found; fix these and send the request again.',
      code: ErrorCode.MoreErrors,
    });
    expect(JSON.stringify({ errors: entries }).length).toBeLessThan(8_000);
  });

  it('reads no field after the cap is reached', () => {
    const names = Array.from({ length: 1_000 }, (_, i) => `f${i}`);
    const schema: FieldSchema = Object.fromEntries(names.map((n) => [n, { type: 'integer' }]));
    let reads = 0;
    const body = {};
    for (const n of names) {
      Object.defineProperty(body, n, {
        enumerable: true,
        get: () => {
          reads++;
          return 'not a number';
        },
      });
    }
    expect(problems(body, schema)).toHaveLength(maxErrorEntries + 1);
    expect(reads).toBe(maxErrorEntries + 1);
  });

  it('lists exactly maxErrorEntries problems in full, with no closing entry', () => {
    const entries = problems(manyUnknown(maxErrorEntries), {});
    expect(entries).toHaveLength(maxErrorEntries);
    expect(entries.some((e) => e.code === ErrorCode.MoreErrors)).toBe(false);
  });

  it('counts schema problems toward the cap before unknown fields', () => {
    const schema: FieldSchema = Object.fromEntries(
      Array.from({ length: 150 }, (_, i) => [`f${i}`, { type: 'string', required: true }]),
    );
    const entries = problems({ extra: 1 }, schema);
    expect(entries).toHaveLength(maxErrorEntries + 1);
    expect(entries[99]).toEqual({ message: 'The field "f99" is required.', code: 40003 });
    expect(entries[100]?.code).toBe(ErrorCode.MoreErrors);
  });
});

describe('ApiError: the entry cap applies to every list (spec 7.1.5)', () => {
  const list = (n: number) =>
    Array.from({ length: n }, (_, i) => ({ message: `Problem ${i}.`, code: 40002 }));

  it('regression: cuts invalidRequest with 91,922 problems to 100 and one entry counting the rest', () => {
    const error = invalidRequest(list(91_922));
    expect(error.errors).toHaveLength(maxErrorEntries + 1);
    expect(error.errors[99]).toEqual({ message: 'Problem 99.', code: 40002 });
    expect(error.errors[100]).toEqual({
      message: '…and 91,822 more problems.',
      code: ErrorCode.MoreErrors,
    });
    expect(error).toMatchObject({ code: 40002, message: 'Problem 0.' });
  });

  it('counts one left-out problem in the singular', () => {
    const error = new ApiError(400, 40002, 'Problem 0.', { errors: list(101) });
    expect(error.errors[100]).toEqual({ message: '…and 1 more problem.', code: 40008 });
  });

  it('keeps a list of maxErrorEntries entries as it is', () => {
    const errors = list(maxErrorEntries);
    expect(new ApiError(400, 40002, 'Problem 0.', { errors }).errors).toEqual(errors);
  });

  it('keeps the closing entry of a list its producer already cut', () => {
    const errors = [...list(maxErrorEntries), { message: 'And then some.', code: 40008 }];
    expect(new ApiError(400, 40002, 'Problem 0.', { errors }).errors).toEqual(errors);
  });

  it('does not count a left-out part that holds an uncounted closing entry', () => {
    const errors = [...list(120), { message: 'And then some.', code: 40008 }];
    const error = new ApiError(400, 40002, 'Problem 0.', { errors });
    expect(error.errors).toHaveLength(maxErrorEntries + 1);
    expect(error.errors[100]).toEqual({
      message: 'More problems were found; fix these and send the request again.',
      code: 40008,
    });
  });
});

describe('compileFields', () => {
  const schema: FieldSchema = {
    title: { type: 'string', required: true, max: 5 },
    slug: { type: 'string', pattern: /^[a-z]+$/g },
  };

  it('returns a checker that returns the body itself when it fits', () => {
    const check = compileFields(schema);
    const body = { title: 'Dune', slug: 'dune' };
    expect(check(body)).toBe(body);
  });

  it('gives the same 400 entries as checkFields', () => {
    const body = { title: 'Too long', slug: 'Dune', colour: 'red' };
    const check = compileFields(schema);
    const fromCompiled = (thrown(() => check(body)) as ApiError).toJSON();
    expect(fromCompiled).toEqual({ errors: problems(body, schema) });
    expect(fromCompiled.errors).toHaveLength(3);
  });

  it('checks a /g pattern the same way on every call', () => {
    const check = compileFields(schema);
    for (let i = 0; i < 3; i++) expect(check({ title: 'a', slug: 'dune' })).toBeTruthy();
  });

  it('applies partial and rejectUnknown given at compile time', () => {
    const check = compileFields(schema, { partial: true, rejectUnknown: false });
    const body = { colour: 'red' };
    expect(check(body)).toBe(body);
  });

  it('reads the schema once: a later change to it is not seen', () => {
    const mutable: Record<string, FieldRule> = { title: { type: 'string' } };
    const check = compileFields(mutable);
    mutable['year'] = { type: 'integer', required: true };
    expect(check({ title: 'Dune' })).toEqual({ title: 'Dune' });
  });

  it.each([
    [{ f: { type: 'string', min: '1' } }, 'Field "f": `min` must be a number.'],
    [{ f: { type: 'string', max: Number.NaN } }, 'Field "f": `max` must be a number.'],
    [{ f: { type: 'string', pattern: '^a$' } }, 'Field "f": `pattern` must be a RegExp.'],
    [
      { f: { type: 'string', enum: 'a' } },
      'Field "f": `enum` must be an array of the allowed values.',
    ],
    [{ f: 'string' }, 'Field "f" needs a rule object such as { type: \'string\' }.'],
    [
      { f: { type: 'string', maxLength: 3 } },
      'Field "f" has an unknown rule key "maxLength"; use type, required, nullable, min, max, pattern, enum, example.',
    ],
  ])('throws a TypeError at compile time for the schema %o', (bad, message) => {
    expect(() => compileFields(bad as unknown as FieldSchema)).toThrow(new TypeError(message));
  });

  it('throws a TypeError at compile time for a rule of unknown type, even before any body', () => {
    expect(() => compileFields({ f: { type: 'uuid' as FieldRule['type'] } })).toThrow(TypeError);
  });

  it.each([
    [{ partial: 'yes' }, 'checkFields: `partial` must be true or false; got yes.'],
    [
      { rejectUnknow: false },
      'checkFields: unknown option `rejectUnknow`. Did you mean `rejectUnknown`?',
    ],
  ])('throws a TypeError for the options %o', (options, message) => {
    expect(() => compileFields({}, options as CheckFieldsOptions)).toThrow(new TypeError(message));
  });

  it('regression: reports a required field named like an Object.prototype member as missing', () => {
    const schema = {
      constructor: { type: 'string', required: true },
      toString: { type: 'string' },
    } as const satisfies FieldSchema;
    expect(problems({}, schema)).toEqual([
      { message: 'The field "constructor" is required.', code: 40003 },
    ]);
  });
});
