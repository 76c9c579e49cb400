/**
 * A list's shaped items, walked for their `Date`s by the walker of their selection: the JSON text
 * is the built-in's whatever the items hold (ECMA-262 §25.5.2). `stringifyJson` leaves the items as
 * they were; the response's writer puts the texts into the copies made for it alone.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  stringifyJson,
  stringifyResponseJson,
  walkDateTextsWith,
} from '../../src/core/http/json.ts';
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

/**
 * The envelope the payloads plugin sends: projected items with their links, walker attached; with
 * `own`, as copies made for this response alone.
 */
function page(fields: string, items: readonly unknown[], links: unknown = [], own = false): object {
  const selected = selection(fields);
  const project = projectorOf(selected, 'links');
  const shaped = items.map((item) =>
    typeof item === 'object' && item !== null && !Array.isArray(item) ? project(item, links) : item,
  );
  const walker = dateTextsOf(selected);
  if (walker !== null) walkDateTextsWith(shaped, walker, own);
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
    const walked = dateTextsOf(selection('id,at,author'))!(items, 1, undefined) as Record<
      string,
      unknown
    >[];
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

describe('stringifyResponseJson: the response writer on copies made for it alone', () => {
  type Page = { books: Record<string, unknown>[] };

  it('puts each Date of an item in as its text, in the item itself, copying none', () => {
    const value = page('id,at,tags', [book(), book()], [], true) as Page;
    const items = [...value.books];
    const tags = items[0]!.tags as { since?: unknown }[];
    const wanted = JSON.stringify(value);
    expect(stringifyResponseJson(value)).toBe(wanted);
    for (let i = 0; i < items.length; i++) expect(value.books[i]).toBe(items[i]);
    expect(items[0]!.at).toBe('2026-01-31T09:00:00.000Z');
    // The list inside is walked with copies: a hook may have put a value of its own there.
    expect(tags[0]!.since).toBeInstanceOf(Date);
    expect((items[0]!.tags as { since?: unknown }[])[0]!.since).toBe('1970-01-01T00:00:00.000Z');
    expect(stringifyResponseJson(value)).toBe(wanted);
  });

  it('copies a selection inside an item instead of writing into it', () => {
    const value = page('id,author', [book()], [], true) as Page;
    const author = value.books[0]!.author as { born: unknown };
    expect(stringifyResponseJson(value)).toBe(JSON.stringify(value));
    expect(author.born).toBeInstanceOf(Date);
    expect(value.books[0]!.author).not.toBe(author);
  });

  it('leaves as it was a value a hook put in the list in place of a copy', () => {
    const value = page('id,at', [book(), book()], [], true) as Page;
    const shared = { id: 'shared', at: new Date(7) };
    value.books[1] = shared;
    value.books.push(shared);
    expect(stringifyResponseJson(value)).toBe(JSON.stringify(value));
    expect(shared.at).toBeInstanceOf(Date);
    expect(value.books[0]!.at).toBe('2026-01-31T09:00:00.000Z');
  });

  it('leaves the copies as they were when stringifyJson writes them', () => {
    const value = page('id,at', [book()], [], true) as Page;
    expect(stringifyJson(value)).toBe(JSON.stringify(value));
    expect(value.books[0]!.at).toBeInstanceOf(Date);
  });

  it('writes any list of items as JSON.stringify does before (property)', () => {
    const value = handlerValues(['id', 'at', 'name', 'born', 'since'], 4);
    const wanted = fc.constantFrom('id', 'id,at', 'at,author', 'author(born),tags(since)', 'tags');
    fc.assert(
      fc.property(fc.array(value, { maxLength: 4 }), wanted, (items, fields) => {
        const sent = page(fields, items, [], true);
        const before = JSON.stringify(sent);
        return stringifyResponseJson(sent) === before && JSON.stringify(sent) === before;
      }),
      { numRuns: 500 },
    );
  });
});
