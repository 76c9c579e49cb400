/** How the bookshelf's books are listed and shaped: paging, filters, search, sort, fields, views, links. */
import { defineResource, hasScopes, type ListOptions, type RequestContext } from 'api-conventions';
import { z } from 'zod';
import type { Book } from './data.ts';

// What clients receive, as zod schemas: the OpenAPI document at /v1/openapi describes the
// responses with them, and in development each response is checked against them. Every field
// is optional because `fields=` and `view=` select a subset (spec 2.10).
const link = z.object({ rel: z.string(), method: z.string(), href: z.string() });
/** A book as sent: any selection of its fields, and the links the caller may follow (spec 2.12). */
export const bookView = z
  .object({
    id: z.string(),
    title: z.string(),
    authorId: z.string(),
    author: z.object({ id: z.string(), name: z.string() }).partial(),
    year: z.number().int(),
    language: z.string(),
    pages: z.number().int(),
    createdAt: z.date(),
    updatedAt: z.date(),
    links: z.array(link),
  })
  .partial();
/** A page of books: the envelope of spec 2.7 and 2.8. */
export const bookPage = z.object({
  books: z.array(bookView),
  hasNext: z.boolean(),
  total: z.number().int().optional(),
});

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
