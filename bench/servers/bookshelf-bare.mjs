/**
 * bookshelf-bare: node:http serving the body the bookshelf answers to the bench's token (scope
 * `books:read`): its first page of books from its own seed data, `Date` values included, each
 * with the one link that token may follow (`self`, spec 2.12), built once at start-up and
 * serialized with `JSON.stringify` on every request, nothing else: the ceiling for the
 * bookshelf target. Same bytes on the wire, none of the work.
 */
import http from 'node:http';
import { seedBooks } from '../../examples/bookshelf/data.ts';
import { HOST, PORT, ready } from './_server.mjs';

const page = {
  books: seedBooks()
    .slice(0, 20)
    .map((book) => ({
      ...book,
      links: [{ rel: 'self', method: 'GET', href: `/v1/books/${book.id}` }],
    })),
  hasNext: true,
};

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/v1/books') {
    const body = JSON.stringify(page);
    res.writeHead(200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
    return;
  }
  res.writeHead(404, { 'content-length': 0 });
  res.end();
});

server.listen(PORT, HOST, () => ready(server.address().port));
