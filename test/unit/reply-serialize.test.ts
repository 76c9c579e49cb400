import { describe, expect, it } from 'vitest';
import {
  accepted,
  created,
  isReply,
  noContent,
  type OutgoingResponse,
  ok,
  serialize,
  utf8Length,
} from '../../src/index.ts';

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
    expect(reply.headers).toEqual(headers);
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

describe('serialize', () => {
  const out = (status: number, body: unknown, headers: Record<string, string> = {}) =>
    ({ status, headers: { ...headers }, body }) as OutgoingResponse;

  it.each([
    [{ books: [], hasNext: false }, '{"books":[],"hasNext":false}'],
    [{ when: new Date('2026-01-31T09:00:00Z') }, '{"when":"2026-01-31T09:00:00.000Z"}'],
    [{ title: 'Café 😀' }, '{"title":"Café 😀"}'],
    [null, 'null'],
    [0, '0'],
    [false, 'false'],
  ])(
    'serializes the value %j as JSON with Content-Type application/json and nosniff (spec 4.6, 4.8)',
    (value, text) => {
      expect(serialize(out(200, value), false)).toEqual({
        status: 200,
        headers: jsonHeaders,
        body: text,
      });
    },
  );

  it('keeps a Content-Type a plugin set, such as a +json vendor type (spec 4.6)', () => {
    expect(
      serialize(out(200, book, { 'content-type': 'application/vnd.acme.book+json' }), false),
    ).toEqual({
      status: 200,
      headers: { 'content-type': 'application/vnd.acme.book+json', ...nosniff },
      body: '{"id":"dune","title":"Dune"}',
    });
  });

  it('sends a string body as it is, with the Content-Type a plugin set', () => {
    expect(serialize(out(200, '<book/>', { 'content-type': 'application/xml' }), false)).toEqual({
      status: 200,
      headers: { 'content-type': 'application/xml', ...nosniff },
      body: '<book/>',
    });
  });

  it('sends a string a handler returned as JSON when no Content-Type was set (spec 4.6)', () => {
    expect(serialize(out(200, 'hello'), false)).toEqual({
      status: 200,
      headers: { ...nosniff, 'content-type': 'application/json' },
      body: '"hello"',
    });
  });

  it('sends untyped bytes as application/octet-stream', () => {
    const response = serialize(out(200, new Uint8Array([1])), false);
    expect(response.headers['content-type']).toBe('application/octet-stream');
  });

  it('sends a byte body as it is', () => {
    const bytes = new Uint8Array([1, 2, 3]);
    const response = serialize(out(200, bytes, { 'content-type': 'image/png' }), false);
    expect(response.body).toBe(bytes);
    expect(response.headers).toEqual({ 'content-type': 'image/png', ...nosniff });
  });

  it.each([204, 304])('never sends a body with %i (RFC 9110 §15.3.5, §15.4.5)', (status) => {
    expect(serialize(out(status, book), false)).toEqual({ status, headers: nosniff, body: null });
    expect(serialize(out(status, 'text'), true)).toEqual({ status, headers: nosniff, body: null });
  });

  it('sends no body and no Content-Type for an undefined body', () => {
    expect(serialize(out(200, undefined), false)).toEqual({
      status: 200,
      headers: nosniff,
      body: null,
    });
  });

  it('serializes an error body with its status', () => {
    const errors = { errors: [{ message: 'No book with id "x".', code: 40400 }] };
    expect(serialize(out(404, errors), false)).toEqual({
      status: 404,
      headers: jsonHeaders,
      body: JSON.stringify(errors),
    });
  });

  it.each(['plain ascii', 'Café crème', '日本語のタイトル', 'emoji 😀👍🏽', 'mixed é 日 😀 ✓', ''])(
    'answers HEAD with no body and the Content-Length of GET for %j (RFC 9110 §9.3.2)',
    (title) => {
      const get = serialize(out(200, { title }), false);
      const head = serialize(out(200, { title }), true);
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

  it('answers HEAD on a string body with its UTF-8 byte length', () => {
    const text = 'naïve 😀';
    const typed = { 'content-type': 'text/plain; charset=utf-8' };
    expect(serialize({ status: 200, headers: { ...typed }, body: text }, true)).toEqual({
      status: 200,
      headers: { ...typed, ...nosniff, 'content-length': String(Buffer.byteLength(text)) },
      body: null,
    });
  });

  it('answers HEAD on a byte body with its byte length', () => {
    expect(serialize(out(200, new Uint8Array(7)), true)).toEqual({
      status: 200,
      headers: { ...nosniff, 'content-type': 'application/octet-stream', 'content-length': '7' },
      body: null,
    });
  });

  it('answers HEAD with no Content-Length when GET has no body', () => {
    expect(serialize(out(204, undefined), true)).toEqual({
      status: 204,
      headers: nosniff,
      body: null,
    });
  });

  it('throws for a body JSON cannot represent, for the pipeline to turn into a 500', () => {
    const cycle: Record<string, unknown> = {};
    cycle['self'] = cycle;
    expect(() => serialize(out(200, { n: 1n }), false)).toThrow(TypeError);
    expect(() => serialize(out(200, cycle), false)).toThrow(TypeError);
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
