// A service as a new user writes it: the built package, pino as the logger, http-errors thrown
// from handlers, served on every host. Prints one JSON line with what each host answered and
// what pino logged.
import { createServer } from 'node:http';
import { Writable } from 'node:stream';
import { createAdaptorServer } from '@hono/node-server';
import { conventions } from 'api-conventions';
import { toExpressMiddleware } from 'api-conventions/express';
import { serverOptions, toFastifyPlugin } from 'api-conventions/fastify';
import { toFetchHandler } from 'api-conventions/fetch';
import { toNodeHandler } from 'api-conventions/node';
import express from 'express';
import Fastify from 'fastify';
import { Hono } from 'hono';
import createError from 'http-errors';
import pino from 'pino';

const lines = [];
const logger = pino(
  { base: undefined },
  new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  }),
);

const api = conventions({
  logger,
  routes: {
    '/v1/quotas': {
      GET: () => {
        throw createError(429, 'Slow down, please.', { headers: { 'Retry-After': '7' } });
      },
    },
    '/v1/secrets': {
      GET: () => {
        throw createError(503, 'database password is hunter2');
      },
    },
  },
});

const listen = (server) =>
  new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));

async function probe(base) {
  const quota = await fetch(`${base}/v1/quotas`);
  const secret = await fetch(`${base}/v1/secrets`);
  return {
    quota: [quota.status, quota.headers.get('retry-after'), (await quota.json()).errors[0]],
    secret: [secret.status, JSON.stringify(await secret.json()).includes('hunter2')],
  };
}

const results = {};
const node = await listen(createServer(toNodeHandler(api)));
results.node = await probe(`http://127.0.0.1:${node.address().port}`);
node.close();

const app = express();
app.set('strict routing', true);
const c = toExpressMiddleware(api);
app.use(c.before);
c.mount(app);
app.use(c.after);
const viaExpress = await listen(createServer(app));
results.express = await probe(`http://127.0.0.1:${viaExpress.address().port}`);
viaExpress.close();

const fastify = Fastify({ ...serverOptions });
await fastify.register(toFastifyPlugin(api));
await fastify.listen({ port: 0, host: '127.0.0.1' });
results.fastify = await probe(`http://127.0.0.1:${fastify.server.address().port}`);
await fastify.close();

const hono = new Hono();
const handle = toFetchHandler(api);
hono.all('*', (ctx) => handle(ctx.req.raw));
const viaHono = await listen(createAdaptorServer({ fetch: hono.fetch }));
results.fetch = await probe(`http://127.0.0.1:${viaHono.address().port}`);
viaHono.close();

logger.flush?.();
const faults = lines.filter((line) => line.level === 50);
results.logged = faults.map((line) => [line.msg, line.err?.message, typeof line.err?.stack]);
console.log(JSON.stringify(results));
