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
import { conventions, defineRoute, openapi, serveOpenApi } from '../../src/index.ts';
import { contractRecorder } from './_contract.ts';
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
    // Errors come in every type the route answers in: JSON, XML and the vendor tree's own.
    expect(get['429']).toEqual({ $ref: '#/components/responses/TooManyRequestsJsonXmlVendor' });
    // Exactly what the route serves: JSON and XML (spec 4.5), the vendor tree's own types and
    // its version's (RFC 6839), no other.
    expect(Object.keys((get['200'] as { content: object }).content)).toEqual([
      'application/json',
      'application/xml',
      'text/xml',
      'application/vnd.bookshelf+json',
      'application/vnd.bookshelf+xml',
      'application/vnd.bookshelf.v1+json',
      'application/vnd.bookshelf.v1+xml',
    ]);
    // The .json and .xml twins are the same operation, not paths of their own: a client picks
    // the format with Accept or the documented `format` parameter.
    expect(Object.keys(paths)).not.toContain('/v1/books.xml');
    expect(Object.keys(paths)).not.toContain('/v1/books.json');
    const parameters = (
      paths['/v1/books']!.get as unknown as { parameters: { name: string; schema: unknown }[] }
    ).parameters;
    expect(parameters.find((p) => p.name === 'format')?.schema).toEqual({
      type: 'string',
      enum: ['json', 'xml'],
    });
    expect(get.default).toEqual({ $ref: '#/components/responses/ErrorJsonXmlVendor' });
    expect(get['304']).toBeDefined();
    const components = document.components as { responses: Record<string, { headers?: object }> };
    expect(components.responses.TooManyRequestsJsonXmlVendor!.headers).toHaveProperty(
      'Retry-After',
    );
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
      components: { schemas: Record<string, unknown> };
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
    // Field rules make a named body (`NoteInput`: the resource's name), referenced from the write.
    expect(doc.paths['/v1/notes']!.put!.requestBody.content['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/NoteInput',
    });
    expect(doc.components.schemas.NoteInput).toEqual({
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
  // A reference inside the document, resolved against the document added above.
  return ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll('"#/', '"doc#/')) as object);
}

describeMatrix(
  'responses against the OpenAPI document',
  () => createBookshelf({ logger: quiet }),
  (served) => {
    it('serves the document publicly as JSON', async () => {
      const res = await served.fetchAs('anonymous', '/v1/openapi');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      // The table's operations as the document built above has them, and on the hosts that
      // route by themselves the app's own routes too (handed over by the host).
      const given = (await res.json()) as { paths: Record<string, unknown> };
      expect(given.paths).toMatchObject(document.paths as object);
      expect(Object.hasOwn(given.paths, '/v1/native')).toBe(served.adapter !== 'node');
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

describe('what a route says of itself, and the check of every response', () => {
  const notes = () =>
    conventions({
      lint: 'off',
      routes: {
        '/v1/notes/:id': {
          GET: defineRoute(
            {
              response: { 200: z.object({ id: z.string(), text: z.string() }) },
              openapi: {
                summary: 'Read a note',
                tags: ['notes'],
                responses: { '303': { description: 'Moved to its successor.' } },
              },
            },
            () => ({ id: 'n1', text: 'hello' }),
          ),
          DELETE: () => ({ removed: true }),
        },
      },
    });

  it('merges the `openapi` setting over the derived operation: summary, tags, a response of its own', () => {
    const doc = openapi(notes(), { info: { title: 'Notes', version: '1' } }) as {
      paths: Record<string, Record<string, Record<string, unknown>>>;
    };
    const get = doc.paths['/v1/notes/{id}']!.get!;
    expect(get.summary).toBe('Read a note');
    expect(get.tags).toEqual(['notes']);
    expect(Object.keys(get.responses as object)).toEqual(
      expect.arrayContaining(['200', '303', 'default']),
    );
    // Without a declared response, a DELETE's success is any 2XX: the handler chooses.
    expect(Object.keys(doc.paths['/v1/notes/{id}']!.delete!.responses as object)).toContain('2XX');
  });

  it('refuses an `openapi` setting it cannot use, at start-up', () => {
    expect(() =>
      conventions({
        lint: 'off',
        routes: {
          '/v1/x': {
            GET: { handler: () => ({}), config: { openapi: { responses: { ok: {} } } as never } },
          },
        },
      }),
    ).toThrow(/statuses \('200', '2XX', 'default'\)/);
    expect(() =>
      conventions({
        lint: 'off',
        routes: {
          '/v1/x': { GET: { handler: () => ({}), config: { openapi: { sumary: 'x' } as never } } },
        },
      }),
    ).toThrow(TypeError);
  });

  it('the response check finds a body off its schema, a success the operation does not list, an unoffered media type', async () => {
    const doc = openapi(notes(), { info: { title: 'Notes', version: '1' } });
    const recorder = contractRecorder();
    const json = (body: unknown, status = 200, type = 'application/json') =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': type } });
    recorder.record('GET', '/v1/notes/n1', json({ id: 'n1', text: 'fits' }));
    recorder.record('GET', '/v1/notes/n1', json({ id: 1, text: 'id is a number' }));
    recorder.record('GET', '/v1/notes/n1', json({ id: 'n1', text: 'x' }, 201));
    recorder.record('GET', '/v1/notes/n1', json({ id: 'n1', text: 'x' }, 200, 'application/xml'));
    recorder.record(
      'GET',
      '/v1/notes/n1',
      json({ errors: [{ message: 'gone', code: 40400 }] }, 404),
    );
    recorder.record('GET', '/v1/notes/n1', json({ error: 'not the error body' }, 409));
    recorder.record('GET', '/v1/nowhere', json({ errors: [{ message: 'no', code: 40400 }] }, 404));
    recorder.record('GET', '/v1/nowhere', json({}, 200));
    const problems = await recorder.problems(doc);
    expect(problems).toHaveLength(5);
    expect(problems[0]).toMatch(/does not fit the documented schema: data\/id must be string/);
    // A status the operation does not list falls to `default`: the error body, which it is not.
    expect(problems[1]).toMatch(/→ 201: the body does not fit the documented schema/);
    expect(problems[2]).toMatch(/sent application\/xml, the document offers application\/json/);
    expect(problems[3]).toMatch(/409: the body does not fit/);
    expect(problems[4]).toMatch(/answered 200 to an operation the document does not list/);
  });
});

describe('serveOpenApi: the plugin that serves the document', () => {
  it('refuses options it cannot use at start-up, naming what to give', () => {
    expect(() => serveOpenApi({} as never)).toThrow(/give info: \{ title, version \}/);
    expect(() => serveOpenApi({ info: { title: 'T', version: '1' }, path: 'v1/openapi' })).toThrow(
      /path must start with "\/"/,
    );
  });

  it('serves openapi() of the service it is installed in, at its path, without a token', async () => {
    const info = { title: 'Things', version: '2.0.0' };
    const api = conventions({
      lint: 'off',
      routes: { '/v1/things': { GET: () => ({ things: [], hasNext: false }) } },
      plugins: [serveOpenApi({ info, path: '/v1/things-api' })],
    });
    const res = await api.handle({
      method: 'GET',
      url: '/v1/things-api',
      headers: new Headers(),
    });
    expect(res.status).toBe(200);
    const body = JSON.parse(String(res.body)) as {
      paths: Record<string, unknown>;
    };
    expect(body).toEqual(openapi(api, { info }));
    expect(Object.keys(body.paths)).toEqual(['/v1/things', '/v1/things-api']);
  });
});
