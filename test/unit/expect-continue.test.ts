/**
 * With the node:http handlers attached, a body parser that reads the body before the core (Express's
 * express.json()) still gets it: `100 Continue` goes out as it starts reading (RFC 9110 §10.1.1).
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { conventions } from 'api-conventions';
import { toExpressMiddleware } from 'api-conventions/express';
import { attachServerHandlers } from 'api-conventions/node';
import express from 'express';
import { afterAll, beforeAll, expect, it } from 'vitest';

let server: ReturnType<typeof createServer>;
beforeAll(async () => {
  const api = conventions({ logger: { error() {}, warn() {} } });
  const app = express();
  app.set('strict routing', true);
  const c = toExpressMiddleware(api);
  app.use(c.before);
  app.post('/v1/echo', express.json(), (req, res) => {
    res.json({ received: req.body });
  });
  app.use(c.after);
  server = attachServerHandlers(createServer(app), api, app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

it('sends 100 Continue when express.json() starts reading, then the answer', async () => {
  const { port } = server.address() as AddressInfo;
  const body = '{"text":"parsed by express"}';
  const text = await new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no answer; got ${JSON.stringify(received)}`));
    }, 5000);
    socket.on('data', (chunk) => {
      const first = received === '';
      received += chunk.toString();
      if (first && received.startsWith('HTTP/1.1 100 Continue\r\n\r\n')) socket.write(body);
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received);
    });
    socket.write(
      'POST /v1/echo HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nConnection: close\r\n' +
        `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
    );
  });
  expect(text.startsWith('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 ')).toBe(true);
  expect(text).toContain('"parsed by express"');
});
