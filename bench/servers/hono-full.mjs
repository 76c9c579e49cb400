/** hono-full: our full stack through the fetch adapter inside Hono, beside hono-peer. */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { toFetchHandler } from '../../dist/fetch.mjs';
import { fullStack } from './_full-stack.mjs';
import { HOST, PORT, ready } from './_server.mjs';

const { api, features } = await fullStack();
const handle = toFetchHandler(api);

const app = new Hono();
app.all('*', (c) => handle(c.req.raw));

serve({ fetch: app.fetch, hostname: HOST, port: PORT }, (info) => ready(info.port, features));
