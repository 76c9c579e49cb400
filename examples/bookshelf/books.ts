/** The bookshelf's books: `/v1/books` and `/v1/books/{id}`. */
import {
  badRequest,
  created,
  defineRoutes,
  type FieldSchema,
  noContent,
  notFound,
  pageArray,
  type RequestContext,
  type TypedContext,
} from 'api-conventions';
import { book, bookList, bookPage, bookResource, bookView } from './book-shape.ts';
import { authorOf, type Book, seedBooks, slugify } from './data.ts';
import { bookVersion, shelfChanged, shelfVersion, touch } from './versions.ts';

export const bookFields = {
  title: { type: 'string', required: true, min: 1, max: 200, example: 'Emma' },
  authorId: {
    type: 'string',
    required: true,
    pattern: /^[a-z0-9]+(-[a-z0-9]+)*$/,
    example: 'jane-austen',
  },
  year: { type: 'integer', required: true, min: -3000, max: 2100, example: 1815 },
  language: { type: 'string', pattern: /^[a-z]{2}$/, example: 'en' },
  pages: { type: 'integer', min: 1, max: 100_000, example: 474 },
} as const satisfies FieldSchema;

/** What a book route's handler reads: the body as the field rules describe it (partial on PATCH). */
type BookContext<M extends string> = TypedContext<{ body: typeof bookFields }, M>;

const idPattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;

/** A freshly seeded shelf, by id. */
export function seedShelf(): Map<string, Book> {
  return new Map<string, Book>(seedBooks().map((b) => [b.id, b]));
}

/** The book routes over `books` (their own freshly seeded books by default). */
export function bookRoutes(books: Map<string, Book> = seedShelf()) {
  const find = (ctx: RequestContext): Book => {
    const id = ctx.param('id');
    const book = books.get(id);
    if (!book) throw notFound(`No book with id "${id}".`);
    return book;
  };

  // Paging, filters, q and sort were read from the route's `list` before the handler runs;
  // the response step shapes each book (fields, view, links) and writes the envelope.
  const listBooks = (ctx: RequestContext) => pageArray(ctx, [...books.values()]);

  const uniqueId = (title: string): string => {
    const base = slugify(title) || 'book';
    let id = base;
    for (let n = 2; books.has(id); n++) id = `${base}-${n}`;
    return id;
  };

  const createBook = (ctx: BookContext<'POST'>) => {
    const fields = ctx.body;
    const now = new Date();
    const book: Book = {
      id: uniqueId(fields.title),
      language: 'en',
      pages: 1,
      ...fields,
      author: authorOf(fields.authorId),
      createdAt: now,
      updatedAt: now,
    };
    books.set(book.id, book);
    shelfChanged(books);
    return created(`/v1/books/${book.id}`, book);
  };

  const replaceBook = (ctx: BookContext<'PUT'>) => {
    const id = ctx.param('id');
    if (!idPattern.test(id))
      throw badRequest(`The book id "${id}" must be lower-case words joined by hyphens.`);
    const existing = books.get(id);
    const now = new Date();
    const fields = ctx.body;
    const book: Book = {
      id,
      language: 'en',
      pages: 1,
      ...fields,
      author: authorOf(fields.authorId),
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    books.set(id, book);
    shelfChanged(books);
    // spec 4.2: PUT creates at a client-named path, or replaces what is there.
    return existing ? book : created(`/v1/books/${id}`, book);
  };

  const patchBook = (ctx: BookContext<'PATCH'>) => {
    const book = find(ctx);
    const fields = ctx.body;
    Object.assign(book, fields, { updatedAt: new Date() });
    if (fields.authorId !== undefined) book.author = authorOf(fields.authorId);
    touch(book);
    shelfChanged(books);
    return book;
  };

  const deleteBook = (ctx: RequestContext) => {
    books.delete(find(ctx).id);
    shelfChanged(books);
    return noContent();
  };

  const resource = bookResource;
  return defineRoutes({
    '/v1/books': {
      GET: {
        handler: listBooks,
        config: {
          list: bookList,
          resource,
          formats: ['json', 'xml'],
          suffixes: true,
          // The list's tag from the shelf's version: 304 before the page is built, no hashing.
          resourceVersion: () => shelfVersion(books),
          response: { 200: bookPage },
        },
      },
      POST: {
        handler: createBook,
        // The shelf's version names the lists, not the created book: no ETag on the 201.
        config: { body: bookFields, resource, etag: false, response: { 201: book } },
      },
    },
    '/v1/books/:id': {
      // The version is read before the handler: 304 without building the book, and If-Match
      // on PUT, PATCH and DELETE checked before anything changes.
      GET: {
        handler: find,
        config: {
          resource,
          formats: ['json', 'xml'],
          suffixes: true,
          // One book is also application/vnd.bookshelf.book+json (and +xml, and ….book.v1+…).
          vendorTypes: ['book'],
          resourceVersion: (ctx) => bookVersion(books.get(ctx.param('id'))),
          response: { 200: bookView },
        },
      },
      PUT: {
        handler: replaceBook,
        config: { body: bookFields, resource, response: { 200: book, 201: book } },
      },
      PATCH: {
        handler: patchBook,
        config: { body: bookFields, resource, response: { 200: book } },
      },
      DELETE: {
        handler: deleteBook,
        // The document's word for what the handler answers: 204, never a body.
        config: { openapi: { responses: { '204': { description: 'Deleted: no content.' } } } },
      },
    },
  });
}
