/**
 * The auditor's own JSON Schema reading, against ajv as the oracle: its
 * validator agrees with ajv (JSON Schema 2020-12, OpenAPI 3.1 §4.8.24) on every case here, the
 * bodies it makes from a schema are valid, and the ones meant to be refused are not. Also the
 * shapes of error bodies it reads before saying a 404 names nothing (RFC 9457, RFC 6749 §5.2),
 * epoch dates (spec 2.6) and the escaping of control characters (ECMA-48).
 */
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { findDates } from '../../src/audit/checks/dates.ts';
import type { Exchange } from '../../src/audit/client.ts';
import { escapeControls } from '../../src/audit/escape.ts';
import { errorText } from '../../src/audit/inspect.ts';
import { generateValue, violatingBody } from '../../src/audit/openapi/generate.ts';
import type { OpenApiDocument } from '../../src/audit/openapi/ref.ts';
import { validate } from '../../src/audit/openapi/schema.ts';

const components = {
  schemas: {
    Book: {
      type: 'object',
      required: ['id', 'title'],
      properties: {
        id: { type: 'integer', minimum: 1 },
        title: { type: 'string', minLength: 1, maxLength: 10 },
        tags: { type: 'array', items: { type: 'string' }, maxItems: 2 },
        published: { type: 'string', format: 'date' },
        state: { enum: ['draft', 'out'] },
      },
      additionalProperties: false,
    },
    Error: {
      type: 'object',
      required: ['errors'],
      properties: { errors: { type: 'array', minItems: 1, items: { type: 'object' } } },
    },
  },
};
const doc = { paths: {}, components } as OpenApiDocument;
const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
ajv.addSchema({ $id: 'doc', components }, 'doc');
const oracle = (schema: object, value: unknown) => ajv.validate(schema, value) as boolean;
// ajv resolves `#/components/...` inside the document: rewrite local refs to it.
const forAjv = (schema: object) =>
  JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"doc#/components/')) as object;

const book = { $ref: '#/components/schemas/Book' };
const cases: [string, object, unknown][] = [
  ['a valid book', book, { id: 1, title: 'Dune' }],
  ['a book without its title', book, { id: 1 }],
  ['a book with an unknown member', book, { id: 1, title: 'Dune', isbn: 'x' }],
  ['an id below its minimum', book, { id: 0, title: 'Dune' }],
  ['an id that is not an integer', book, { id: 1.5, title: 'Dune' }],
  ['a title too long', book, { id: 1, title: 'A very long title' }],
  ['too many tags', book, { id: 1, title: 'x', tags: ['a', 'b', 'c'] }],
  ['a tag of the wrong type', book, { id: 1, title: 'x', tags: [1] }],
  ['a date that is not a date', book, { id: 1, title: 'x', published: '2026-02-30' }],
  ['a valid date', book, { id: 1, title: 'x', published: '2026-02-28' }],
  ['a state outside the enum', book, { id: 1, title: 'x', state: 'gone' }],
  ['a list of books', { type: 'array', items: book }, [{ id: 2, title: 'b' }]],
  ['a list with a bad book', { type: 'array', items: book }, [{ id: 2 }]],
  ['allOf merged', { allOf: [book, { required: ['tags'] }] }, { id: 1, title: 'x' }],
  ['anyOf matched', { anyOf: [{ type: 'string' }, { type: 'integer' }] }, 3],
  ['anyOf unmatched', { anyOf: [{ type: 'string' }, { type: 'integer' }] }, true],
  ['nullable in 3.1 style', { type: ['string', 'null'] }, null],
  ['a uuid', { type: 'string', format: 'uuid' }, '00000000-0000-4000-8000-000000000000'],
  ['not a uuid', { type: 'string', format: 'uuid' }, 'x'],
  ['a date-time', { type: 'string', format: 'date-time' }, '2026-01-01T00:00:00Z'],
  ['not a date-time', { type: 'string', format: 'date-time' }, '2026-01-01 00:00'],
  ['a pattern', { type: 'string', pattern: '^[a-z]+$' }, 'abc'],
  ['against a pattern', { type: 'string', pattern: '^[a-z]+$' }, 'ABC'],
  ['exclusive maximum', { type: 'number', exclusiveMaximum: 10 }, 10],
  ['not', { not: { type: 'string' } }, 'x'],
  ['const', { const: 'v1' }, 'v2'],
];

describe('validate() agrees with ajv (JSON Schema 2020-12)', () => {
  it.each(cases)('%s', (_what, schema, value) => {
    expect(validate(doc, schema, value).length === 0).toBe(oracle(forAjv(schema), value));
  });
});

describe('values made from schemas', () => {
  it.each([
    ['a book', book],
    ['an error body', { $ref: '#/components/schemas/Error' }],
    ['a date-time', { type: 'string', format: 'date-time' }],
    ['a bounded integer', { type: 'integer', minimum: 5, maximum: 9 }],
    ['a book with a required list', { allOf: [book, { required: ['tags'] }] }],
  ])('makes %s that is valid', (_what, schema) => {
    const value = generateValue(doc, schema);
    expect(value).not.toBeUndefined();
    expect(oracle(forAjv(schema), value)).toBe(true);
  });

  it('makes a body the schema forbids, and says why', () => {
    const violation = violatingBody(doc, book);
    expect(violation?.why).toBe('without the required "id"');
    expect(oracle(forAjv(book), violation?.value)).toBe(false);
  });
});

const answer = (body: string, type = 'application/json'): Exchange => ({
  method: 'GET',
  request: 'GET /x',
  status: 404,
  headers: new Headers({ 'content-type': type }),
  body,
});

describe('what an error response says (spec 7.1.3)', () => {
  it.each([
    [
      'the spec error body',
      '{"errors":[{"message":"Nothing at /x","code":40401}]}',
      'Nothing at /x',
    ],
    [
      'a message',
      '{"message":"Route GET:/x not found","error":"Not Found","statusCode":404}',
      'Route GET:/x not found',
    ],
    [
      'RFC 9457 problem details',
      '{"type":"about:blank","title":"Not Found","detail":"No route /x"}',
      'No route /x',
    ],
    ['an error string', '{"error":"no /x"}', 'no /x'],
    [
      'RFC 6749',
      '{"error":"invalid_request","error_description":"/x is unknown"}',
      '/x is unknown',
    ],
  ])('reads %s', (_what, body, expected) => {
    expect(errorText(answer(body))).toContain(expected);
  });

  it('reads the text of an HTML page and of plain text', () => {
    expect(
      errorText(answer('<html><body><pre>Cannot GET /x</pre></body></html>', 'text/html')),
    ).toBe('Cannot GET /x');
    expect(errorText(answer('User /x not found', 'text/plain'))).toBe('User /x not found');
    expect(errorText(answer('{}'))).toBeUndefined();
  });
});

describe('epoch dates (spec 2.6)', () => {
  it('finds epoch seconds and milliseconds in time-named fields, not counts or years', () => {
    const found = findDates({
      lastLogin: 1_714_550_400_000,
      created: 1_714_550_400,
      lastSeen: 3,
      posts: 1_714_550_400,
      born: 1775,
    });
    expect(found.map((d) => d.where)).toEqual(['lastLogin', 'created']);
  });
});

describe('control characters (ECMA-48)', () => {
  it('escapes C0, DEL, C1 and bidi controls, and nothing else', () => {
    expect(escapeControls('a\u001b[2J\r\u0007\u007f\u009b\u202eé→')).toBe(
      'a\\x1b[2J\\x0d\\x07\\x7f\\x9b\\u202eé→',
    );
  });
});
