/** How the bookshelf's books are listed and shaped: paging, filters, search, sort, fields, views, links. */
import { defineResource, hasScopes, type ListOptions, type RequestContext } from 'api-conventions';
import type { Book } from './data.ts';

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
