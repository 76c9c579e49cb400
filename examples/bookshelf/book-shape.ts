/** How the bookshelf's books are listed and shaped: paging, filters, search, sort, fields, views, links. */
import { defineResource, hasScopes, type ListOptions, type RequestContext } from 'api-conventions';
import { z } from 'zod';
import type { Book } from './data.ts';

// What clients receive, as zod schemas: the OpenAPI document at /v1/openapi describes the
// responses with them (each `id` a named schema there), and in development each response is
// checked against them. A book is whole where no selection applies (what a write answers);
// where a read takes `fields=` and `view=`, which select a subset (spec 2.10), every member is
// optional.
const link = z
  .object({ rel: z.string(), method: z.string(), href: z.string() })
  .meta({ id: 'Link', description: 'An operation the caller may perform next (spec 2.12).' });
const bookAuthor = z.object({ id: z.string(), name: z.string() });
const example = {
  id: 'emma',
  title: 'Emma',
  authorId: 'jane-austen',
  author: { id: 'jane-austen', name: 'Jane Austen' },
  year: 1815,
  language: 'en',
  pages: 474,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  links: [{ rel: 'self', method: 'GET', href: '/v1/books/emma' }],
};
/** A book as a write answers it: every member, and the links the caller may follow (spec 2.12). */
export const book = z
  .object({
    id: z.string(),
    title: z.string(),
    authorId: z.string(),
    author: bookAuthor,
    year: z.number().int(),
    language: z.string(),
    pages: z.number().int(),
    createdAt: z.date(),
    updatedAt: z.date(),
    links: z.array(link),
  })
  .meta({ id: 'Book', description: 'A book.', examples: [example] });
/** A book as a read sends it: any selection of its members (`fields=`, `view=`, spec 2.10). */
export const bookView = book
  .extend({ author: bookAuthor.partial() })
  .partial()
  .meta({
    id: 'BookSelection',
    description: 'A book as a read selects it: the members `fields` or `view` keep (spec 2.10).',
    examples: [example],
  });
/** A page of books: the envelope of spec 2.7 and 2.8. */
export const bookPage = z
  .object({
    books: z.array(bookView),
    hasNext: z.boolean(),
    total: z.number().int().optional(),
  })
  .meta({ id: 'BookList', description: 'A page of books (spec 2.7, 2.8).' });

const href = (book: Book) => `/v1/books/${book.id}`;
const mayWrite = (ctx: RequestContext) => hasScopes(ctx.identity, 'books:write');

/** A book as clients see it: the fields they may select, three views, and the operations they may perform. */
export const bookResource = defineResource<Book>({
  fields: {
    id: true,
    title: true,
    authorId: true,
    author: { id: true, name: true },
    year: true,
    language: true,
    pages: true,
    createdAt: true,
    updatedAt: true,
  },
  views: {
    small: 'id,title',
    medium: 'id,title,authorId,year,links',
    large: '*',
  },
  links: {
    self: { method: 'GET', href },
    update: { method: 'PUT', href, when: mayWrite },
    delete: { method: 'DELETE', href, when: mayWrite },
  },
  // All the link rules read: a book's ETag differs between callers who may write and those who
  // may not, and is shared within each group (RFC 9110 §8.8.3).
  linkKey: (ctx) => (mayWrite(ctx) ? 'write' : 'read'),
});

/** `GET /v1/books`: every paging style, filters `authorId` and `year`, `q` on the title, `sort`. */
export const bookList: ListOptions<Book> = {
  name: 'books',
  defaultPerPage: 20,
  maxPerPage: 100,
  total: 'on-request',
  filters: { authorId: 'string', year: 'integer' },
  search: ['title'],
  sort: ['title', 'year', 'pages', 'createdAt', 'updatedAt'],
  // Oldest first: the order books were added in.
  defaultSort: 'createdAt',
};
