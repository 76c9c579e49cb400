/** The bookshelf's book imports: `POST /v1/book-imports` → 202, `GET /v1/book-imports/{id}` (spec 4.3). */
import {
  ApiError,
  compileFields,
  createJobs,
  defineRoutes,
  ErrorCode,
  type ErrorEntry,
  type FieldSchema,
  isApiError,
  type Store,
  type TypedContext,
} from 'api-conventions';
import { bookFields } from './books.ts';
import { authorOf, type Book, slugify } from './data.ts';
import { shelfChanged } from './versions.ts';

/** An import's body: a list of books, each checked by the book rules as it is imported. */
const importFields = {
  books: {
    type: 'array',
    required: true,
    example: [{ title: 'Emma', authorId: 'jane-austen', year: 1815 }],
  },
} as const satisfies FieldSchema;

/** What the document says of the 202 (the jobs' `JobStatus` schema, spec 4.3). */
const acceptedImport = {
  description: 'Accepted: the books are imported in the background; the status is at Location.',
  headers: {
    Location: { description: 'The status of the import.', schema: { type: 'string' } },
    'Retry-After': { description: 'Seconds before asking.', schema: { type: 'integer' } },
  },
  content: { 'application/json': { schema: { $ref: '#/components/schemas/JobStatus' } } },
};
const checkBook = compileFields(bookFields);
const maxBooks = 1000;
// The work takes a moment, as a real import would: a client sees `pending` before `done`.
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Fields = Pick<Book, 'title' | 'authorId' | 'year'> & Partial<Pick<Book, 'language' | 'pages'>>;

/** Checks every book of an import, naming each problem by its place in the list. */
function checkAll(list: readonly unknown[]): Fields[] {
  const problems: ErrorEntry[] = [];
  const fields: Fields[] = [];
  list.forEach((entry, i) => {
    try {
      fields.push(checkBook(entry) as Fields);
    } catch (error) {
      if (!isApiError(error)) throw error;
      for (const e of error.errors)
        problems.push({ message: `books[${i}]: ${e.message}`, code: e.code });
    }
  });
  if (problems.length > 0) {
    throw new ApiError(400, problems[0]!.code, problems[0]!.message, { errors: problems });
  }
  return fields;
}

/**
 * The imports, adding to `books`: their routes, and their jobs, a plugin (so that a failed
 * import is reported to the service's logger).
 */
export function bookImports(books: Map<string, Book>, store?: Store, delayMs = 300) {
  // Statuses live in the shared store when there is one (REDIS_URL), so any instance answers them.
  const imports = createJobs({
    path: '/v1/book-imports',
    ttlMs: 3_600_000,
    ...(store ? { store } : {}),
  });

  const uniqueId = (title: string): string => {
    const base = slugify(title) || 'book';
    let id = base;
    for (let n = 2; books.has(id); n++) id = `${base}-${n}`;
    return id;
  };

  const importBooks = async (list: readonly unknown[]) => {
    await pause(delayMs);
    const ids: string[] = [];
    for (const fields of checkAll(list)) {
      const now = new Date();
      const book: Book = {
        language: 'en',
        pages: 1,
        ...fields,
        author: authorOf(fields.authorId),
        id: uniqueId(fields.title),
        createdAt: now,
        updatedAt: now,
      };
      books.set(book.id, book);
      ids.push(book.id);
    }
    shelfChanged(books);
    return { imported: ids.length, ids };
  };

  const startImport = (ctx: TypedContext<{ body: typeof importFields }>) => {
    const list = ctx.body.books;
    if (list.length > maxBooks) {
      throw new ApiError(
        400,
        ErrorCode.InvalidField,
        `An import holds at most ${maxBooks} books; this one has ${list.length}.`,
      );
    }
    // Given the request, the job's first write waits out of its store budget.
    return imports.start(() => importBooks(list), ctx);
  };

  const routes = defineRoutes({
    '/v1/book-imports': {
      POST: {
        handler: startImport,
        config: { body: importFields, openapi: { responses: { '202': acceptedImport } } },
      },
    },
    // Spread here, beside its plugin, so that the status route gets the book scopes too.
    ...imports.routes,
  });
  return { routes, jobs: imports };
}
