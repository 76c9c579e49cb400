/**
 * The response bodies the bench servers return for `GET /v1/books`, one per payload kind.
 *
 * Built once at start-up and deterministic (no clock, no randomness), so every target
 * serializes exactly the same object and the harness can compare each response with it. Which
 * kind a server answers with is chosen in _server.mjs.
 */

const BASE = Date.UTC(2026, 0, 1, 9, 0, 0);
const HOUR = 60 * 60 * 1000;
const at = (i, minutes = 0) => new Date(BASE + i * HOUR + minutes * 60 * 1000);

/**
 * `books`: 20 books whose timestamps are already RFC 3339 strings, as the conventions ask for
 * (toISOString() yields that form); about 3.5 kB of JSON.
 */
function stringBooks() {
  const books = [];
  for (let i = 1; i <= 20; i++) {
    books.push({
      id: `bk_${String(i).padStart(4, '0')}`,
      title: `The Book of Conventions, Volume ${i}`,
      authorId: `au_${String((i % 7) + 1).padStart(4, '0')}`,
      year: 1990 + i,
      createdAt: at(i).toISOString(),
      updatedAt: at(i, 30).toISOString(),
    });
  }
  return { books, hasNext: true };
}

/**
 * `dates`: a page of 20 books as a store hands them over, `createdAt` and `updatedAt` being
 * `Date` objects (40 of them), about 2.3 kB of JSON. `JSON.stringify` calls each Date's `toJSON`,
 * which is the cost this payload exists to show.
 */
function datedBooks() {
  const books = [];
  for (let i = 1; i <= 20; i++) {
    books.push({
      id: `bk_${String(i).padStart(4, '0')}`,
      title: `Volume ${i}`,
      createdAt: at(i),
      updatedAt: at(i, 30),
    });
  }
  return { books, hasNext: true };
}

/** Every payload kind by name; each call builds a fresh object. */
export const payloadKinds = { books: stringBooks, dates: datedBooks };

/**
 * The `dates` page with every `Date` replaced by its RFC 3339 string: the same JSON text, for the
 * serializer micro-benchmark (bench/json.mjs).
 */
export function datedBooksAsStrings() {
  const page = datedBooks();
  for (const book of page.books) {
    book.createdAt = book.createdAt.toISOString();
    book.updatedAt = book.updatedAt.toISOString();
  }
  return page;
}
