/**
 * bookshelf-bare: node:http serving the body the bookshelf answers to the bench's token (scope
 * `books:read`): its first page of books from its own seed data, `Date` values included, each
 * with the one link that token may follow (`self`, spec 2.12), built once at start-up and
 * serialized with `JSON.stringify` on every request, nothing else: the ceiling for the
 * bookshelf target. Same bytes on the wire, none of the work.
 */
import { seedBooks } from '../../examples/bookshelf/data.ts';
import { listenBare } from './_server.mjs';

const page = {
  books: seedBooks()
    .slice(0, 20)
    .map((book) => ({
      ...book,
      links: [{ rel: 'self', method: 'GET', href: `/v1/books/${book.id}` }],
    })),
  hasNext: true,
};

listenBare(page);
