/** A request that reaches Fastify while it closes gets the core's 503, not Fastify's own body. */
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { conventions } from 'api-conventions';
import { serverOptions, toFastifyPlugin } from 'api-conventions/fastify';
import Fastify from 'fastify';
import { expect, it } from 'vitest';
import { parseResponse } from '../conformance/_raw.ts';

it('answers a request that arrives while the app closes with 503 and the error body', async () => {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  let started: () => void = () => {};
  const entered = new Promise<void>((resolve) => {
    started = resolve;
  });
  const api = conventions({
    logger: { error() {}, warn() {} },
    routes: {
      '/v1/slow': {
        GET: async () => {
          started();
          await held;
          return { done: true };
        },
      },
      '/v1/fast': { GET: () => ({ fast: true }) },
    },
  });
  const app = Fastify(serverOptions);
  await app.register(toFastifyPlugin(api));
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const socket = connect(port, '127.0.0.1');
  let text = '';
  socket.on('data', (chunk) => {
    text += chunk.toString();
  });
  const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));
  // The first request holds the connection open; the second comes on it once closing started.
  socket.write('GET /v1/slow HTTP/1.1\r\nHost: x\r\n\r\n');
  await entered;
  const closed = app.close();
  await new Promise((resolve) => setImmediate(resolve));
  socket.write('GET /v1/fast HTTP/1.1\r\nHost: x\r\n\r\n');
  await new Promise((resolve) => setTimeout(resolve, 50));
  release();
  await closed;
  await ended;
  const second = text.slice(text.indexOf('HTTP/1.1', 1));
  const response = parseResponse(second);
  expect(response?.status).toBe(503);
  expect(JSON.parse(response!.body)).toEqual({
    errors: [{ message: expect.any(String), code: 50300 }],
  });
  expect(response!.headers['x-content-type-options']).toBe('nosniff');
});
