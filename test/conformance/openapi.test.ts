/**
 * The OpenAPI 3.1 document (OpenAPI Specification 3.1.0) the bookshelf serves at /v1/openapi,
 * judged by tools we did not write: it validates against the official OpenAPI 3.1 schema
 * (@seriousme/openapi-schema-validator), lints clean with Redocly's recommended rules
 * (@redocly/openapi-core), and the error bodies the bookshelf sends validate against the
 * document's schema for their path, method and status (ajv, JSON Schema 2020-12), on every host.
 */
import { createConfig, lintFromString } from '@redocly/openapi-core';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { bookshelfDocument } from '../../examples/bookshelf/openapi.ts';
import { conventions, defineRoute, openapi } from '../../src/index.ts';
import { describeMatrix } from './_matrix.ts';

const quiet = { error: () => {}, warn: () => {} };
const document = bookshelfDocument(createBookshelf({ logger: quiet }));

describe('the bookshelf OpenAPI document', () => {
  it('validates against the official OpenAPI 3.1 schema', async () => {
    const result = await new Validator().validate(document as never);
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
  });

  it("lints clean with Redocly's recommended rules", async () => {
    const config = await createConfig({ extends: ['recommended'] });
    const problems = await lintFromString({
      source: JSON.stringify(document),
      absoluteRef: 'openapi.json',
      config,
    });
    expect(problems.map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
  });

  it('is deterministic, lists every route of the table, and marks deprecated operations', () => {
    expect(JSON.stringify(bookshelfDocument(createBookshelf({ logger: quiet })))).toBe(
      JSON.stringify(document),
    );
    const paths = document.paths as Record<
      string,
      Record<string, { deprecated?: boolean; security?: unknown[] }>
    >;
    expect(Object.keys(paths)).toEqual(Object.keys(paths).sort());
    expect(paths['/v1/books/{id}']).toHaveProperty('get');
    expect(paths['/v1/books/{id}']).toHaveProperty('delete');
    expect(paths['/v1/authors']?.get?.deprecated).toBe(true);
    expect(paths['/v1/openapi']?.get?.security).toEqual([]);
  });

  it('describes what the installed plugins add: rate-limit headers and 429 with Retry-After, ETag and 304, bearer security', () => {
    const paths = document.paths as Record<
      string,
      Record<string, { responses: Record<string, { headers?: object; $ref?: string }> }>
    >;
    const get = paths['/v1/books']!.get!.responses;
    expect(Object.keys(get['200']!.headers ?? {})).toEqual(
      expect.arrayContaining([
        'ETag',
        'Cache-Control',
        'X-RateLimit-Limit',
        'X-RateLimit-Remaining',
      ]),
    );
    expect(get['429']).toEqual({ $ref: '#/components/responses/TooManyRequests' });
    // The route offers JSON and XML (spec 4.5); its .xml twin XML alone.
    expect(Object.keys((get['200'] as { content: object }).content)).toEqual([
      'application/json',
      'application/xml',
    ]);
    const xmlTwin = paths['/v1/books.xml']!.get!.responses['200'] as { content: object };
    expect(Object.keys(xmlTwin.content)).toEqual(['application/xml']);
    expect(get['304']).toBeDefined();
    const components = document.components as { responses: Record<string, { headers?: object }> };
    expect(components.responses.TooManyRequests!.headers).toHaveProperty('Retry-After');
    const plain = openapi(
      conventions({ lint: 'off', routes: { '/v1/things': { GET: () => ({}) } } }),
      {
        info: { title: 'Plain', version: '1' },
      },
    ) as {
      paths: Record<string, Record<string, { responses: object; security: unknown[] }>>;
      components: { securitySchemes: object };
    };
    const op = plain.paths['/v1/things']!.get!;
    expect(Object.keys(op.responses)).not.toContain('429');
    expect(Object.keys(op.responses)).not.toContain('401');
    expect(op.security).toEqual([]);
    expect(plain.components.securitySchemes).toEqual({});
  });

  it('describes Standard Schema bodies and responses as JSON Schema 2020-12, and field rules too', () => {
    const api = conventions({
      lint: 'off',
      routes: {
        '/v1/notes': {
          POST: defineRoute(
            {
              body: z.object({
                text: z.string().min(1),
                tags: z.array(z.object({ name: z.string() })),
              }),
              response: { 201: z.object({ id: z.string() }) },
            },
            () => ({ id: 'n1' }),
          ),
          PUT: {
            handler: () => ({}),
            config: { body: { text: { type: 'string', required: true, max: 10 } } },
          },
        },
      },
    });
    const doc = openapi(api, { info: { title: 'Notes', version: '1' } }) as {
      paths: Record<
        string,
        Record<
          string,
          {
            requestBody: { content: Record<string, { schema: unknown }> };
            responses: Record<string, unknown>;
          }
        >
      >;
    };
    const post = doc.paths['/v1/notes']!.post!;
    expect(post.requestBody.content['application/json']!.schema).toMatchObject({
      type: 'object',
      properties: { tags: { type: 'array', items: { properties: { name: { type: 'string' } } } } },
      required: ['text', 'tags'],
    });
    expect(post.responses['201']).toMatchObject({
      content: { 'application/json': { schema: { properties: { id: { type: 'string' } } } } },
    });
    expect(doc.paths['/v1/notes']!.put!.requestBody.content['application/json']!.schema).toEqual({
      type: 'object',
      properties: { text: { type: 'string', maxLength: 10 } },
      required: ['text'],
      additionalProperties: false,
    });
  });
});

/** The JSON Schema of `status` on `method path` in the document, `$ref`s resolved by ajv. */
function validatorFor(path: string, method: string, status: string) {
  const ajv = new Ajv2020({ strict: false });
  ajv.addSchema({ $id: 'doc', components: document.components }, 'doc');
  const responses = (
    document.paths as Record<string, Record<string, { responses: Record<string, unknown> }>>
  )[path]![method]!.responses;
  const response = responses[status] as {
    $ref?: string;
    content?: Record<string, { schema: unknown }>;
  };
  expect(response, `${method} ${path} documents ${status}`).toBeDefined();
  const schema =
    response.$ref !== undefined
      ? { $ref: 'doc#/components/schemas/Error' }
      : (response.content?.['application/json']?.schema as object);
  return ajv.compile(schema);
}

describeMatrix(
  'responses against the OpenAPI document',
  () => createBookshelf({ logger: quiet }),
  (served) => {
    it('serves the document publicly as JSON', async () => {
      const res = await served.fetchAs('anonymous', '/v1/openapi');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      expect(await res.json()).toEqual(document);
    });

    it.each([
      ['/v1/books/{id}', 'get', '/v1/books/nope', 'alice', '404'],
      ['/v1/books', 'get', '/v1/books', 'anonymous', '401'],
      ['/v1/books', 'get', '/v1/books?per_page=0', 'alice', '400'],
    ] as const)(
      'the %s %s error a client meets fits its documented schema (%s → %s)',
      async (path, method, url, user, status) => {
        const res = await served.fetchAs(user, url);
        expect(String(res.status)).toBe(status);
        const validate = validatorFor(path, method, status);
        const body = await res.json();
        expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
      },
    );
  },
);
