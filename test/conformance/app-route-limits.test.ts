/**
 * A rate limit counts a caller with accepted credentials as who they are on the app's own routes
 * too, including a route only the host's router can read: the limiter learns from the
 * host's own match that the request goes on to authentication (spec 8.1).
 */
import type { AddressInfo } from 'node:net';
import { conventions, rateLimit } from 'api-conventions';
import { serverOptions, toFastifyPlugin } from 'api-conventions/fastify';
import Fastify from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authorization, testBearer } from './_fail-closed-apps.ts';

const app = Fastify({ ...serverOptions });
let base = '';

beforeAll(async () => {
  const api = conventions({
    logger: { error() {}, warn() {} },
    plugins: [await testBearer(), rateLimit({ policies: [{ limit: 2, window: 60 }] })],
    routes: {},
  });
  await app.register(toFastifyPlugin(api));
  // A regex parameter in find-my-way's syntax: the library's route view cannot hold it.
  app.get('/v1/numbers/:n(^\\d+$)', async (request) => ({
    n: (request.params as { n: string }).n,
  }));
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(() => app.close());

it('counts each caller on a route only the host reads by who they are, not by network (spec 8.1)', async () => {
  const as = async (subject: string) =>
    (
      await fetch(`${base}/v1/numbers/7`, {
        headers: { authorization: await authorization(subject) },
      })
    ).status;
  expect([await as('alice'), await as('alice'), await as('alice')]).toEqual([200, 200, 429]);
  // Bob, from the same network, has a budget of his own.
  expect(await as('bob')).toBe(200);
});
