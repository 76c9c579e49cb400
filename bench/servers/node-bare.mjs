/**
 * node-bare: `node:http` with nothing on top, the floor for `node-ours`.
 *
 * The body is serialized on every request (not cached) because our adapter does the same work;
 * a cached string would measure a different thing.
 */
import http from 'node:http';
import { HOST, PORT, payload, ready } from './_server.mjs';

const server = http.createServer((req, res) => {
  if (req.method === 'GET' && req.url === '/v1/books') {
    const body = JSON.stringify(payload);
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
