/** The bookshelf's books: `/v1/books` and `/v1/books/{id}`. */
import {
  badRequest,
  created,
  createPaging,
  defineRoutes,
  type FieldSchema,
  listOf,
  noContent,
  notFound,
  type RequestContext,
} from 'api-conventions';
import { type Book, seedBooks, slugify } from './data.ts';
import { bookVersion, touch } from './versions.ts';

export const bookFields: FieldSchema = {
  title: { type: 'string', required: true, min: 1, max: 200 },
  authorId: { type: 'string', required: true, pattern: /^[a-z0-9]+(-[a-z0-9]+)*$/ },
  year: { type: 'integer', required: true, min: -3000, max: 2100 },
  language: { type: 'string', pattern: /^[a-z]{2}$/ },
  pages: { type: 'integer', min: 1, max: 100_000 },
};

/** The fields a client sends; `language` and `pages` may be left out. */
type BookFields = Pick<Book, 'title' | 'authorId' | 'year'> &
  Partial<Pick<Book, 'language' | 'pages'>>;

const idPattern = /^[a-z0-9]+(-[a-z0-9]+)*$/;

// Paging options checked once, at start-up.
const paging = createPaging({ defaultPerPage: 20, maxPerPage: 100 });

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

  const listBooks = (ctx: RequestContext) => {
    const { offset, perPage } = paging.parse(ctx.query);
    const authorId = ctx.query.get('authorId');
    const year = ctx.query.get('year');
    if (year !== null && !/^-?\d{1,4}$/.test(year)) {
      throw badRequest(`The query parameter "year" must be an integer; got "${year}".`);
    }
    const q = ctx.query.get('q')?.toLowerCase();
    const matches = [...books.values()].filter(
      (b) =>
        (authorId === null || b.authorId === authorId) &&
        (year === null || b.year === Number(year)) &&
        (q === undefined || b.title.toLowerCase().includes(q)),
    );
    const page = matches.slice(offset, offset + perPage);
    return listOf('books', page, { hasNext: offset + perPage < matches.length });
  };

  const uniqueId = (title: string): string => {
    const base = slugify(title) || 'book';
    let id = base;
    for (let n = 2; books.has(id); n++) id = `${base}-${n}`;
    return id;
  };

  const createBook = (ctx: RequestContext) => {
    const fields = ctx.body as BookFields;
    const now = new Date();
    const book: Book = {
      id: uniqueId(fields.title),
      language: 'en',
      pages: 1,
      ...fields,
      createdAt: now,
      updatedAt: now,
    };
    books.set(book.id, book);
    return created(`/v1/books/${book.id}`, book);
  };

  const replaceBook = (ctx: RequestContext) => {
    const id = ctx.param('id');
    if (!idPattern.test(id))
      throw badRequest(`The book id "${id}" must be lower-case words joined by hyphens.`);
    const existing = books.get(id);
    const now = new Date();
    const fields = ctx.body as BookFields;
    const book: Book = {
      id,
      language: 'en',
      pages: 1,
      ...fields,
      createdAt: existing?.createdAt ?? now,
      updatedAt: now,
    };
    books.set(id, book);
    // spec 4.2: PUT creates at a client-named path, or replaces what is there.
    return existing ? book : created(`/v1/books/${id}`, book);
  };

  const patchBook = (ctx: RequestContext) => {
    const book = find(ctx);
    Object.assign(book, ctx.body as Partial<Book>, { updatedAt: new Date() });
    touch(book);
    return book;
  };

  const deleteBook = (ctx: RequestContext) => {
    books.delete(find(ctx).id);
    return noContent();
  };

  return defineRoutes({
    '/v1/books': {
      GET: { handler: listBooks, config: { formats: ['json', 'xml'], suffixes: true } },
      POST: { handler: createBook, config: { body: bookFields } },
    },
    '/v1/books/:id': {
      // The version is read before the handler: 304 without building the book, and If-Match
      // on PUT, PATCH and DELETE checked before anything changes.
      GET: {
        handler: find,
        config: {
          formats: ['json', 'xml'],
          suffixes: true,
          resourceVersion: (ctx) => bookVersion(books.get(ctx.param('id'))),
        },
      },
      PUT: { handler: replaceBook, config: { body: bookFields } },
      PATCH: { handler: patchBook, config: { body: bookFields } },
      DELETE: deleteBook,
    },
  });
}
