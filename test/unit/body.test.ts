import { describe, expect, it } from 'vitest';
import { bodyFormat, mediaTypesOf, parseBody } from '../../src/core/index.ts';
import { ApiError, type BodyFormat } from '../../src/index.ts';
import { thrown } from './_thrown.ts';

const bytes = (text: string) => new TextEncoder().encode(text);
const json: BodyFormat[] = ['json'];
const both: BodyFormat[] = ['json', 'form'];

describe('parseBody', () => {
  it.each([
    ['application/json', json],
    [undefined, json],
    ['text/plain', json],
    ['not a media type', json],
  ])('gives undefined for an empty body whatever the Content-Type (%s)', (type, accepts) => {
    expect(parseBody(new Uint8Array(0), type, accepts)).toBeUndefined();
  });

  it.each([
    ['application/json', '{"title":"Dune","year":1965}', { title: 'Dune', year: 1965 }],
    ['application/json; charset=utf-8', '{"title":"Café"}', { title: 'Café' }],
    ['application/json; charset=UTF-8', '{"a":1}', { a: 1 }],
    ['application/json ; charset="utf-8"', '{"a":1}', { a: 1 }],
    ['APPLICATION/JSON', '{"a":1}', { a: 1 }],
    ['application/json', '[1,2]', [1, 2]],
    ['application/json', 'null', null],
    ['application/json', '42', 42],
    ['application/json', '"text"', 'text'],
    ['application/json', '\uFEFF{"a":1}', { a: 1 }],
  ])('parses %s body %s as JSON (RFC 8259)', (type, text, value) => {
    expect(parseBody(bytes(text), type, json)).toEqual(value);
  });

  it.each([
    'application/vnd.acme.book+json',
    'application/vnd.acme.book+json; charset=utf-8',
    'application/problem+json',
    'APPLICATION/VND.ACME.BOOK+JSON',
  ])('parses the vendor type %s as JSON by its +json suffix (RFC 6839 §3.1, spec 4.6)', (type) => {
    expect(parseBody(bytes('{"id":"dune"}'), type, json)).toEqual({ id: 'dune' });
  });

  it.each([
    ['a=1&b=hello+world', { a: '1', b: 'hello world' }],
    [
      'grant_type=password&username=alice&password=wonder%26land',
      {
        grant_type: 'password',
        username: 'alice',
        password: 'wonder&land',
      },
    ],
    ['title=caf%C3%A9', { title: 'café' }],
    ['title=café', { title: 'café' }],
    ['a=1&a=2', { a: ['1', '2'] }],
    ['a=1&b=2&a=3&a=4', { a: ['1', '3', '4'], b: '2' }],
    ['flag', { flag: '' }],
  ])('parses the form body %s (spec 4.9)', (text, value) => {
    expect(parseBody(bytes(text), 'application/x-www-form-urlencoded', both)).toEqual(value);
  });

  it('gives a form body its own keys, with no prototype pollution', () => {
    const value = parseBody(
      bytes('__proto__=x&constructor=y'),
      'application/x-www-form-urlencoded',
      ['form'],
    ) as Record<string, unknown>;
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
    expect(Object.keys(value)).toEqual(['__proto__', 'constructor']);
    expect(({} as Record<string, unknown>)['x']).toBeUndefined();
  });

  it.each([
    ['latin1', 'application/json; charset=latin1'],
    ['ISO-8859-1', 'application/json; charset=ISO-8859-1'],
    ['utf-16', 'application/x-www-form-urlencoded; charset=utf-16'],
  ])('answers charset %s with 415: bodies are UTF-8 (RFC 8259 §8.1)', (charset, type) => {
    const error = thrown(() => parseBody(bytes('{}'), type, both));
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 415,
      code: 41500,
      message: `Charset "${charset}" is not supported; send the body as UTF-8.`,
    });
  });

  it.each([undefined, null, ''])(
    'answers bytes without a Content-Type (%j) with 415 (spec 4.6)',
    (type) => {
      expect(thrown(() => parseBody(bytes('{}'), type, json))).toMatchObject({
        status: 415,
        code: 41500,
        message: 'A body needs a Content-Type; send one of: application/json.',
      });
    },
  );

  it.each([
    ['text/plain', both, 'application/json, application/x-www-form-urlencoded'],
    ['application/xml', json, 'application/json'],
    [
      'multipart/form-data; boundary=x',
      both,
      'application/json, application/x-www-form-urlencoded',
    ],
    ['application/x-www-form-urlencoded', json, 'application/json'],
    ['application/json', ['form'] as BodyFormat[], 'application/x-www-form-urlencoded'],
    ['application/vnd.acme+json', ['form'] as BodyFormat[], 'application/x-www-form-urlencoded'],
  ])(
    'answers the unlisted type %s with 415 naming the supported types (spec 4.6)',
    (type, accepts, supported) => {
      const mediaType = type.split(';')[0];
      expect(thrown(() => parseBody(bytes('a=1'), type, accepts))).toMatchObject({
        status: 415,
        code: 41500,
        message: `Content-Type "${mediaType}" is not supported; send one of: ${supported}.`,
      });
    },
  );

  const malformedHeader = {
    status: 400,
    code: 40009,
    message:
      'The Content-Type header is malformed or was sent more than once; send one media type, such as application/json.',
  };

  it.each([
    'json',
    '/',
    'application/',
    '/json',
    'application/json; charset',
    'application/json; charset=',
    'application/json; =utf-8',
    'application/json; charset=utf 8',
    'application/json; charset="utf-8',
    'application/json charset=utf-8',
    'application/json; charset=utf-8; charset=latin1',
    'application/json; CHARSET=utf-8; charset=utf-8',
    'appli cation/json',
    'application/json\x00',
  ])('answers the malformed Content-Type %j with 400 code 40009 (RFC 9110 §8.3.1)', (type) => {
    expect(thrown(() => parseBody(bytes('{}'), type, json))).toMatchObject(malformedHeader);
  });

  it.each([
    'application/json, application/json',
    'application/json,application/json',
    'application/json; charset=utf-8, application/json',
    'text/plain, application/json',
  ])(
    'answers the Content-Type %j, a header sent twice and joined by a fetch host, with 400 code 40009 (RFC 9110 §5.3)',
    (type) => {
      expect(thrown(() => parseBody(bytes('{}'), type, json))).toMatchObject(malformedHeader);
    },
  );

  it('answers a malformed Content-Type without repeating the client’s value', () => {
    const error = thrown(() => parseBody(bytes('{}'), '<script>x</script>', json)) as ApiError;
    expect(error).toMatchObject(malformedHeader);
    expect(error.message).not.toContain('<script>');
  });

  it.each([
    'application/json;',
    'application/json; ',
    'application/json ;',
    'application/json;\t',
    'application/json;;',
    'application/json; ; charset=utf-8',
    'application/json;charset=utf-8;',
    '\tapplication/json; charset=utf-8 ',
  ])(
    'regression: reads %j, with an empty parameter or trailing ";", as JSON and not as malformed (RFC 9110 §5.6.6)',
    (type) => {
      expect(parseBody(bytes('{"a":1}'), type, json)).toEqual({ a: 1 });
    },
  );

  it('answers text/plain;; with 415 now that empty parameters parse (RFC 9110 §5.6.6)', () => {
    expect(thrown(() => parseBody(bytes('{}'), 'text/plain;;', json))).toMatchObject({
      status: 415,
      code: 41500,
      message: 'Content-Type "text/plain" is not supported; send one of: application/json.',
    });
  });

  it.each([
    'application/json; charset=utf8',
    'application/json; charset=UTF8',
    'application/json; charset="UTF-8"',
    'application/json; charset="utf8"',
    'application/json; Charset=Utf-8',
    'application/json; charset = utf-8',
    'application/json; charset="utf\\-8"',
  ])('regression: reads %j as UTF-8 rather than answering 415 (RFC 8259 §8.1)', (type) => {
    expect(parseBody(bytes('{"title":"Café"}'), type, json)).toEqual({ title: 'Café' });
  });

  it.each([
    ['application/json; charset=utf-16', 'utf-16'],
    ['application/json; charset="latin1"', 'latin1'],
    ['application/json; charset=""', ''],
    ['application/json; charset=utf-8x', 'utf-8x'],
    ['application/json; charset="utf-8,latin1"', 'utf-8,latin1'],
  ])('still answers %s with 415: only UTF-8 is read', (type, charset) => {
    expect(thrown(() => parseBody(bytes('{}'), type, json))).toMatchObject({
      status: 415,
      code: 41500,
      message: `Charset "${charset}" is not supported; send the body as UTF-8.`,
    });
  });

  it('reads other parameters, quoted or not, and ignores them', () => {
    expect(
      parseBody(bytes('{"a":1}'), 'application/json; profile="https://x.test/a;b"; v=1', json),
    ).toEqual({ a: 1 });
  });

  it.each(['{"a":', '{a:1}', "{'a':1}", '{"a":1,}', 'undefined', '{"a":1}{'])(
    'answers the malformed JSON %s with 400 code 40001 saying where it broke',
    (text) => {
      const error = thrown(() => parseBody(bytes(text), 'application/json', json));
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 400, code: 40001 });
      expect((error as ApiError).message).toMatch(/^The request body is not valid JSON: .+\.$/);
    },
  );

  it.each([
    ['a lone continuation byte', [0x7b, 0x80, 0x7d]],
    ['0xFF', [0xff, 0xfe]],
    ['a truncated sequence', [0x22, 0xc3, 0x22]],
    ['an overlong encoding', [0x22, 0xc0, 0xaf, 0x22]],
  ])('answers invalid UTF-8 bytes (%s) with 400 code 40001 (RFC 8259 §8.1)', (_, raw) => {
    const error = thrown(() => parseBody(new Uint8Array(raw), 'application/json', json));
    expect(error).toMatchObject({
      status: 400,
      code: 40001,
      message: 'The request body is not valid UTF-8.',
    });
  });

  it('answers invalid UTF-8 in a form body with 400 as well', () => {
    const error = thrown(() =>
      parseBody(new Uint8Array([0x61, 0x3d, 0xff]), 'application/x-www-form-urlencoded', both),
    );
    expect(error).toMatchObject({ status: 400, code: 40001 });
  });
});

describe('bodyFormat', () => {
  it.each([
    ['application/json', json, { format: 'json', charset: undefined }],
    ['application/json; charset=utf-8', json, { format: 'json', charset: 'utf-8' }],
    ['application/vnd.acme.book+json', json, { format: 'json', charset: undefined }],
    ['application/x-www-form-urlencoded', both, { format: 'form', charset: undefined }],
    ['application/json; charset=latin1', json, { format: 'json', charset: 'latin1' }],
  ])('reads %s as %j', (type, accepts, expected) => {
    expect(bodyFormat(type, accepts)).toEqual(expected);
  });

  it.each([
    ['application/json; charset="UTF-8"', 'UTF-8'],
    ['application/json;charset=utf8;', 'utf8'],
    ['application/json; charset="a\\"b"', 'a"b'],
  ])('reads the charset of %s as %j, unquoted', (type, charset) => {
    expect(bodyFormat(type, json)).toEqual({ format: 'json', charset });
  });

  it('answers an unlisted type with 415 and a malformed one with 400', () => {
    expect(thrown(() => bodyFormat('text/plain', json))).toMatchObject({ status: 415 });
    expect(thrown(() => bodyFormat('json', json))).toMatchObject({ status: 400, code: 40009 });
    expect(thrown(() => bodyFormat('application/json, application/json', json))).toMatchObject({
      status: 400,
      code: 40009,
    });
    expect(thrown(() => bodyFormat(undefined, json))).toMatchObject({ status: 415 });
  });
});

describe('mediaTypesOf', () => {
  it.each([
    [['json'], ['application/json']],
    [['form'], ['application/x-www-form-urlencoded']],
    [
      ['json', 'form'],
      ['application/json', 'application/x-www-form-urlencoded'],
    ],
    [[], []],
  ] as [BodyFormat[], string[]][])('names %j as %j', (formats, types) => {
    expect(mediaTypesOf(formats)).toEqual(types);
  });
});
