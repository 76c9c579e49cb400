/**
 * A body's codings on every host: content codings a route decodes (gzip, br, deflate) with the
 * body limit on the decoded size, 415 for any other, 501 for a transfer coding other than
 * chunked, and `Expect: 100-continue` answered finally when the body would be refused.
 */
import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { conventions } from 'api-conventions';
import { expect, it } from 'vitest';
import { describeMatrix } from './_matrix.ts';
import { rawUntilClose } from './_raw.ts';

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

describeMatrix(
  'request body codings',
  () =>
    conventions({
      logger: { error() {}, warn() {} },
      routes: {
        '/v1/notes': {
          POST: {
            handler: (ctx) => ({ received: ctx.body }),
            config: { encodings: ['gzip', 'br', 'deflate'], bodyLimit: 4096 },
          },
        },
        '/v1/plain': { POST: (ctx) => ({ received: ctx.body }) },
      },
    }),
  (served) => {
    const post = async (path: string, body: Uint8Array, headers: Record<string, string>) =>
      served.fetch(path, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: new Uint8Array(body),
      });

    it.each([
      ['gzip', gzipSync],
      ['x-gzip', gzipSync],
      ['br', brotliCompressSync],
      ['deflate', deflateSync],
    ] as const)('decodes a %s body the route reads (RFC 9110 §8.4.1)', async (coding, encode) => {
      const res = await post('/v1/notes', encode(json({ text: 'squeezed' })), {
        'content-encoding': coding,
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: { text: 'squeezed' } });
    });

    it('answers a decompression bomb with 413 once the decoded size passes the limit', async () => {
      const bomb = gzipSync(Buffer.alloc(2 * 1024 * 1024, 0x20));
      expect(bomb.byteLength).toBeLessThan(4096);
      const res = await post('/v1/notes', bomb, { 'content-encoding': 'gzip' });
      expect(res.status).toBe(413);
      expect((await res.json()).errors[0].code).toBe(41301);
    });

    it('answers a plain body labelled gzip with 400 and the error body', async () => {
      const res = await post('/v1/notes', json({ text: 'not gzip' }), {
        'content-encoding': 'gzip',
      });
      expect(res.status).toBe(400);
      expect((await res.json()).errors[0].code).toBe(40029);
    });

    it('answers a coding the route does not read with 415 and Accept-Encoding (RFC 9110 §15.5.16)', async () => {
      const res = await post('/v1/notes', json({}), { 'content-encoding': 'compress' });
      expect(res.status).toBe(415);
      expect(res.headers.get('accept-encoding')).toBe('gzip, br, deflate');
      expect((await res.json()).errors[0].code).toBe(41501);
    });

    it('answers gzip on a route that lists no encodings with 415 and Accept-Encoding: identity', async () => {
      const res = await post('/v1/plain', gzipSync(json({ text: 'x' })), {
        'content-encoding': 'gzip',
      });
      expect(res.status).toBe(415);
      expect(res.headers.get('accept-encoding')).toBe('identity');
    });

    it('decodes a body gzipped three times, named by three codings (RFC 9110 §8.4)', async () => {
      const thrice = gzipSync(gzipSync(gzipSync(json({ text: 'deep' }))));
      const res = await post('/v1/notes', thrice, { 'content-encoding': 'gzip, gzip, gzip' });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: { text: 'deep' } });
    });

    it('answers a body coded more than three times with 415, undoing none of it (docs/limits.md)', async () => {
      // Each coding is a pass over the body: a long Content-Encoding would make the work
      // quadratic in the header's length.
      let body = json({ text: 'deep' });
      for (let i = 0; i < 4; i++) body = gzipSync(body);
      const res = await post('/v1/notes', body, { 'content-encoding': 'gzip, gzip, gzip, gzip' });
      expect(res.status).toBe(415);
      expect(res.headers.get('accept-encoding')).toBe('gzip, br, deflate');
      const { errors } = await res.json();
      expect(errors[0].code).toBe(41501);
      expect(errors[0].message).toContain('more than 3 codings');
    });

    it('reads a body whose only coding is identity', async () => {
      const res = await post('/v1/plain', json({ text: 'x' }), { 'content-encoding': 'identity' });
      expect(res.status).toBe(200);
    });

    it('answers a transfer coding other than chunked with 501 and closes (RFC 9112 §6.1)', async () => {
      const { response, closed } = await rawUntilClose(
        served.port,
        'POST /v1/plain HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Transfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n',
      );
      expect(response?.status).toBe(501);
      expect(JSON.parse(response!.body).errors[0].code).toBe(50100);
      expect(closed).toBe(true);
    });

    it.each([
      [
        'a Content-Length over the limit',
        'Content-Type: application/json\r\nContent-Length: 5000\r\n',
        413,
      ],
      [
        'a media type the route does not read',
        'Content-Type: text/plain\r\nContent-Length: 10\r\n',
        415,
      ],
      [
        'a coding the route does not read',
        'Content-Type: application/json\r\nContent-Encoding: compress\r\nContent-Length: 10\r\n',
        415,
      ],
    ])(
      'answers Expect: 100-continue with %s finally, without 100 Continue (RFC 9110 §10.1.1)',
      async (_what, headers, status) => {
        const authorization = await served.authorization();
        const auth = authorization ? `Authorization: ${authorization}\r\n` : '';
        const { text } = await rawUntilClose(
          served.port,
          `POST /v1/notes HTTP/1.1\r\nHost: x\r\n${auth}Expect: 100-continue\r\nConnection: close\r\n${headers}\r\n`,
        );
        expect(text.startsWith(`HTTP/1.1 ${status} `)).toBe(true);
        expect(text).not.toContain('100 Continue');
      },
    );

    it('sends 100 Continue when the body will be read, then the answer (RFC 9110 §10.1.1)', async () => {
      const authorization = await served.authorization();
      const auth = authorization ? `Authorization: ${authorization}\r\n` : '';
      const body = '{"text":"after continue"}';
      const text = await new Promise<string>((resolve, reject) => {
        const socket = connect(served.port, '127.0.0.1');
        let received = '';
        let sent = false;
        const timer = setTimeout(() => {
          socket.destroy();
          reject(new Error(`no answer; got ${JSON.stringify(received)}`));
        }, 5000);
        socket.on('data', (chunk) => {
          received += chunk.toString();
          if (!sent && received.includes('\r\n\r\n')) {
            sent = true;
            socket.write(body);
          }
        });
        socket.on('close', () => {
          clearTimeout(timer);
          resolve(received);
        });
        socket.write(
          `POST /v1/notes HTTP/1.1\r\nHost: x\r\n${auth}Expect: 100-continue\r\nConnection: close\r\n` +
            `Content-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`,
        );
      });
      expect(text.startsWith('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 ')).toBe(true);
      expect(text).toContain('"after continue"');
    });
  },
);
