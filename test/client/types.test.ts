/**
 * The typed client: paths, parameters, query, bodies and responses read from the bookshelf's own
 * route table, with `fields` narrowing the result. The `@ts-expect-error` lines fail
 * `npm run typecheck` if the types stop catching those mistakes; the calls never run.
 */
import { defineRoutes } from 'api-conventions';
import { type Client, createClient } from 'api-conventions/client';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { BookshelfRoutes } from '../../examples/bookshelf-client/routes.ts';

/** Type checks only: the function is compiled, never called. */
async function typed(client: Client<BookshelfRoutes>) {
  // Without fields: the whole book, its required members required (spec 2.10).
  const book = await client.get('/v1/books/:id', { params: { id: 'emma' } });
  const title: string = book.title;
  const year: number = book.year;
  const author: string = book.author.name;
  const created: string = book.createdAt; // a Date on the server, a string on the wire
  void [title, year, author, created];

  // With fields: only the selected members.
  const small = await client.get('/v1/books/:id', {
    params: { id: 'emma' },
    fields: ['id', 'title'],
  });
  const id: string = small.id;
  // @ts-expect-error `year` was not selected
  small.year;
  void id;

  // @ts-expect-error `isbn` is not a member of a book
  await client.get('/v1/books/:id', { params: { id: 'emma' }, fields: ['isbn'] });

  // With a view: any member may be missing.
  const viewed = await client.get('/v1/books/:id', { params: { id: 'emma' }, view: 'small' });
  // @ts-expect-error a view may leave `title` out
  const sure: string = viewed.title;
  void sure;

  // A list: the envelope, its items narrowed by fields.
  const page = await client.get('/v1/books', {
    query: { per_page: 5, year: 1815 },
    fields: ['id'],
  });
  const hasNext: boolean = page.hasNext;
  const first: string | undefined = page.books[0]?.id;
  // @ts-expect-error `title` was not selected
  page.books[0]?.title;
  void [hasNext, first];

  // @ts-expect-error a misspelt query parameter
  await client.get('/v1/books', { query: { pre_page: 5 } });

  // @ts-expect-error a misspelt path
  await client.get('/v1/bookz/:id', { params: { id: 'emma' } });

  // @ts-expect-error the template names `id`, so params are required
  await client.get('/v1/books/:id');

  // Bodies from the field rules: title, authorId and year required on POST…
  const made = await client.post('/v1/books', {
    body: { title: 'Emma', authorId: 'jane-austen', year: 1815 },
  });
  const madeId: string = made.id;
  void madeId;
  // @ts-expect-error `year` is required on POST
  await client.post('/v1/books', { body: { title: 'Emma', authorId: 'jane-austen' } });
  // @ts-expect-error a POST with a `body` setting requires a body
  await client.post('/v1/books', {});
  // @ts-expect-error …and so its options
  await client.post('/v1/books');
  // @ts-expect-error a PUT with a `body` setting requires a body
  await client.put('/v1/books/:id', { params: { id: 'emma' } });
  // …and every field optional on PATCH, the body itself still required.
  await client.patch('/v1/books/:id', { params: { id: 'emma' }, body: { year: 1816 } });
  await client.patch('/v1/books/:id', { params: { id: 'emma' }, body: {} });
  // @ts-expect-error PATCH requires a body, even an empty one
  await client.patch('/v1/books/:id', { params: { id: 'emma' } });
  // @ts-expect-error `year` is an integer
  await client.patch('/v1/books/:id', { params: { id: 'emma' }, body: { year: '1816' } });

  // @ts-expect-error there is no DELETE on the list
  await client.delete('/v1/books');

  // paginate: items typed and narrowed.
  for await (const item of client.paginate('/v1/books', { fields: ['id', 'year'], size: 10 })) {
    const n: number = item.year;
    // @ts-expect-error `title` was not selected
    item.title;
    void n;
  }

  // raw: the status and headers beside the typed body.
  const raw = await client.raw.get('/v1/books/:id', { params: { id: 'emma' } });
  const status: number = raw.status;
  const rawTitle: string = raw.body.title;
  void [status, rawTitle];
}

/** A table whose bodies may be left out: no `body` setting, or a schema that takes `undefined`. */
const optionalBodies = defineRoutes({
  '/v1/pings': { POST: () => ({ ok: true }) },
  '/v1/notes': {
    POST: { config: { body: z.object({ text: z.string() }).optional() }, handler: () => ({}) },
  },
});

/** Type checks only: bodies are optional where the route does not require one. */
async function optional(client: Client<typeof optionalBodies>) {
  await client.post('/v1/pings');
  await client.post('/v1/notes');
  await client.post('/v1/notes', { body: { text: 'hello' } });
  // @ts-expect-error `text` is a string
  await client.post('/v1/notes', { body: { text: 1 } });
}

describe('the typed client', () => {
  it('types calls from the route table (checked by the compiler)', () => {
    expect(typeof typed).toBe('function');
    expect(typeof optional).toBe('function');
    // The typed client is the same object at run time.
    const client = createClient<BookshelfRoutes>({ baseUrl: 'http://127.0.0.1:1' });
    expect(typeof client.get).toBe('function');
  });
});
