/** Versions of books for their ETags: a stamp that changes with every change of a book object. */
import type { ResourceVersion } from 'api-conventions';
import type { Book } from './data.ts';

// The start of this process, so that a tag from an earlier run never names a book of this one.
const run = Date.now().toString(36);
let counter = 0;
const stamps = new WeakMap<Book, number>();

/** Marks a book changed in place (PATCH): its next version is new. */
export function touch(book: Book): void {
  stamps.set(book, ++counter);
}

/**
 * The current version of a book, or `undefined` when there is none. A new book object (created,
 * replaced, imported) gets its stamp on first use.
 */
export function bookVersion(book: Book | undefined): ResourceVersion | undefined {
  if (book === undefined) return undefined;
  let stamp = stamps.get(book);
  if (stamp === undefined) {
    stamp = ++counter;
    stamps.set(book, stamp);
  }
  return { version: `${run}-${stamp}`, lastModified: book.updatedAt };
}

const shelves = new WeakMap<object, number>();

/** Marks a shelf changed (a book added, replaced, changed or deleted): its lists get new tags. */
export function shelfChanged(shelf: object): void {
  shelves.set(shelf, ++counter);
}

/**
 * The version of a shelf's lists: the caching plugin makes each list's tag from it, the query,
 * the format and the caller's links, so a list is never hashed byte by byte (RFC 9110 §8.8.3).
 */
export function shelfVersion(shelf: object): ResourceVersion {
  let stamp = shelves.get(shelf);
  if (stamp === undefined) {
    stamp = ++counter;
    shelves.set(shelf, stamp);
  }
  return { version: `${run}-s${stamp}` };
}
