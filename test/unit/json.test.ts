/**
 * The JSON writer: the built-in's text for every value, with the `Date`s it holds put in as
 * their text first (RFC 8259; ECMA-262 §25.5.2).
 */
import { describe, expect, it } from 'vitest';
import { seedBooks } from '../../examples/bookshelf/data.ts';
import { stringifyJson } from '../../src/core/http/json.ts';

// fast-check drives the property test; without it that test is skipped, saying why.
const fc = await import('fast-check').catch(() => undefined);

/** What `JSON.stringify` gives, or the class of the error it throws. */
function builtIn(value: unknown): string | undefined {
  try {
    return JSON.stringify(value);
  } catch (error) {
    return `throws ${(error as Error).constructor.name}`;
  }
}

function ours(value: unknown): string | undefined {
  try {
    return stringifyJson(value);
  } catch (error) {
    return `throws ${(error as Error).constructor.name}`;
  }
}

const sparse: unknown[] = [1];
sparse[3] = 4;

// Each value is built fresh per test, so a toJSON that records its calls starts clean.
const table: [string, () => unknown][] = [
  ['a Date', () => new Date('2026-01-31T09:00:00Z')],
  ['the epoch', () => new Date(0)],
  ['a Date before 1970 with milliseconds', () => new Date(-1)],
  ['a Date past year 9999', () => new Date(Date.UTC(10000, 0, 1))],
  ['a Date before year 0', () => new Date(Date.UTC(-1, 0, 1))],
  ['an invalid Date', () => new Date(Number.NaN)],
  [
    'Dates in an object and an array',
    () => ({ at: new Date(0), list: [new Date(1), new Date('x')] }),
  ],
  ['a toJSON', () => ({ toJSON: () => ({ a: 1 }) })],
  ['a nested toJSON', () => ({ a: { toJSON: () => ({ b: { toJSON: () => [1, { c: 2 }] } }) } })],
  [
    'toJSON with the key',
    () => ({ k: { toJSON: (key: string) => key }, list: [{ toJSON: (key: string) => key }] }),
  ],
  ['toJSON at the root, with the empty key', () => ({ toJSON: (key: string) => `root:${key}` })],
  ['toJSON on the prototype', () => Object.create({ toJSON: () => 'from the prototype' })],
  [
    'toJSON returning undefined',
    () => ({ a: { toJSON: () => undefined }, b: [{ toJSON: () => undefined }] }),
  ],
  ['toJSON returning a function', () => ({ a: { toJSON: () => () => 1 } })],
  ['a URL (its toJSON)', () => new URL('https://example.com/v1/books?page=2')],
  ['a Buffer (its toJSON)', () => Buffer.from('hi')],
  ['an array with holes', () => sparse],
  ['new Array(3)', () => new Array(3)],
  ['an array with undefined, functions and symbols', () => [undefined, () => 1, Symbol('s'), null]],
  [
    'an object with undefined, functions and symbols',
    () => ({ a: undefined, b: () => 1, c: Symbol('s'), d: null }),
  ],
  ['symbol keys', () => ({ [Symbol('s')]: 1, a: 2 })],
  ['integer-like keys, in the order JSON.stringify walks them', () => ({ b: 1, 2: 2, a: 3, 1: 4 })],
  ['keys that need escaping', () => ({ 'a"b': 1, '\n': 2, '\\': 3, '\ud800': 4 })],
  ['a lone high surrogate', () => 'a\ud800b'],
  ['a lone low surrogate', () => '\udc00'],
  ['a surrogate pair', () => '😀'],
  ['a reversed surrogate pair', () => '\ude00\ud83d'],
  ['control characters', () => '\u0000\u0001\b\t\n\f\r\u001f'],
  ['DEL, U+2028 and U+2029, which JSON leaves as they are', () => '\u007f\u2028\u2029'],
  ['quotes and backslashes', () => '"\\/'],
  ['-0', () => -0],
  [
    'NaN and the infinities',
    () => [Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY],
  ],
  ['small and large numbers', () => [1e-7, 1e21, 0.1 + 0.2, Number.MAX_SAFE_INTEGER, 5e-324]],
  [
    'boxed primitives',
    () => [new Number(3), new String('s'), new Boolean(false), Object(Symbol('s'))],
  ],
  ['a Map and a Set', () => ({ map: new Map([['a', 1]]), set: new Set([1]) })],
  ['a typed array', () => new Uint8Array([1, 2])],
  ['an object without a prototype', () => Object.assign(Object.create(null), { a: 1 })],
  [
    'a getter',
    () => ({
      get g() {
        return 1;
      },
    }),
  ],
  ['a non-enumerable property', () => Object.defineProperty({ a: 1 }, 'hidden', { value: 2 })],
  [
    'a class instance',
    () =>
      new (class {
        x = 1;
        method() {}
      })(),
  ],
  ['undefined at the root', () => undefined],
  ['a function at the root', () => () => 1],
  ['a symbol at the root', () => Symbol('s')],
  ['a BigInt, which throws', () => ({ n: 1n })],
  ['a deep value', () => Array.from({ length: 200 }).reduce((inner) => ({ inner: [inner] }), 0)],
];

describe('stringifyJson', () => {
  it.each(table)('writes %s as JSON.stringify does', (_, make) => {
    expect(ours(make())).toBe(builtIn(make()));
  });

  // Regressions: each row once differed from JSON.stringify.
  it.each<[string, () => unknown]>([
    // A Date's own toJSON, or its subclass's, is asked, as for any object.
    ['a Date with its own toJSON', () => Object.assign(new Date(0), { toJSON: () => 'own' })],
    [
      'a Date subclass with its own toJSON',
      () =>
        new (class extends Date {
          override toJSON() {
            return 'custom';
          }
        })(0),
    ],
    // An array's toJSON is asked before it is written as an array.
    ['an array with a toJSON', () => Object.assign([1], { toJSON: () => 'array' })],
    // JSON.stringify calls toJSON once; a Date it returns is then an object without own keys.
    ['a toJSON that returns a Date', () => ({ toJSON: () => new Date(0) })],
    // A boxed BigInt throws in JSON.stringify.
    ['a boxed BigInt, which throws', () => Object(1n)],
    // A cycle throws JSON.stringify's TypeError, not a RangeError after thousands of frames.
    [
      'a cycle, which throws a TypeError',
      () => {
        const cycle: Record<string, unknown> = {};
        cycle['self'] = cycle;
        return cycle;
      },
    ],
  ])('writes %s as JSON.stringify does', (_, make) => {
    expect(ours(make())).toBe(builtIn(make()));
  });

  it('writes keys that need escaping, and long keys, beside Dates as JSON.stringify does, every time', () => {
    const value = {
      at: new Date(0),
      'a"b': 1,
      'line\nbreak': 2,
      '\ud800': 3,
      ['k'.repeat(100)]: 4,
      [`${'k'.repeat(100)}x`]: 5,
    };
    for (let round = 0; round < 3; round++)
      expect(stringifyJson(value)).toBe(JSON.stringify(value));
  });

  it('writes a Date changed in place with its new instant, though the old text was remembered', () => {
    const date = new Date(Date.UTC(2026, 0, 1));
    const first = stringifyJson({ at: date });
    date.setUTCFullYear(2030);
    expect(first).toBe('{"at":"2026-01-01T00:00:00.000Z"}');
    expect(stringifyJson({ at: date })).toBe('{"at":"2030-01-01T00:00:00.000Z"}');
  });

  it('writes more distinct instants than it remembers (10,000), twice over, as JSON.stringify does', () => {
    const dates = Array.from(
      { length: 10_000 },
      (_, i) => new Date(Date.UTC(2000, 0, 1) + i * 61_001),
    );
    for (let round = 0; round < 2; round++) {
      expect(stringifyJson({ dates })).toBe(JSON.stringify({ dates }));
    }
  });

  it('calls a toJSON once per value, as JSON.stringify does', () => {
    let calls = 0;
    const value = {
      a: {
        toJSON() {
          calls++;
          return 1;
        },
      },
    };
    stringifyJson(value);
    expect(calls).toBe(1);
  });

  describe.skipIf(fc === undefined)(
    fc === undefined ? 'property (skipped: install fast-check)' : 'property',
    () => {
      it('writes any JSON or response-shaped value, with Dates and own __proto__ members among it, as JSON.stringify does', () => {
        const f = fc!;
        const date = f.date({ min: new Date(-8.64e15), max: new Date(8.64e15) });
        const withDates = f.letrec((tie) => ({
          value: f.oneof(
            { depthSize: 'small', withCrossShrink: true },
            f.jsonValue({ maxDepth: 2 }),
            date,
            f.constant(new Date(Number.NaN)),
            f.string({ unit: 'binary' }),
            f.string({
              unit: f.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)),
            }),
            f.array(tie('value'), { maxLength: 5 }),
            f.dictionary(f.string(), tie('value'), { maxKeys: 5 }),
            f.dictionary(
              f.constantFrom('id', 'at', 'count', 'tags', 'owner', 'name', 'maybe', '__proto__'),
              tie('value'),
              { maxKeys: 5 },
            ),
            f.record({
              id: f.string(),
              at: f.oneof(date, f.string()),
              count: f.oneof(f.integer(), f.double()),
              tags: f.array(f.record({ name: f.string(), since: date }), { maxLength: 3 }),
            }),
            date.map(withProtoMember),
          ),
        })).value;
        f.assert(
          f.property(withDates, (value) => {
            expect(ours(value)).toBe(builtIn(value));
          }),
          { numRuns: 500 },
        );
      });
    },
  );
});

// A response value of every kind the writer looks into: nested objects, arrays of objects,
// Dates at several depths, null, a union.
const note = () => ({
  id: 'n1',
  at: new Date(Date.UTC(2026, 0, 31, 9)),
  count: 3,
  ratio: 0.1 + 0.2,
  kind: 'a',
  tags: [{ name: 'x"y', since: new Date(0) }],
  owner: { name: 'Ann\n', joined: new Date(-1) },
  maybe: null,
  either: [new Date(1), new Date(2)],
});

const holes: unknown[] = [];
holes[1] = { name: 'a', at: new Date(0) };

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

describe('stringifyJson on response values', () => {
  it("writes the bookshelf's list page, 40 Dates in it, as JSON.stringify does", () => {
    const page = {
      books: seedBooks()
        .slice(0, 20)
        .map((b) => ({ ...b, links: [{ rel: 'self', method: 'GET', href: `/v1/books/${b.id}` }] })),
      hasNext: true,
    };
    expect(JSON.stringify(page)).toContain('"createdAt":"2026-');
    expect(stringifyJson(page)).toBe(JSON.stringify(page));
  });

  it.each<[string, () => unknown]>([
    ['a value with Dates at several depths', note],
    ['extra members beside Dates', () => ({ ...note(), extra: { deep: [new Date(0)] }, 'a"b': 1 })],
    [
      'a Date with its own toJSON',
      () => ({ at: Object.assign(new Date(0), { toJSON: () => 'own' }) }),
    ],
    [
      'a Date with its own toISOString',
      () => ({ at: Object.assign(new Date(0), { toISOString: () => 'own' }) }),
    ],
    [
      'a toJSON on the object itself, beside a Date',
      () => ({ toJSON: () => 'whole', at: new Date(0) }),
    ],
    [
      'a toJSON that reads the Date beside it',
      () => ({
        at: new Date(0),
        toJSON(this: { at: unknown }) {
          return this.at instanceof Date ? 'a Date' : 'a string';
        },
      }),
    ],
    [
      'an array whose toJSON reads the Dates in it',
      () =>
        Object.assign([{ since: new Date(0) }], {
          toJSON(this: { since: unknown }[]) {
            return this[0]!.since instanceof Date;
          },
        }),
    ],
    [
      'an array with a toJSON, holding a Date',
      () => ({ tags: Object.assign([{ since: new Date(0) }], { toJSON: () => 'arr' }) }),
    ],
    [
      'a class instance holding a Date',
      () =>
        new (class {
          id = 'x';
          at = new Date(0);
        })(),
    ],
    [
      'an object without a prototype, holding a Date',
      () => Object.assign(Object.create(null), { id: 'x', at: new Date(0) }),
    ],
    [
      'inherited enumerable members beside a Date',
      () => Object.assign(Object.create({ inherited: 1 }), { id: 'x', at: new Date(0) }),
    ],
    [
      'a Date its object inherits',
      () => ({ owner: Object.assign(Object.create({ joined: new Date(0) }), { name: 'x' }) }),
    ],
    [
      'a Date in a member that is not enumerable',
      () => Object.defineProperty({ id: 'x' }, 'at', { value: new Date(0), enumerable: false }),
    ],
    [
      'a Date behind a getter',
      () => ({
        id: 'x',
        get at() {
          return new Date(7);
        },
      }),
    ],
    ['a Date in an own __proto__ member', () => withProtoMember(new Date(3))],
    ['holes in an array of objects with Dates', () => ({ tags: holes })],
    [
      'a cycle beside a Date, which throws a TypeError',
      () => {
        const cycle: Record<string, unknown> = { at: new Date(0) };
        cycle.owner = cycle;
        return cycle;
      },
    ],
  ])('writes %s as JSON.stringify does', (_, make) => {
    expect(ours(make())).toBe(builtIn(make()));
  });

  it('writes as JSON.stringify does when Object.prototype was polluted with an enumerable member', () => {
    (Object.prototype as Record<string, unknown>).polluted = 'yes';
    try {
      expect(stringifyJson(note())).toBe(JSON.stringify(note()));
      expect(stringifyJson(note())).not.toContain('polluted');
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    // An inherited Date is not written: JSON.stringify skips it.
    (Object.prototype as Record<string, unknown>).maybe = new Date(0);
    try {
      const value = { id: 'x', at: new Date(0) };
      expect(stringifyJson(value)).toBe(JSON.stringify(value));
      expect(stringifyJson(value)).toBe('{"id":"x","at":"1970-01-01T00:00:00.000Z"}');
    } finally {
      delete (Object.prototype as Record<string, unknown>).maybe;
    }
  });

  it("leaves the handler's value as it was: Dates stay Dates, nothing is copied into it", () => {
    const value = note();
    const before = structuredClone(value);
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
    expect(value).toEqual(before);
    expect(value.at).toBeInstanceOf(Date);
    expect(value.tags[0]!.since).toBeInstanceOf(Date);
  });
});
