/**
 * bookshelf-bare: node:http serving the bookshelf's first page of books (its own seed data,
 * `Date` values included) with `JSON.stringify` on every request, nothing else: the ceiling for
 * the bookshelf target.
 */
import http from 'node:http';
import { seedBooks } from '../../examples/bookshelf/data.ts';
import { HOST, PORT, ready } from './_server.mjs';

const page = { books: seedBooks().slice(0, 20), hasNext: true };

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
