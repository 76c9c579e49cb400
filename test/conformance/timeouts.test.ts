/**
 * Every host closes a request that arrives too slowly, with 408 and the error body while it can
 * still answer, and never keeps a stalled request open (spec 7.2). Short timeouts are set for
 * the test; docs/limits.md gives the hosts' own.
 */
import { conventions } from 'api-conventions';
import { expect, it } from 'vitest';
import { describeMatrix } from './_matrix.ts';
import { rawUntilClose } from './_raw.ts';

describeMatrix(
  'request timeouts',
  () =>
    conventions({
      bodyTimeout: 300,
      logger: { error() {}, warn() {} },
      routes: {
        '/v1/notes': { POST: (ctx) => ({ received: ctx.body }), GET: () => ({ notes: [] }) },
      },
    }),
  (served) => {
    it('answers headers that stop arriving with 408, the error body, and closes (spec 7.2)', async () => {
      const { response, closed } = await rawUntilClose(
        served.port,
        'GET /v1/notes HTTP/1.1\r\nHost: x\r\nAccept: application/json\r\n',
      );
      expect(response?.status).toBe(408);
      expect(JSON.parse(response!.body).errors[0].code).toBe(40801);
      expect(response!.headers['x-content-type-options']).toBe('nosniff');
      expect(closed).toBe(true);
    });

    it('answers a body that stops arriving with 408, the error body, and closes (spec 7.2)', async () => {
      const { response, closed } = await rawUntilClose(
        served.port,
        'POST /v1/notes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Content-Length: 100\r\n\r\n{"text":"a',
      );
      expect(response?.status).toBe(408);
      expect(JSON.parse(response!.body).errors[0].code).toBe(40800);
      expect(closed).toBe(true);
    });

    it('closes a connection whose unread body never arrives (requestTimeout)', async () => {
      // No route reads this body: the 404 goes out at once, and the stalled rest is cut off.
      const { response, closed } = await rawUntilClose(
        served.port,
        'POST /v1/nowhere HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n' +
          'Content-Length: 100\r\n\r\n{"a"',
      );
      expect(response?.status).toBe(404);
      expect(closed).toBe(true);
    });

    it('keeps an idle keep-alive connection open no longer than keepAliveTimeout', async () => {
      const { response, closed } = await rawUntilClose(
        served.port,
        'GET /v1/notes HTTP/1.1\r\nHost: x\r\n\r\n',
      );
      expect(response?.status).toBe(200);
      expect(closed).toBe(true);
    });
  },
  {
    server: {
      headersTimeout: 400,
      requestTimeout: 800,
      keepAliveTimeout: 300,
      connectionsCheckingInterval: 100,
    },
    hostsAtOnce: true,
  },
);
