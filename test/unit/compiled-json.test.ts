/**
 * JSON writers compiled from a response schema (issue 22, item 6): exactly `JSON.stringify`'s
 * text for every value, fitting the schema or not (RFC 8259; ECMA-262 §25.5.2).
 */
import { describe, expect, it } from 'vitest';
import { bookPage } from '../../examples/bookshelf/book-shape.ts';
import { seedBooks } from '../../examples/bookshelf/data.ts';
import { compileJsonWriter } from '../../src/core/http/compiled-json.ts';
import { standardJsonSchema } from '../../src/core/openapi/json-schema.ts';
import { builtIn, checkWriters, noteSchema, ours } from './_json-writer-property.ts';
import { expectWithoutCodegen } from './_without-codegen.ts';

const writeNote = compileJsonWriter(noteSchema);

const fitting = () => ({
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
holes[1] = { name: 'a' };

const cycle: Record<string, unknown> = { id: 'c' };
cycle.owner = cycle;

describe('a JSON writer compiled from a response schema', () => {
  it('writes the bookshelf page as JSON.stringify does (the schema the bookshelf declares)', () => {
    const write = compileJsonWriter(standardJsonSchema(bookPage, 'output'));
    const page = {
      books: seedBooks()
        .slice(0, 20)
        .map((b) => ({ ...b, links: [{ rel: 'self', method: 'GET', href: `/v1/books/${b.id}` }] })),
      hasNext: true,
    };
    expect(write(page)).toBe(JSON.stringify(page));
  });

  it.each<[string, () => unknown]>([
    ['a fitting value', fitting],
    ['members in another order than the schema', () => ({ count: 1, id: 'x', at: new Date(5) })],
    ['extra members', () => ({ ...fitting(), extra: { deep: [new Date(0)] }, 'a"b': 1 })],
    ['members of other types', () => ({ id: 1, at: 'not a date', count: '3', tags: 'none' })],
    [
      'undefined, functions and symbols',
      () => ({ id: undefined, at: () => 1, count: Symbol('s') }),
    ],
    [
      'NaN, the infinities and -0',
      () => ({ count: Number.NaN, ratio: -0, at: Number.POSITIVE_INFINITY }),
    ],
    [
      'an invalid Date and a Date past 9999',
      () => ({ at: new Date(Number.NaN), owner: { joined: new Date(Date.UTC(10000, 0)) } }),
    ],
    [
      'a Date with its own toJSON',
      () => ({ at: Object.assign(new Date(0), { toJSON: () => 'own' }) }),
    ],
    ['a toJSON using its key', () => ({ id: { toJSON: (key: string) => `key:${key}` } })],
    ['a toJSON on the object itself', () => ({ toJSON: () => 'whole', id: 'x' })],
    [
      'an array with a toJSON',
      () => ({ tags: Object.assign([{ name: 'a' }], { toJSON: () => 'arr' }) }),
    ],
    [
      'a class instance',
      () =>
        new (class {
          id = 'x';
          count = 2;
        })(),
    ],
    ['an object without a prototype', () => Object.assign(Object.create(null), { id: 'x' })],
    [
      'inherited enumerable members',
      () => Object.assign(Object.create({ inherited: 1 }), { id: 'x' }),
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
    ['a union of an object and an array of Dates', () => ({ either: { at: new Date(3) } })],
    ['a nullable Date', () => ({ maybe: new Date(4) })],
    ['integer-like keys', () => ({ b: 1, 2: 2, id: 'x', 1: 4 })],
    ['an array at the root', () => [fitting()]],
    ['a string at the root', () => 'text'],
    ['undefined at the root', () => undefined],
    ['holes in an array', () => ({ tags: holes })],
    ['a BigInt, which throws', () => ({ count: 1n })],
    ['a cycle, which throws a TypeError', () => cycle],
    ['lone surrogates', () => ({ id: '\ud800', tags: [{ name: '\udc00' }] })],
  ])('writes %s as JSON.stringify does', (_, make) => {
    expect(ours(writeNote, make())).toBe(builtIn(make()));
  });

  it('writes as JSON.stringify does when Object.prototype was polluted with an enumerable member', () => {
    (Object.prototype as Record<string, unknown>).polluted = 'yes';
    try {
      expect(writeNote(fitting())).toBe(JSON.stringify(fitting()));
      expect(writeNote(fitting())).not.toContain('polluted');
    } finally {
      delete (Object.prototype as Record<string, unknown>).polluted;
    }
    // An inherited Date where the schema expects one is not written: JSON.stringify skips it.
    (Object.prototype as Record<string, unknown>).maybe = new Date(0);
    try {
      const value = { id: 'x' };
      expect(writeNote(value)).toBe(JSON.stringify(value));
      expect(writeNote(value)).toBe('{"id":"x"}');
    } finally {
      delete (Object.prototype as Record<string, unknown>).maybe;
    }
  });

  it("leaves the handler's value as it was: Dates stay Dates, nothing is copied into it", () => {
    const value = fitting();
    const before = structuredClone(value);
    const text = writeNote(value);
    expect(text).toBe(JSON.stringify(value));
    expect(value).toEqual(before);
    expect(value.at).toBeInstanceOf(Date);
    expect(value.tags[0]!.since).toBeInstanceOf(Date);
  });

  it('writes any value as JSON.stringify does, under any of several schemas (property)', () => {
    // Node compiles code: each object's replacer is a generated function.
    checkWriters();
  });

  it('writes the same where code cannot be compiled, as on Workers (property)', () => {
    expectWithoutCodegen(
      new URL('./_json-writer-property.ts', import.meta.url),
      'writers ok (compilesCode: false)',
    );
  });
});
