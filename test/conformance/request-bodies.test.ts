/** Regressions in reading request bodies, on every host: Content-Type forms, error caps, DELETE. */
import { expect, it } from 'vitest';
import { describeMatrix } from './_matrix.ts';
import { createProbe } from './_probe.ts';

const post = (body: string, contentType: string): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': contentType },
  body,
});

describeMatrix(
  'request bodies',
  () => createProbe({ errors: [] }),
  (served) => {
    it.each(['application/json;', 'application/json; ', 'application/json;;'])(
      'accepts Content-Type "%s" with an empty parameter, once a 400 (RFC 9110 §5.6.6)',
      async (contentType) => {
        const res = await served.fetch('/v1/memos', post('{"text":"hi"}', contentType));
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ received: { text: 'hi' } });
      },
    );

    it.each(['utf8', 'UTF8', '"utf8"'])(
      'reads charset=%s as UTF-8, once a 415 (RFC 8259 §8.1)',
      async (charset) => {
        const text = 'café ünïcode ☕';
        const res = await served.fetch(
          '/v1/memos',
          post(JSON.stringify({ text }), `application/json; charset=${charset}`),
        );
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ received: { text } });
      },
    );

    it('still refuses a charset that is not UTF-8 with 415 (RFC 8259 §8.1)', async () => {
      const res = await served.fetch(
        '/v1/memos',
        post('{"text":"hi"}', 'application/json; charset=latin1'),
      );
      expect(res.status).toBe(415);
      expect((await res.json()).errors[0].code).toBe(41500);
    });

    it('answers 5,000 unknown keys with at most 101 entries ending in 40008, once one entry per key (spec 7.1.5)', async () => {
      const body = JSON.stringify(
        Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i])),
      );
      const res = await served.fetch('/v1/memos', post(body, 'application/json'));
      expect(res.status).toBe(400);
      const { errors } = (await res.json()) as { errors: { message: string; code: number }[] };
      expect(errors.length).toBeGreaterThan(1);
      expect(errors.length).toBeLessThanOrEqual(101);
      expect(errors.at(-1)!.code).toBe(40008);
      expect(errors.slice(0, -1).every((entry) => entry.code === 40004)).toBe(true);
      expect(errors[0]).toEqual({ message: 'The field "k0" is not known.', code: 40004 });
    });

    it.each([
      ['application/json', 'this is not JSON'],
      ['text/plain', 'not a media type the route reads'],
      ['application/json', '{"half":'],
      ['application/json', '{"text":"valid JSON, never read either"}'],
    ])(
      'answers a DELETE with a %s body %j as if it had none, never reading it: once a 400 or 415 when it was not JSON (RFC 9110 §9.3.5)',
      async (contentType, body) => {
        const bare = await served.fetch('/v1/memos/m1', { method: 'DELETE' });
        const withBody = await served.fetch('/v1/memos/m1', {
          method: 'DELETE',
          headers: { 'content-type': contentType },
          body,
        });
        expect(withBody.status).toBe(200);
        expect(await withBody.json()).toEqual({ deleted: 'm1', hadBody: false });
        expect(bare.status).toBe(200);
        expect(await bare.json()).toEqual({ deleted: 'm1', hadBody: false });
      },
    );
  },
);
