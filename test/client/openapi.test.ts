/**
 * api-conventions/client typed from an OpenAPI document, as a service in another language would
 * be: openapi-typescript generates `paths` from the bookshelf's own GET /v1/openapi, and a small
 * program typed by `OpenApiPaths<paths>` compiles under `tsc --strict` (a created book's `id`
 * with no cast, `fields` narrowing the result) while a misspelt path or query parameter, a path
 * parameter of the wrong type or a missing required body does not; then the same program runs
 * against the bookshelf over HTTP: a GET with params, paginate, a POST.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { loadHost, type Running } from '../../examples/bookshelf/hosts/host.ts';
import { compile, strictProject } from '../_tsc.ts';
import { authorizationFor } from '../conformance/_auth.ts';

const root = fileURLToPath(new URL('../../', import.meta.url));

/** The program: what a user of a service in another language writes, typed by its document. */
const program = `import { createClient, isApiResponseError, type OpenApiPaths } from 'api-conventions/client';
import type { paths } from './schema.js';
import type { paths as shelfPaths } from './shelves.js';

export function clientOf(baseUrl: string) {
  return createClient<OpenApiPaths<paths>>({
    baseUrl,
    oauth: {
      clientId: 'demo-client',
      clientSecret: 'demo-secret',
      username: 'alice',
      password: 'wonderland',
      tokenUrl: '/v1/oauth2/token',
    },
  });
}

export async function run(baseUrl: string) {
  const client = clientOf(baseUrl);
  // A GET with params, in the document's {id} form; fields narrow the result (spec 2.10).
  const emma = await client.get('/v1/books/{id}', { params: { id: 'emma' }, fields: ['id', 'title'] });
  const title: string = emma.title;
  // Every item of a filtered list, page after page (spec 2.8, 4.4).
  const years: number[] = [];
  for await (const book of client.paginate('/v1/books', {
    query: { authorId: 'jane-austen' },
    fields: ['id', 'year'],
    size: 2,
  })) {
    years.push(book.year);
  }
  // A POST: the created book's id is a string, no cast.
  const created = await client.post('/v1/books', {
    body: { title: 'Sanditon', authorId: 'jane-austen', year: 1817 },
  });
  const id: string = created.id;
  const again = await client.get('/v1/books/{id}', { params: { id } });
  const missing = await client
    .get('/v1/books/{id}', { params: { id: 'no-such-book' } })
    .then(() => 0, (error: unknown) => (isApiResponseError(error) ? error.code : -1));
  return { title, years, id, againTitle: again.title, missing };
}

/** Mistakes the compiler catches; never called. */
export async function mistakes(baseUrl: string) {
  const client = clientOf(baseUrl);
  // @ts-expect-error a misspelt path
  await client.get('/v1/bookz/{id}', { params: { id: 'emma' } });
  // @ts-expect-error a misspelt query parameter
  await client.get('/v1/books', { query: { pre_page: 5 } });
  const small = await client.get('/v1/books/{id}', { params: { id: 'emma' }, fields: ['id'] });
  // @ts-expect-error \`title\` was not selected
  small.title.length;
  // @ts-expect-error \`year\` is required by BookInput
  await client.post('/v1/books', { body: { title: 'Emma', authorId: 'jane-austen' } });
  // @ts-expect-error the document marks the request body required
  await client.post('/v1/books', {});
  // @ts-expect-error PATCH's request body is required too, its members optional
  await client.patch('/v1/books/{id}', { params: { id: 'emma' } });
  await client.patch('/v1/books/{id}', { params: { id: 'emma' }, body: {} });
  // @ts-expect-error the document types {id} as a string
  await client.get('/v1/books/{id}', { params: { id: 42 } });
  // @ts-expect-error the document names the parameter id
  await client.get('/v1/books/{id}', { params: { ident: 'emma' } });
  // An optional request body and an integer path parameter, from a document of their own.
  const shelves = createClient<OpenApiPaths<shelfPaths>>({ baseUrl });
  await shelves.post('/v1/shelves/{shelfId}', { params: { shelfId: 3 } });
  await shelves.post('/v1/shelves/{shelfId}', { params: { shelfId: 3 }, body: { note: 'top' } });
  // @ts-expect-error the document types {shelfId} as an integer
  await shelves.post('/v1/shelves/{shelfId}', { params: { shelfId: 'three' } });
}
`;

/** A document with what the bookshelf's lacks: an optional request body, an integer in the path. */
const shelves: OpenAPI3 = {
  openapi: '3.1.0',
  info: { title: 'Shelves', version: '1' },
  paths: {
    '/v1/shelves/{shelfId}': {
      post: {
        parameters: [{ name: 'shelfId', in: 'path', required: true, schema: { type: 'integer' } }],
        requestBody: {
          required: false,
          content: {
            'application/json': {
              schema: { type: 'object', properties: { note: { type: 'string' } } },
            },
          },
        },
        responses: { 204: { description: 'Shelved.' } },
      },
    },
  },
};

describe('the client typed from openapi-typescript types of /v1/openapi', () => {
  let running: Running;
  let base: string;
  let dir: string;
  beforeAll(async () => {
    const serve = await loadHost('node');
    running = await serve(createBookshelf({ logger: { error() {}, warn() {} } }), {
      port: 0,
      host: '127.0.0.1',
    });
    base = `http://127.0.0.1:${running.port}`;
    const document = await (await fetch(`${base}/v1/openapi`)).json();
    dir = strictProject(
      'openapi-client-',
      {
        'main.ts': program,
        'schema.d.ts': astToString(await openapiTS(document)),
        'shelves.d.ts': astToString(await openapiTS(shelves)),
      },
      {
        allowImportingTsExtensions: true,
        lib: ['ES2022', 'DOM', 'DOM.Iterable'],
        paths: {
          '#core': [join(root, 'src/core/index.ts')],
          'api-conventions/client': [join(root, 'src/client.ts')],
        },
      },
    );
  }, 30_000);
  afterAll(async () => {
    await running?.close();
  });

  it('compiles under tsc --strict, and refuses a misspelt path, query or path parameter and a missing body', () => {
    writeFileSync(join(dir, 'main.ts'), program);
    const good = compile(dir);
    expect(good.output).toBe('');
    expect(good.ok).toBe(true);
    // Without the @ts-expect-error lines, each mistake is an error of its own.
    writeFileSync(join(dir, 'main.ts'), program.replace(/^\s*\/\/ @ts-expect-error.*\n/gm, ''));
    const bad = compile(dir);
    expect(bad.ok).toBe(false);
    expect(bad.output).toContain('"/v1/bookz/{id}"');
    expect(bad.output).toContain("'pre_page' does not exist");
    expect(bad.output).toContain("Property 'title' does not exist");
    expect(bad.output).toContain("Property 'year' is missing");
    // A required request body (POST, PATCH), path parameters as the documents type them.
    expect(bad.output.match(/Property 'body' is missing/g)).toHaveLength(2);
    expect(bad.output).toContain("Type 'number' is not assignable to type 'string'");
    expect(bad.output).toContain("'ident' does not exist in type '{ id: string; }'");
    expect(bad.output).toContain("Type 'string' is not assignable to type 'number'");
  }, 60_000);

  it('gets, pages and creates against the bookshelf over HTTP (spec 2.8, 2.10, 7.1.5)', async () => {
    writeFileSync(join(dir, 'main.ts'), program);
    const { run } = (await import(/* @vite-ignore */ join(dir, 'main.ts'))) as {
      run: (baseUrl: string) => Promise<{
        title: string;
        years: number[];
        id: string;
        againTitle: string;
        missing: number;
      }>;
    };
    const listed = (await (
      await fetch(`${base}/v1/books?authorId=jane-austen&per_page=100&fields=year`, {
        headers: { authorization: (await authorizationFor(base, 'alice')) ?? '' },
      })
    ).json()) as { books: { year: number }[] };
    const result = await run(base);
    expect(result.title).toBe('Emma');
    expect(listed.books.length).toBeGreaterThan(2);
    expect(result.years).toEqual(listed.books.map((b) => b.year));
    expect(result.id).toMatch(/\S/);
    expect(result.againTitle).toBe('Sanditon');
    expect(result.missing).toBe(40400);
  });
});
