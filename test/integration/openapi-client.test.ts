/**
 * A typed client generated from the bookshelf's OpenAPI document by tools we did not write
 * (openapi-typescript for the types, openapi-fetch for the calls) compiles a small program under
 * `tsc --strict` that lists books, reads a title and an error's message, gets a token and uses
 * its `access_token`, creates a book and uses its `id` (no cast, no `undefined` check: the
 * document names those members required), by the schemas' names (`Book`, `TokenResponse`); and a
 * mistake in it (a misspelt field) does not compile, so the types carry the document's schemas.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { createBookshelf } from '../../examples/bookshelf/app.ts';
import { bookshelfDocument } from '../../examples/bookshelf/openapi.ts';
import { compile, strictProject } from '../_tsc.ts';

const program = (titleField: string) => `import createClient from 'openapi-fetch';
import type { components, paths } from './schema.js';

const client = createClient<paths>({ baseUrl: 'http://127.0.0.1:3000' });
type Book = components['schemas']['Book'];
type Token = components['schemas']['TokenResponse'];

export async function createBook(): Promise<{ id: string; book: Book }> {
  const token = await client.POST('/v1/oauth2/token', {
    headers: { authorization: 'Basic ZGVtby1jbGllbnQ6ZGVtby1zZWNyZXQ=' },
    body: { grant_type: 'password', username: 'alice', password: 'wonderland' },
    bodySerializer: (body) => new URLSearchParams(body as Record<string, string>).toString(),
  });
  if (token.error !== undefined) throw new Error('no token');
  const granted: Token = token.data;
  const bearer: string = granted.access_token;
  const seconds: number = token.data.expires_in;
  const created = await client.POST('/v1/books', {
    headers: { authorization: \`Bearer \${bearer}\` },
    body: { title: 'Emma', authorId: 'jane-austen', year: 1815 + seconds * 0 },
  });
  if (created.error !== undefined) throw new Error(created.error.errors[0]?.message);
  const id: string = created.data.id;
  return { id, book: created.data };
}

export async function firstTitle(): Promise<string | undefined> {
  const { data, error } = await client.GET('/v1/books', { params: { query: { per_page: 5 } } });
  if (error !== undefined) {
    const message: string | undefined = error.errors[0]?.message;
    throw new Error(message);
  }
  const first = data.books[0];
  return first?.${titleField};
}
`;

describe('a client generated from /v1/openapi', () => {
  it('compiles under tsc --strict, and refuses a misspelt field', async () => {
    const document = bookshelfDocument(createBookshelf({ logger: { error() {}, warn() {} } }));
    const types = astToString(await openapiTS(document as never));
    const dir = strictProject('client-', { 'main.ts': program('title'), 'schema.d.ts': types });
    const good = compile(dir);
    expect(good.output).toBe('');
    expect(good.ok).toBe(true);
    writeFileSync(join(dir, 'main.ts'), program('titel'));
    const bad = compile(dir);
    expect(bad.ok).toBe(false);
    expect(bad.output).toContain("Property 'titel' does not exist");
  }, 60_000);
});
