/**
 * A list's shaped items, walked for their `Date`s by the walker of their selection: the JSON text
 * is the built-in's whatever the items hold (ECMA-262 §25.5.2), and the items stay as they were.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyJson, walkDateTextsWith } from '../../src/core/http/json.ts';
import { dateTextsOf } from '../../src/core/shaping/date-texts.ts';
import { projectorOf } from '../../src/core/shaping/project.ts';
import {
  compileSelection,
  type FieldTree,
  parseFields,
} from '../../src/core/shaping/select-fields.ts';
import { handlerValues } from './_projector-property.ts';

const tree: FieldTree = {
  id: true,
  at: true,
  author: { name: true, born: true },
  tags: { name: true, since: true },
  toJSON: true,
};
const selection = (fields: string) => compileSelection(parseFields(fields), tree, [], 'the test');

/** The envelope the payloads plugin sends: projected items with their links, walker attached. */
function page(fields: string, items: readonly unknown[], links: unknown = []): object {
  const selected = selection(fields);
  const project = projectorOf(selected, 'links');
  const shaped = items.map((item) =>
    typeof item === 'object' && item !== null && !Array.isArray(item) ? project(item, links) : item,
  );
  const walker = dateTextsOf(selected);
  if (walker !== null) walkDateTextsWith(shaped, walker);
  return { books: shaped, hasNext: true };
}

const book = () => ({
  id: 'emma',
  at: new Date(Date.UTC(2026, 0, 31, 9)),
  author: { name: 'Jane Austen', born: new Date(Date.UTC(1775, 11, 16)) },
  tags: [{ name: 'novel', since: new Date(0) }, { name: 'classic' }, 'loose', null],
  secret: new Date(1),
});

describe('dateTextsOf: the Dates of shaped items', () => {
  it('writes dates in members, in selections inside them and in their lists as JSON.stringify does', () => {
    const value = page('id,at,author,tags', [book(), book()]);
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
    expect(stringifyJson(value)).toContain('"born":"1775-12-16T00:00:00.000Z"');
  });

  it('puts each Date of a selected member in as its text, in copies of the items on the way', () => {
    const items = (page('id,at,author', [book()]) as { books: object[] }).books;
    const walked = dateTextsOf(selection('id,at,author'))!(items, 1) as Record<string, unknown>[];
    expect(walked).not.toBe(items);
    expect(walked[0]!.at).toBe('2026-01-31T09:00:00.000Z');
    expect(walked[0]!.author).toEqual({ name: 'Jane Austen', born: '1775-12-16T00:00:00.000Z' });
    expect(walked[0]!.links).toBe((items[0] as { links: unknown }).links);
  });

  it('leaves the items as they were: Dates stay Dates, nothing is copied into them', () => {
    const value = page('id,at,author,tags', [book()]) as { books: Record<string, unknown>[] };
    stringifyJson(value);
    const item = value.books[0]!;
    expect(item.at).toBeInstanceOf(Date);
    expect((item.author as { born: unknown }).born).toBeInstanceOf(Date);
    expect((item.tags as { since?: unknown }[])[0]!.since).toBeInstanceOf(Date);
  });

  it('writes items the projector gave back as they were (a Date, an array, a number)', () => {
    const value = page('id,at', [new Date(5), [new Date(6)], 7, book()]);
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
  });

  it('leaves a Date in the links to the built-in, with the same text', () => {
    const value = page('id,at', [book()], [{ rel: 'self', at: new Date(9) }]);
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
  });

  it('has no walker for a selection with a member named toJSON, which JSON.stringify calls', () => {
    expect(dateTextsOf(selection('id,toJSON'))).toBeNull();
    const value = page('id,toJSON', [{ id: 'x', toJSON: () => ({ at: new Date(0) }) }]);
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
  });

  it('writes as JSON.stringify does when Object.prototype has a toJSON', () => {
    const value = page('id,at,author', [book()]);
    (Object.prototype as Record<string, unknown>).toJSON = function (this: unknown) {
      return this instanceof Date ? 'a date' : this;
    };
    try {
      expect(stringifyJson(value)).toBe(JSON.stringify(value));
    } finally {
      delete (Object.prototype as Record<string, unknown>).toJSON;
    }
  });

  it('writes any list of items as JSON.stringify does (property)', () => {
    const value = handlerValues(['id', 'at', 'name', 'born', 'since'], 4);
    const wanted = fc.constantFrom('id', 'id,at', 'at,author', 'author(born),tags(since)', 'tags');
    fc.assert(
      fc.property(fc.array(value, { maxLength: 4 }), wanted, (items, fields) => {
        const sent = page(fields, items);
        return stringifyJson(sent) === JSON.stringify(sent);
      }),
      { numRuns: 500 },
    );
  });
});
