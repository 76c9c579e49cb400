/**
 * Field, filter, search and sort names are checked against the item type when it is given
 * (`defineResource<Book>`, `ListOptions<Book>`): a misspelt name is a compile error (the
 * `@ts-expect-error` lines below fail `npm run typecheck` if the error goes away), and without
 * the type any name is accepted as before.
 */
import { describe, expect, it } from 'vitest';
import { defineResource, type ListOptions } from '../../src/index.ts';

interface Book {
  id: string;
  title: string;
  author: { id: string; name: string };
  tags: { name: string }[];
  year: number;
  createdAt: Date;
}

describe('typed resource and list keys', () => {
  it('accepts the fields of the item type, nested objects and lists of objects included', () => {
    const resource = defineResource<Book>({
      fields: {
        id: true,
        title: true,
        author: { id: true, name: true },
        tags: { name: true },
        year: true,
        createdAt: true,
      },
    });
    expect(resource).toBeDefined();
    const list: ListOptions<Book> = {
      name: 'books',
      filters: { year: 'integer' },
      search: ['title'],
      sort: ['title', 'year', 'createdAt'],
      key: 'id',
    };
    expect(list.sort).toHaveLength(3);
  });

  it('refuses misspelt names at compile time, and takes any name without the type', () => {
    const typo = () =>
      defineResource<Book>({
        // @ts-expect-error `titel` is not a field of Book
        fields: { id: true, titel: true },
      });
    expect(typo).not.toThrow(); // at run time the tree is fine: only the type checker knows Book
    const nested = () =>
      // @ts-expect-error `nmae` is not a field of Book's author
      defineResource<Book>({ fields: { author: { nmae: true } } });
    expect(nested).not.toThrow();
    const lists: ListOptions<Book>[] = [
      // @ts-expect-error `titel` is not sortable: Book has no such field
      { name: 'books', sort: ['titel'] },
      // @ts-expect-error `yaer` is not a field of Book
      { name: 'books', filters: { yaer: 'integer' } },
      // @ts-expect-error `tilte` is not a field of Book
      { name: 'books', search: ['tilte'] },
    ];
    expect(lists).toHaveLength(3);
    const untyped: ListOptions = { name: 'books', sort: ['anything'] };
    expect(defineResource({ fields: { anything: true } })).toBeDefined();
    expect(untyped.sort).toEqual(['anything']);
  });
});
