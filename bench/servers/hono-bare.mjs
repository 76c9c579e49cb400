/**
 * hono-bare: Hono 4 on @hono/node-server with its idiomatic `c.json()` reply.
 */
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { HOST, PORT, payload, ready } from './_server.mjs';

const app = new Hono();
app.get('/v1/books', (c) => c.json(payload));

serve({ fetch: app.fetch, hostname: HOST, port: PORT }, (info) => ready(info.port));
