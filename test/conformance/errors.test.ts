import { expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { describeMatrix } from './_matrix.ts';
import { createProbe, type Logged } from './_probe.ts';
import { rawRequest } from './_raw.ts';

const quiet = { logger: { error() {}, warn() {} } };
const json = { 'content-type': 'application/json' };

describeMatrix(
  'error bodies',
  () => createBookshelf(quiet),
  (served) => {
    it('answers malformed JSON with 400 and the error body, never a 500 (spec 7.1.4)', async () => {
      const res = await served.fetch('/v1/books', {
        method: 'POST',
        headers: json,
        body: '{"title": "Dune",',
      });
      expect(res.status).toBe(400);
      const { errors } = await res.json();
      expect(errors).toHaveLength(1);
      expect(errors[0].code).toBe(40001);
      expect(errors[0].message).toMatch(/^The request body is not valid JSON/);
    });

    it('lists one entry per invalid field (spec 7.1.5)', async () => {
      const res = await served.fetch('/v1/books', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ title: 5, year: 'nineteen', colour: 'red' }),
      });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        errors: [
          { message: 'The field "title" must be a string.', code: 40002 },
          { message: 'The field "authorId" is required.', code: 40003 },
          { message: 'The field "year" must be an integer.', code: 40002 },
          { message: 'The field "colour" is not known.', code: 40004 },
        ],
      });
    });

    it('answers a body that is not an object with 400 (spec 7.1.4)', async () => {
      const res = await served.fetch('/v1/books', { method: 'POST', headers: json, body: '[1,2]' });
      expect(res.status).toBe(400);
      expect(await res.json()).toEqual({
        errors: [{ message: 'The request body must be a JSON object.', code: 40002 }],
      });
    });

    it('answers a missing body with 400 (spec 7.1.4)', async () => {
      const res = await served.fetch('/v1/books', { method: 'POST', headers: json });
      expect(res.status).toBe(400);
      expect((await res.json()).errors[0].code).toBe(40007);
    });

    it('answers an unsupported Content-Type with 415 (spec 4.6)', async () => {
      const res = await served.fetch('/v1/books', {
        method: 'POST',
        headers: { 'content-type': 'text/plain' },
        body: 'Dune',
      });
      expect(res.status).toBe(415);
      expect(await res.json()).toEqual({
        errors: [
          {
            message: 'Content-Type "text/plain" is not supported; send one of: application/json.',
            code: 41500,
          },
        ],
      });
    });

    it('answers a non-UTF-8 charset with 415 (RFC 8259 §8.1)', async () => {
      const res = await served.fetch('/v1/books', {
        method: 'POST',
        headers: { 'content-type': 'application/json; charset=iso-8859-1' },
        body: '{}',
      });
      expect(res.status).toBe(415);
    });

    it('answers a body over the limit with 413, announced by Content-Length', async () => {
      const big = JSON.stringify({ title: 'x'.repeat(1_100_000), authorId: 'a', year: 1 });
      const res = await served.fetch('/v1/books', { method: 'POST', headers: json, body: big });
      expect(res.status).toBe(413);
      expect(await res.json()).toEqual({
        errors: [
          { message: 'The request body is larger than the limit of 1048576 bytes.', code: 41300 },
        ],
      });
    });

    it('answers a chunked body over the limit with 413', async () => {
      const chunk = 'x'.repeat(64 * 1024);
      const chunks = Array.from(
        { length: 20 },
        () => `${(chunk.length).toString(16)}\r\n${chunk}\r\n`,
      ).join('');
      const res = await rawRequest(
        served.port,
        `POST /v1/books HTTP/1.1\r\nHost: 127.0.0.1:${served.port}\r\nAuthorization: ${await served.authorization()}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n${chunks}0\r\n\r\n`,
      );
      expect(res.status).toBe(413);
      expect(JSON.parse(res.body).errors[0].code).toBe(41300);
    });

    it('answers malformed percent-encoding in a path parameter with 400 (spec 7.1.4)', async () => {
      const res = await rawRequest(
        served.port,
        'GET /v1/books/%e0%a4 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
      );
      expect(res.status).toBe(400);
      expect(JSON.parse(res.body).errors[0].code).toBe(40006);
    });
  },
);

const probe: { logged: Logged } = { logged: { errors: [] } };

describeMatrix(
  'failures inside the service',
  () => createProbe(probe.logged),
  (served) => {
    it('turns a thrown error into a 500 with a generic message and logs it (spec 7.2)', async () => {
      const before = probe.logged.errors.length;
      const res = await served.fetch('/v1/failures');
      expect(res.status).toBe(500);
      const text = await res.text();
      expect(JSON.parse(text)).toEqual({
        errors: [{ message: 'Something went wrong on our side; it has been logged.', code: 50000 }],
      });
      expect(text).not.toContain('hunter2');
      expect(text).not.toContain('at ');
      expect(probe.logged.errors.slice(before).map((e) => (e.error as Error).message)).toEqual([
        'database password is hunter2',
      ]);
    });

    it('turns an async failure into a 500 without its details', async () => {
      const res = await served.fetch('/v1/async-failures');
      expect(res.status).toBe(500);
      expect(await res.text()).not.toContain('secret');
    });

    it('reports a bare top-level array as a programming error (spec 2.7)', async () => {
      const before = probe.logged.errors.length;
      const res = await served.fetch('/v1/bare-lists');
      expect(res.status).toBe(500);
      expect((await res.json()).errors[0].code).toBe(50001);
      expect(probe.logged.errors.length).toBe(before + 1);
    });

    it('answers 403 from a handler with the error body (spec 5.8)', async () => {
      const res = await served.fetch('/v1/forbidden-things');
      expect(res.status).toBe(403);
      expect(await res.json()).toEqual({
        errors: [{ message: 'You may not see the forbidden things.', code: 40300 }],
      });
    });

    it('applies a per-route body limit', async () => {
      const res = await served.fetch('/v1/notes', {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ text: 'x'.repeat(100) }),
      });
      expect(res.status).toBe(413);
      expect((await res.json()).errors[0].message).toContain('64 bytes');
      const small = await served.fetch('/v1/notes', {
        method: 'POST',
        headers: json,
        body: '{"text":"hi"}',
      });
      expect(small.status).toBe(200);
      expect(await small.json()).toEqual({ received: { text: 'hi' } });
    });

    it('reads a form body where the route accepts forms, and refuses JSON there (spec 4.6)', async () => {
      const res = await served.fetch('/v1/form-notes', {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: 'text=hello+world&n=1',
      });
      expect(res.status).toBe(200);
      expect(await res.json()).toEqual({ received: { text: 'hello world', n: '1' } });
      const refused = await served.fetch('/v1/form-notes', {
        method: 'POST',
        headers: json,
        body: '{}',
      });
      expect(refused.status).toBe(415);
    });

    it('turns a header the host cannot send into a logged 500, not a crash', async () => {
      const res = await served.fetch('/v1/bad-headers');
      expect(res.status).toBe(500);
      expect((await res.json()).errors[0].code).toBe(50000);
      const after = await served.fetch('/v1/forbidden-things');
      expect(after.status).toBe(403);
    });
  },
);
