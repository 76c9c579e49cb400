import { describe, expect, it } from 'vitest';
import { isReply } from '../../src/core/http/reply.ts';
import { utf8Length } from '../../src/core/index.ts';
import { accepted, conventions, created, noContent, ok, type Plugin } from '../../src/index.ts';

const book = { id: 'dune', title: 'Dune' };
const nosniff = { 'x-content-type-options': 'nosniff' };
const jsonHeaders = { 'content-type': 'application/json', ...nosniff };

describe('replies (spec 4.3)', () => {
  it.each([
    ['ok(data)', ok(book), 200, {}, book],
    ['ok(data, headers)', ok(book, { etag: '"v1"' }), 200, { etag: '"v1"' }, book],
    [
      'created(location, data) (RFC 9110 §15.3.2)',
      created('/v1/books/dune', book),
      201,
      { location: '/v1/books/dune' },
      book,
    ],
    [
      'created(location, data, headers)',
      created('/v1/books/dune', book, { etag: '"v1"', location: '/elsewhere' }),
      201,
      { etag: '"v1"', location: '/v1/books/dune' },
      book,
    ],
    [
      'accepted(location) (RFC 9110 §15.3.3)',
      accepted('/v1/book-imports/7'),
      202,
      { location: '/v1/book-imports/7' },
      undefined,
    ],
    [
      'accepted(location, data)',
      accepted('/v1/book-imports/7', { state: 'queued' }),
      202,
      { location: '/v1/book-imports/7' },
      { state: 'queued' },
    ],
    ['noContent()', noContent(), 204, {}, undefined],
    ['noContent(headers)', noContent({ etag: '"v2"' }), 204, { etag: '"v2"' }, undefined],
  ])('%s answers its status, headers and body', (_, reply, status, headers, body) => {
    expect(isReply(reply)).toBe(true);
    expect(reply.status).toBe(status);
    expect({ ...reply.headers.record }).toEqual(headers);
    expect(reply.body).toEqual(body);
  });

  it('does not share the headers object given to it', () => {
    const headers = { etag: '"v1"' };
    created('/v1/books/dune', book, headers);
    expect(headers).toEqual({ etag: '"v1"' });
  });

  it.each([
    ['plain data', book],
    ['a look-alike', { status: 200, headers: {}, body: book }],
    ['null', null],
    ['undefined', undefined],
    ['a string', 'ok'],
    ['an array', [ok(book)]],
  ])('isReply is false for %s', (_, value) => {
    expect(isReply(value)).toBe(false);
  });

  it('isReply is true for a reply from another copy of the package, by its brand', () => {
    const foreign = {
      [Symbol.for('api-conventions.Reply')]: true,
      status: 200,
      headers: {},
      body: 1,
    };
    expect(isReply(foreign)).toBe(true);
  });
});

// The serialize phase (SerializerRegistry) and HEAD (the end of the response phases), through
// the whole pipeline: a route returns `value`, a plugin may set the status and media type.
describe('serialize phase', () => {
  interface Setup {
    method?: string;
    status?: number;
    type?: string;
  }
  const quiet = { error: () => {}, warn: () => {} };
  const answer = async (value: unknown, { method = 'GET', status, type }: Setup = {}) => {
    const shape: Plugin = {
      name: 'shape',
      preSerialization(_ctx, out) {
        if (status !== undefined) out.status = status;
        if (type !== undefined) out.type = type;
      },
    };
    const api = conventions({
      routes: { '/v1/things': { GET: () => value } },
      plugins: [shape],
      logger: quiet,
    });
    const response = await api.handle({ method, url: '/v1/things', headers: new Headers() });
    return { ...response, headers: { ...response.headers } };
  };

  it.each([
    [{ books: [], hasNext: false }, '{"books":[],"hasNext":false}'],
    [{ when: new Date('2026-01-31T09:00:00Z') }, '{"when":"2026-01-31T09:00:00.000Z"}'],
    [{ title: 'Café 😀' }, '{"title":"Café 😀"}'],
    [null, 'null'],
    [0, '0'],
    [false, 'false'],
  ])(
    'serializes the value %j as JSON with Content-Type application/json and nosniff (spec 4.6, 4.8)',
    async (value, text) => {
      expect(await answer(value)).toEqual({ status: 200, headers: jsonHeaders, body: text });
    },
  );

  it('keeps a Content-Type a plugin set, such as a +json vendor type (spec 4.6)', async () => {
    expect(await answer(ok(book, { 'content-type': 'application/vnd.acme.book+json' }))).toEqual({
      status: 200,
      headers: { 'content-type': 'application/vnd.acme.book+json', ...nosniff },
      body: '{"id":"dune","title":"Dune"}',
    });
  });

  it('sends a string body as it is, with the Content-Type a plugin set', async () => {
    expect(await answer(ok('<book/>', { 'content-type': 'application/xml' }))).toEqual({
      status: 200,
      headers: { 'content-type': 'application/xml', ...nosniff },
      body: '<book/>',
    });
  });

  it('sends a string a handler returned as JSON when no Content-Type was set (spec 4.6)', async () => {
    expect(await answer('hello')).toEqual({
      status: 200,
      headers: jsonHeaders,
      body: '"hello"',
    });
  });

  it('sends untyped bytes as application/octet-stream', async () => {
    const response = await answer(new Uint8Array([1]));
    expect(response.headers['content-type']).toBe('application/octet-stream');
  });

  it('sends a byte body as it is', async () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const response = await answer(ok(bytes, { 'content-type': 'image/png' }));
    expect(response.body).toBe(bytes);
    expect(response.headers).toEqual({ 'content-type': 'image/png', ...nosniff });
  });

  it.each([204, 304])('never sends a body with %i (RFC 9110 §15.3.5, §15.4.5)', async (status) => {
    expect(await answer(book, { status })).toEqual({ status, headers: nosniff, body: null });
    expect(await answer('text', { status, method: 'HEAD' })).toEqual({
      status,
      headers: nosniff,
      body: null,
    });
  });

  it('sends no body and no Content-Type for an undefined body', async () => {
    expect(await answer(ok(undefined))).toEqual({ status: 200, headers: nosniff, body: null });
  });

  it('serializes an error body with its status', async () => {
    const errors = { errors: [{ message: 'No book with id "x".', code: 40400 }] };
    expect(await answer(errors, { status: 404 })).toEqual({
      status: 404,
      headers: jsonHeaders,
      body: JSON.stringify(errors),
    });
  });

  it.each(['plain ascii', 'Café crème', '日本語のタイトル', 'emoji 😀👍🏽', 'mixed é 日 😀 ✓', ''])(
    'answers HEAD with no body and the Content-Length of GET for %j (RFC 9110 §9.3.2)',
    async (title) => {
      const get = await answer({ title });
      const head = await answer({ title }, { method: 'HEAD' });
      expect(head).toEqual({
        status: 200,
        headers: {
          ...jsonHeaders,
          'content-length': String(Buffer.byteLength(get.body as string)),
        },
        body: null,
      });
    },
  );

  it('answers HEAD on a string body with its UTF-8 byte length', async () => {
    const text = 'naïve 😀';
    const typed = { 'content-type': 'text/plain; charset=utf-8' };
    expect(await answer(ok(text, typed), { method: 'HEAD' })).toEqual({
      status: 200,
      headers: { ...typed, ...nosniff, 'content-length': String(Buffer.byteLength(text)) },
      body: null,
    });
  });

  it('answers HEAD on a byte body with its byte length', async () => {
    expect(await answer(new Uint8Array(7), { method: 'HEAD' })).toEqual({
      status: 200,
      headers: { ...nosniff, 'content-type': 'application/octet-stream', 'content-length': '7' },
      body: null,
    });
  });

  it('answers HEAD with no Content-Length when GET has no body', async () => {
    expect(await answer(noContent(), { method: 'HEAD' })).toEqual({
      status: 204,
      headers: nosniff,
      body: null,
    });
  });

  it('answers a body JSON cannot represent (a BigInt, a cycle) with a 500 and no internals', async () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    for (const value of [{ n: 1n }, cycle]) {
      const response = await answer(value);
      expect(response.status).toBe(500);
      expect(response.headers).toEqual(jsonHeaders);
      expect(JSON.parse(response.body as string)).toEqual({
        errors: [{ message: expect.any(String), code: 50000 }],
      });
      expect(response.body).not.toMatch(/BigInt|circular/i);
    }
  });

  it('serializes a vendor +json type with the JSON serializer (RFC 6839 §3)', async () => {
    expect(await answer(book, { type: 'application/vnd.acme.book+json' })).toEqual({
      status: 200,
      headers: { 'content-type': 'application/vnd.acme.book+json', ...nosniff },
      body: '{"id":"dune","title":"Dune"}',
    });
  });

  it('answers a media type no serializer handles with a 500 as JSON', async () => {
    const response = await answer(book, { type: 'application/xml' });
    expect(response.status).toBe(500);
    expect(response.headers).toEqual(jsonHeaders);
    expect(JSON.parse(response.body as string).errors[0].code).toBe(50000);
  });
});

describe('utf8Length', () => {
  it.each([
    ['empty', ''],
    ['ASCII', 'hello'],
    ['2-byte (é)', 'é'],
    ['3-byte (€)', '€'],
    ['3-byte CJK', '日本語'],
    ['4-byte emoji (surrogate pair)', '😀'],
    ['emoji with a skin-tone modifier', '👍🏽'],
    ['a flag (two pairs)', '🇯🇵'],
    ['mixed', 'a é € 😀 z'],
    ['U+07FF, the last 2-byte code point', '\u07ff'],
    ['U+0800, the first 3-byte code point', '\u0800'],
    ['U+FFFF', '\uffff'],
    ['a lone high surrogate at the end', 'a\ud800'],
    ['a lone low surrogate', '\udc00a'],
    ['a lone high surrogate before ASCII', '\ud800a'],
  ])('counts %s as Buffer.byteLength does', (_, text) => {
    expect(utf8Length(text)).toBe(Buffer.byteLength(text));
  });

  it('counts a lone high surrogate before a non-ASCII character as the 3-byte U+FFFD it is sent as', () => {
    expect(utf8Length('\ud800é')).toBe(Buffer.byteLength('\ud800é'));
  });
});
