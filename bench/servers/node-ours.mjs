/**
 * node-ours: the built package's `node:http` adapter serving the same route as `node-bare`.
 */
import http from 'node:http';
import { conventions } from '../../dist/index.mjs';
import { toNodeHandler } from '../../dist/node.mjs';
import { HOST, PORT, payload, ready } from './_server.mjs';

const api = conventions({ routes: { '/v1/books': { GET: () => payload } } });
const server = http.createServer(toNodeHandler(api));

server.listen(PORT, HOST, () => ready(server.address().port));
