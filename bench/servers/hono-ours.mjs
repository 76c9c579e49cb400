/**
 * hono-ours: the package's fetch adapter inside Hono on @hono/node-server, peer of `hono-bare`.
 *
 * `toFetchHandler(api)` is a Web-standard `(request) => Response` handler; Hono hands it the raw
 * `Request` of every request, as an app that adopts the adapter would.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { toFetchHandler } from '../../dist/fetch.mjs';
import { conventions } from '../../dist/index.mjs';
import { HOST, PORT, payload, ready } from './_server.mjs';

const api = conventions({ routes: { '/v1/books': { GET: () => payload } } });
const handle = toFetchHandler(api);

const app = new Hono();
app.all('*', (c) => handle(c.req.raw));

serve({ fetch: app.fetch, hostname: HOST, port: PORT }, (info) => ready(info.port));
