/** A body that arrives too slowly gets 408 and the spec's error body on every host. */
import { conventions } from 'api-conventions';
import { expect, it } from 'vitest';
import { describeMatrix } from './_matrix.ts';
import { rawRequest } from './_raw.ts';

describeMatrix(
  'slow request bodies',
  () =>
    conventions({
      bodyTimeout: 300,
      logger: { error() {}, warn() {} },
      routes: { '/v1/notes': { POST: (ctx) => ({ received: ctx.body }) } },
    }),
  (served) => {
    it('answers a body that stops arriving with 408 and the error body (spec 7.2)', async () => {
      // Content-Length announces 100 bytes; 10 are sent and the client then waits.
      const res = await rawRequest(
        served.port,
        'POST /v1/notes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Content-Length: 100\r\n\r\n{"text":"a',
        5000,
      );
      expect(res.status).toBe(408);
      expect(JSON.parse(res.body).errors[0].code).toBe(40800);
    });

    it('reads a body that arrives within the timeout', async () => {
      const res = await served.fetch('/v1/notes', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'on time' }),
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: { text: 'on time' } });
    });
  },
);
